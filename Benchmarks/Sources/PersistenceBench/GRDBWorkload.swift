import Foundation
import GRDB

/// The same ten integers as a GRDB record: Codable, so GRDB writes and reads it through its record layer.
struct GRDBRow: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "row"
    var id: Int64
    var v0, v1, v2, v3, v4, v5, v6, v7, v8, v9: Int64

    init(id: Int64, base: Int64) {
        self.id = id
        v0 = base; v1 = base + 1; v2 = base + 2; v3 = base + 3; v4 = base + 4
        v5 = base + 5; v6 = base + 6; v7 = base + 7; v8 = base + 8; v9 = base + 9
    }

    var sum: Int64 { v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 }
}

/// GRDB 7, the best Swift peer: its record layer (Codable records) and its statement layer (cached statements,
/// row cursors), on the same rows as the other sides.
enum GRDBWorkload {
    static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        // The same journal as the other sides (Persistence and the raw side use WAL).
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL") }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    static func createRowTable(_ queue: DatabaseQueue) throws {
        try queue.write { db in
            try db.create(table: "row") { table in
                table.column("id", .integer).primaryKey()
                for column in 0..<10 { table.column("v\(column)", .integer).notNull() }
            }
        }
    }

    static func insertRecords(_ queue: DatabaseQueue, count: Int) throws {
        try queue.write { db in
            for index in 0..<count { try GRDBRow(id: Int64(index + 1), base: Int64(index * 10)).insert(db) }
        }
    }

    static func insertStatements(_ queue: DatabaseQueue, count: Int) throws {
        try queue.write { db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO row (id, v0, v1, v2, v3, v4, v5, v6, v7, v8, v9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            for index in 0..<count {
                let base = Int64(index * 10)
                try statement.execute(arguments: [Int64(index + 1), base, base + 1, base + 2, base + 3, base + 4,
                                                  base + 5, base + 6, base + 7, base + 8, base + 9])
            }
        }
    }

    static func readRecords(_ queue: DatabaseQueue) throws -> Int64 {
        try queue.read { db in try GRDBRow.fetchAll(db).reduce(0) { $0 + $1.sum } }
    }

    static func readStatements(_ queue: DatabaseQueue) throws -> Int64 {
        try queue.read { db in
            var sum: Int64 = 0
            let rows = try GRDB.Row.fetchCursor(db, sql: "SELECT id, v0, v1, v2, v3, v4, v5, v6, v7, v8, v9 FROM row")
            while let row = try rows.next() {
                for column in 1...10 { sum &+= row[column] as Int64 }
            }
            return sum
        }
    }
}
