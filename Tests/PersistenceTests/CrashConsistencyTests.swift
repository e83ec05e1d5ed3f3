import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// A writer process saves 10,000 objects per transaction in a loop and is killed with SIGKILL; after every kill the
/// store must open, pass SQLite's integrity check, and hold whole batches only — every batch the writer reported
/// saved, and never the one it was writing.
///
/// The kills are not at random moments but at each point where a crash can leave something different on disk; the
/// writer is stopped, looked at from outside (the WAL locks it holds, the state of the log, what it printed: see
/// `CrashWriter.kill`) and killed only in the state wanted, so each point is hit on
/// every run (a run that cannot reach one fails), rather than 50 random kills hitting most of them most of the time:
///
/// 1. creating a fresh store (inside the schema's transaction): nothing of the half-made schema may remain;
/// 2. opening the existing store again, before its first save: the store is as it was;
/// 3. inside a save's transaction, its rows written but nothing on disk yet: the batch is absent;
/// 4. in the middle of a commit (the log holds frames of the transaction without its commit frame): the batch is
///    absent, and the torn frames are ignored;
/// 5. between two saves, after a commit: every batch reported saved is there.
final class CrashConsistencyTests: XCTestCase {
    private let batchSize = 10_000

    func testAKilledWriterLeavesOnlyWholeTransactions() throws {
        _ = try CrashWriter.checked()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("entries.sqlite")
        let arguments = [store.path, String(batchSize)]

        /// The batches in the store, checked whole.
        func batches(after point: String) throws -> Int {
            let connection = try SQLiteConnection(path: store.path)
            XCTAssertEqual(try connection.query("PRAGMA integrity_check").first, [.text("ok")], point)
            guard try !connection.query("SELECT name FROM sqlite_master WHERE name = 'ZENTRY'").isEmpty else { return 0 }
            for batch in try connection.query("SELECT ZBATCH, COUNT(*) FROM ZENTRY GROUP BY ZBATCH") {
                XCTAssertEqual(batch[1], .integer(Int64(batchSize)), "\(point): batch \(batch[0]) is not whole")
            }
            guard case .integer(let count)? = try connection.query("SELECT COUNT(*) FROM ZENTRY").first?.first else { return -1 }
            XCTAssertEqual(Int(count) % batchSize, 0, point)
            return Int(count) / batchSize
        }

        // 1. Creating the store: the schema's transaction, before the store is loaded. A short moment: a run that
        // gets past it is killed and the writer started again on a fresh store.
        var point = "creating the store"
        _ = try XCTUnwrap(CrashWriter.kill(arguments, store: store, at: point,
                                           when: { $0.holdsWriteLock && $0.count("opened") == 0 },
                                           missed: { $0.count("opened") == 1 },
                                           beforeEachRun: {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
        }))
        XCTAssertEqual(try SQLiteConnection(path: store.path).query("SELECT name FROM sqlite_master"), [],
                       "\(point): part of the schema survived")
        XCTAssertEqual(try batches(after: point), 0)

        // 3. Inside the first save's transaction, nothing of it on disk yet.
        point = "inside a save's transaction"
        var state = try XCTUnwrap(CrashWriter.kill(arguments, store: store, at: point) {
            $0.holdsWriteLock && $0.count("opened") == 1 && $0.logEndsAtLastCommit
        })
        var saved = state.count("saved batch")
        XCTAssertEqual(try batches(after: point), saved, "\(point): the batch being written must be absent")

        // 5. Between saves: after at least one commit, outside any transaction.
        point = "between saves"
        var before = saved
        state = try XCTUnwrap(CrashWriter.kill(arguments, store: store, at: point) {
            !$0.holdsWriteLock && $0.count("saved batch") >= 1
        })
        saved = before + state.count("saved batch")
        var now = try batches(after: point)
        // A kill between the commit and the line reporting it leaves one batch more than reported.
        XCTAssertTrue(now == saved || now == saved + 1, "\(point): \(now) batches, \(saved) reported saved")
        XCTAssertGreaterThan(now, 0, "\(point): the writer never managed to save")

        // 2. Opening the existing store: the file open, the store not yet loaded. A short moment: a run that gets past
        // it is killed there and the writer started again; what that kill leaves (read while the writer is stopped,
        // so exactly what it leaves) is the store the next run opens.
        point = "opening the existing store"
        before = now
        _ = try XCTUnwrap(CrashWriter.kill(arguments, store: store, at: point,
                                           when: { $0.hasStoreOpen && $0.count("opened") == 0 },
                                           missed: { state in
            guard state.count("opened") == 1 else { return false }
            before = (try? batches(after: "a run past \(point)")) ?? -1
            return true
        }))
        XCTAssertEqual(try batches(after: point), before, "\(point): the store changed")

        // 4. In the middle of a commit: frames of the transaction in the log, no commit frame yet.
        point = "in the middle of a commit"
        state = try XCTUnwrap(CrashWriter.kill(arguments, store: store, at: point) { $0.holdsWriteLock && $0.hasUncommittedFrames })
        now = try batches(after: point)
        XCTAssertEqual(now, before + state.count("saved batch"), "\(point): the batch being committed must be absent")
    }
}
