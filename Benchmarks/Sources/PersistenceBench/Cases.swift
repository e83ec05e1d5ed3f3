import Foundation
import GRDB
import Persistence

/// One measured case, run in a process of its own: `repetitions` times, printed as
/// "cold warm warm+release peakMB check coldFaults warmFaults".
///
/// The first repetition is cold (fresh process memory: every allocation faults in new pages); the later ones are
/// warm (memory freed by the previous repetition is reused), as in an app that has been running for a while.
enum Cases {
    static let repetitions = 5
    static let insertCount = 50_000
    static let fetchCount = 200_000

    static func run(_ name: String, path: String) throws {
        var times: [Double] = []
        var releases: [Double] = []
        var faults: [Int] = []
        var check = 0
        /// Times `work`, counting its page faults, then `release` (freeing what the work made).
        func measure(_ work: () throws -> Void, release: () -> Void) rethrows {
            let faultsBefore = minorFaults()
            let seconds = try timed(work)
            faults.append(minorFaults() - faultsBefore)
            times.append(seconds)
            releases.append(seconds + timed(release))
        }
        if name == "fetchdrop-persistence" {
            try fetchThenDrop(path: path)
            return
        }
        if name.hasPrefix("prepare-") {
            try prepare(String(name.dropFirst("prepare-".count)), path: path)
            print(0, 0, 0, peakMemoryMB(), 0, 0, 0)
            return
        }
        for repetition in 0..<repetitions {
            // Inserts write a fresh store and deletes a fresh copy of the prepared one; the others read `path`.
            var store = path
            if name.hasPrefix("insert") || name.hasPrefix("delete") { store = "\(path)-\(repetition)" }
            if store != path { removeStore(store) }
            if name.hasPrefix("delete") { try FileManager.default.copyItem(atPath: path, toPath: store) }
            defer { if store != path { removeStore(store) } }
            switch name {
            case "insert-raw":
                let db = RawSQLite.open(store)
                RawSQLite.createTable(db)
                measure({ RawSQLite.insert(db, count: insertCount) }, release: { RawSQLite.close(db) })
            case "insert-grdb-statements", "insert-grdb-records":
                var queue: DatabaseQueue? = try GRDBWorkload.open(store)
                try GRDBWorkload.createRowTable(queue!)
                try measure({
                    if name.hasSuffix("records") { try GRDBWorkload.insertRecords(queue!, count: insertCount) }
                    else { try GRDBWorkload.insertStatements(queue!, count: insertCount) }
                }, release: { queue = nil })
            case "insert-persistence":
                let container = try Workload.container(path: store)
                var context: ManagedObjectContext? = container.newBackgroundContext()
                try measure({ try Workload.insert(into: context!, count: insertCount) }, release: { context = nil })
            case "fetch-raw":
                let db = RawSQLite.open(store)
                measure({ check = Int(RawSQLite.readAll(db)) }, release: { RawSQLite.close(db) })
            case "fetch-grdb-statements", "fetch-grdb-records":
                var queue: DatabaseQueue? = try GRDBWorkload.open(store)
                try measure({
                    check = Int(name.hasSuffix("records") ? try GRDBWorkload.readRecords(queue!)
                                                          : try GRDBWorkload.readStatements(queue!))
                }, release: { queue = nil })
            case "fetch-persistence":
                let container = try Workload.container(path: store)
                var context: ManagedObjectContext? = container.newBackgroundContext()
                try measure({ check = try Workload.readAll(in: context!) }, release: { context = nil })
            case "search-raw":
                let db = RawSQLite.open(store)
                measure({ check = SearchWorkload.searchRaw(db) }, release: { RawSQLite.close(db) })
            case "search-grdb":
                var queue: DatabaseQueue? = try GRDBWorkload.open(store)
                try measure({ check = try SearchWorkload.searchGRDB(queue!) }, release: { queue = nil })
            case "search-persistence":
                let container = try SearchWorkload.container(path: store)
                var context: ManagedObjectContext? = container.newBackgroundContext()
                try measure({ check = try SearchWorkload.searchPersistence(context!) }, release: { context = nil })
            case "delete-raw":
                let db = RawSQLite.open(store)
                measure({ check = DeleteWorkload.deleteRaw(db) }, release: { RawSQLite.close(db) })
            case "delete-grdb":
                var queue: DatabaseQueue? = try GRDBWorkload.open(store)
                try measure({ check = try DeleteWorkload.deleteGRDB(queue!) }, release: { queue = nil })
            case "delete-persistence-child", "delete-persistence-context", "delete-persistence-batch":
                let container = try DeleteWorkload.container(path: store)
                try measure({
                    switch name {
                    case "delete-persistence-child": check = try DeleteWorkload.deleteThroughChild(container)
                    case "delete-persistence-context": check = try DeleteWorkload.deleteThroughContext(container)
                    default: check = try DeleteWorkload.batchDelete(container)
                    }
                }, release: {})
            default:
                throw BenchError("unknown case \(name)")
            }
        }
        let cold = times.first ?? 0
        let warm = times.dropFirst().sorted()
        let warmReleased = releases.dropFirst().sorted()
        let warmFaults = faults.dropFirst().sorted()
        print(cold, warm.isEmpty ? cold : warm[warm.count / 2],
              warmReleased.isEmpty ? 0 : warmReleased[warmReleased.count / 2], peakMemoryMB(), check,
              faults.first ?? 0, warmFaults.isEmpty ? 0 : warmFaults[warmFaults.count / 2])
    }

