import Foundation
import SQLite3C

/// The floor: the same work through SQLite's C API with prepared statements and no objects.
enum RawSQLite {
    /// SQLite copies a bound text at once (`SQLITE_TRANSIENT`), so a Swift string may go away after binding.
    nonisolated(unsafe) static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    static func open(_ path: String) -> OpaquePointer {
        var db: OpaquePointer?
        precondition(sqlite3_open(path, &db) == SQLITE_OK, "cannot open \(path)")
        exec(db!, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        return db!
    }

    static func close(_ db: OpaquePointer) {
        sqlite3_close(db)
    }

    static func exec(_ db: OpaquePointer, _ sql: String) {
        precondition(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK, String(cString: sqlite3_errmsg(db)))
    }

    static func createTable(_ db: OpaquePointer) {
        let columns = (0..<10).map { "ZV\($0) INTEGER" }.joined(separator: ", ")
        exec(db, "CREATE TABLE ZROW (Z_PK INTEGER PRIMARY KEY, Z_OPT INTEGER, \(columns))")
    }

    /// Inserts `count` rows of 10 integers in one transaction.
    static func insert(_ db: OpaquePointer, count: Int) {
        exec(db, "BEGIN")
        var statement: OpaquePointer?
        let marks = Array(repeating: "?", count: 10).joined(separator: ", ")
        sqlite3_prepare_v2(db, "INSERT INTO ZROW (Z_PK, Z_OPT, \((0..<10).map { "ZV\($0)" }.joined(separator: ", "))) VALUES (?, 1, \(marks))", -1, &statement, nil)
        for row in 0..<count {
            sqlite3_bind_int64(statement, 1, Int64(row + 1))
            for column in 0..<10 { sqlite3_bind_int64(statement, Int32(column + 2), Int64(row * 10 + column)) }
            precondition(sqlite3_step(statement) == SQLITE_DONE)
            sqlite3_reset(statement)
        }
        sqlite3_finalize(statement)
        exec(db, "COMMIT")
    }

    /// Reads every row and every column; returns their sum so nothing is optimised away.
    static func readAll(_ db: OpaquePointer) -> Int64 {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT Z_PK, Z_OPT, \((0..<10).map { "ZV\($0)" }.joined(separator: ", ")) FROM ZROW", -1, &statement, nil)
        var sum: Int64 = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            for column in 0..<10 { sum &+= sqlite3_column_int64(statement, Int32(column + 2)) }
        }
        sqlite3_finalize(statement)
        return sum
    }

    /// The number of rows in `table`.
    static func count(_ db: OpaquePointer, _ table: String) -> Int {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM \(table)", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        return sqlite3_step(statement) == SQLITE_ROW ? Int(sqlite3_column_int64(statement, 0)) : -1
    }

    /// Folds the write-ahead log into the database file, so that the file alone is the whole store.
    static func checkpoint(_ path: String) {
        let db = open(path)
        exec(db, "PRAGMA wal_checkpoint(TRUNCATE)")
        close(db)
    }
}
