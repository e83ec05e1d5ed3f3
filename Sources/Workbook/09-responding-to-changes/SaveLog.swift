import Foundation
import KataSupport
import Persistence

/// Collects the object IDs of one context's saves: what it inserted, updated and deleted, and how many saves
/// there were. The did-save notification arrives on the saving context's queue, so the sets are guarded by a lock
/// and may be read from any thread.
///
/// Lesson 9, katas 1–2. Check with `swift run lessons check 9`.
public final class SaveLog: @unchecked Sendable {
    /// The context whose saves are collected.
    public let context: ManagedObjectContext
    private let lock = NSLock()
    private var collected = (inserted: Set<ManagedObjectID>(), updated: Set<ManagedObjectID>(),
                             deleted: Set<ManagedObjectID>(), saves: 0)
    /// The token `addObserver(forName:object:queue:using:)` returned; ``stop()`` hands it back.
    private var observer: (any NSObjectProtocol)?

    public init(observing context: ManagedObjectContext) {
        self.context = context
    }

    public var inserted: Set<ManagedObjectID> { lock.withLock { collected.inserted } }
    public var updated: Set<ManagedObjectID> { lock.withLock { collected.updated } }
    public var deleted: Set<ManagedObjectID> { lock.withLock { collected.deleted } }
    /// How many saves were collected.
    public var saves: Int { lock.withLock { collected.saves } }

    /// Starts collecting the saves of ``context`` — of that context only: each did-save notification adds its
    /// inserted, updated and deleted IDs to the sets (under the lock) and counts one save, by the time the save
    /// returns. Keep the observer's token in `observer`. Starting a log that runs already must not count twice,
    /// and a log its owner lets go must stop counting.
    public func start() throws {
        throw KataNotDone(lesson: 9)
    }

    /// Stops collecting. A block observer stays registered until its token is removed.
    public func stop() {
        if let observer { NotificationCenter.default.removeObserver(observer) }
        observer = nil
    }

    deinit { stop() }
}
