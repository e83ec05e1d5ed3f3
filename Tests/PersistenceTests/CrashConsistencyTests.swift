import Foundation
@testable import Persistence
import XCTest

/// A writer process saves 10,000 objects per transaction in a loop; it is killed with SIGKILL at random moments, 50
/// times. After every kill the store must open, pass SQLite's integrity check, and hold whole batches only.
final class CrashConsistencyTests: XCTestCase {
    private let batchSize = 10_000
    private let kills = 50

    func testAKilledWriterLeavesOnlyWholeTransactions() throws {
        _ = try CrashWriter.checked()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("entries.sqlite")

        var previousRows = 0
        var grew = 0
        for attempt in 0..<kills {
            XCTAssertEqual(try CrashWriter.runAndKill([store.path, String(batchSize)]), .uncaughtSignal,
                           "attempt \(attempt): the writer ended on its own")

            guard FileManager.default.fileExists(atPath: store.path) else { continue }
            let connection = try SQLiteConnection(path: store.path)
            XCTAssertEqual(try connection.query("PRAGMA integrity_check").first, [.text("ok")], "attempt \(attempt)")
            let tables = try connection.query("SELECT name FROM sqlite_master WHERE name = 'ZENTRY'")
            guard !tables.isEmpty else { continue }
            let batches = try connection.query("SELECT ZBATCH, COUNT(*) FROM ZENTRY GROUP BY ZBATCH")
            for batch in batches {
                XCTAssertEqual(batch[1], .integer(Int64(batchSize)), "attempt \(attempt): batch \(batch[0]) is not whole")
            }
            let rows = try connection.query("SELECT COUNT(*) FROM ZENTRY")
            guard case .integer(let count)? = rows.first?.first else { continue }
            XCTAssertEqual(Int(count) % batchSize, 0)
            if Int(count) > previousRows { grew += 1 }
            previousRows = Int(count)
        }
        XCTAssertGreaterThan(grew, 0, "the writer never managed to save: the test proved nothing")
    }
}