    /// Fetches every object of the fetch workload's store and drops the results, `repetitions` times in one
    /// context, as an app that fetches, reads and moves on: printed as "first median heldMB peakMB check 0 0",
    /// where heldMB is the memory still resident once the context's next block has begun after the last round (free
    /// pages given back), beyond what it was before the first. (A `performAndWait` block has no autorelease pool of
    /// its own on Apple; its objects go at the context's next drain point, and the next block is one.)
    static func fetchThenDrop(path: String) throws {
        let container = try Workload.container(path: path)
        let context = container.newBackgroundContext()
        var times: [Double] = []
        var check = 0
        let before = heapInUseMB()
        for _ in 0..<repetitions {
            times.append(try timed { check = try Workload.readAll(in: context) })
        }
        context.performAndWait {}
        let held = heapInUseMB() - before
        let warm = times.dropFirst().sorted()
        print(times[0], warm[warm.count / 2], held, peakMemoryMB(), check, 0, 0)
        withExtendedLifetime(context) {}
    }

    /// Fills the store a workload's cases read or copy: `kind` is "<workload>-<side>", e.g. "search-grdb".
    static func prepare(_ kind: String, path: String) throws {
        switch kind {
        case "fetch-raw":
            let db = RawSQLite.open(path)
            RawSQLite.createTable(db)
            RawSQLite.insert(db, count: fetchCount)
            RawSQLite.close(db)
        case "fetch-grdb":
            let queue = try GRDBWorkload.open(path)
            try GRDBWorkload.createRowTable(queue)
            try GRDBWorkload.insertStatements(queue, count: fetchCount)
        case "fetch-persistence": try Workload.insert(into: try Workload.container(path: path), count: fetchCount)
        case "search-raw": SearchWorkload.prepareRaw(path)
        case "search-grdb": try SearchWorkload.prepareGRDB(path)
        case "search-persistence": try SearchWorkload.preparePersistence(path)
        case "delete-raw": DeleteWorkload.prepareRaw(path)
        case "delete-grdb": try DeleteWorkload.prepareGRDB(path)
        case "delete-persistence": try DeleteWorkload.preparePersistence(path)
        default: throw BenchError("unknown store \(kind)")
        }
        // Deletes copy the file: it must hold the whole store, with nothing left in the write-ahead log.
        RawSQLite.checkpoint(path)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func peakMemoryMB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kb / 1024
}

/// The resident memory once malloc has given every free page back to the system (`malloc_trim(0)`, looked up at
/// run time: Swift's Glibc module does not import malloc.h), in MB: what the process still holds.
func heapInUseMB() -> Double {
    typealias Trim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kb / 1024
}

/// Minor page faults so far: each is a fresh page of memory the kernel had to hand over and zero.
func minorFaults() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_minflt
}

func timed(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func removeStore(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
}
