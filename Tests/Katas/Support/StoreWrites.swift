import Foundation
@_spi(TestHarness) import Persistence

/// Which queue ran the store's statements while some code ran — as main-queue work, or elsewhere. A batch request
/// posts no notification that names its context, but its statement runs on the queue of the context that executed
/// it; a kata reads that to tell a batch run in the view context (on the main queue, where the UI waits) from one
/// run in a background context.
///
/// A context's `performAndWait` called from the main thread may run its block on that very thread, so the thread
/// says nothing; the queue does: Dispatch reports the queue whose block is running, and the main queue carries a
/// marker only this type sets.
struct StoreWrites: Sendable {
    /// The statements that ran while the main queue's block was running (the view context's queue).
    let onMainQueue: [String]
    /// The statements that ran on any other queue (a background context's).
    let elsewhere: [String]

    /// Runs `body` with the SQL debug log on and sorts each statement the store ran whose SQL starts with one of
    /// `prefixes` (`"UPDATE ZPLANT "`…) by the queue it ran on.
    static func capture<T>(_ prefixes: [String], _ body: () throws -> T) rethrows -> (result: T, writes: StoreWrites) {
        _ = markMainQueue
        let found = Found()
        let result = try PersistenceDebugLog.observe(sqlDebugLevel: 1, { line in
            guard line.hasPrefix(sql) else { return }
            let statement = String(line.dropFirst(sql.count))
            guard prefixes.contains(where: { statement.hasPrefix($0) }) else { return }
            found.add(statement, onMainQueue: DispatchQueue.getSpecific(key: mainQueue) == true)
        }, body)
        return (result, found.writes)
    }

    private static let sql = "CoreData: sql: "
    private static let mainQueue = DispatchSpecificKey<Bool>()
    /// Set once: the main queue lives as long as the process.
    private static let markMainQueue: Void = DispatchQueue.main.setSpecific(key: mainQueue, value: true)

    /// The statements seen so far, from whichever thread wrote them.
    private final class Found: @unchecked Sendable {
        private let lock = NSLock()
        private var main: [String] = []
        private var other: [String] = []
        func add(_ statement: String, onMainQueue: Bool) {
            lock.withLock { onMainQueue ? main.append(statement) : other.append(statement) }
        }
        var writes: StoreWrites { lock.withLock { StoreWrites(onMainQueue: main, elsewhere: other) } }
    }
}
