internal import CPersistenceSupport
internal import CSQLite
import Foundation

/// Owns one `sqlite3*` handle. Not thread-safe: its owner serialises every use.
///
/// One of the few files that speak C: everything that leaves here is a Swift value.
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    private var statementCache: [String: SQLiteStatement] = [:]

    struct OpenOptions: OptionSet {
        let rawValue: Int32
        static let readOnly = OpenOptions(rawValue: SQLITE_OPEN_READONLY)
        static let readWrite = OpenOptions(rawValue: SQLITE_OPEN_READWRITE)
        static let create = OpenOptions(rawValue: SQLITE_OPEN_CREATE)
        static let uri = OpenOptions(rawValue: SQLITE_OPEN_URI)
    }

    init(path: String, options: OpenOptions = [.readWrite, .create]) throws {
        var db: OpaquePointer?
        // NOMUTEX: the owner serialises access, SQLite's own mutex would only cost time.
        let flags = options.rawValue | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message, sql: nil)
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5_000)
        // The launch arguments that turn on Core Data's debug logs are read before the first statement runs.
        PersistenceDebugLog.readLaunchArguments()
    }

    deinit {
        // Statements must be finalised before the connection closes.
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no arguments and return no rows.
    func execute(_ sql: String) throws {
        if _slowPath(persistence_sql_debug_level() != 0) { PersistenceDebugLog.write("CoreData: sql: " + sql) }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// A prepared statement for `sql`, reused across calls (reset and unbound before it is handed out).
    func cachedStatement(_ sql: String) throws -> SQLiteStatement {
        if let statement = statementCache[sql] {
            try statement.reset()
            return statement
        }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// A prepared statement used once.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// Runs a statement with arguments that returns no rows; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> Int {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        while try statement.step() {}
        return changes
    }

    /// Runs a query and returns every row as Swift values.
    func query(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        var rows: [[SQLiteValue]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return rows
    }

    var changes: Int { Int(sqlite3_changes(handle)) }
    /// The rows this connection has changed since it opened (triggers' changes included): moves with every write.
    var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    /// Raises an error for a result code that is not `SQLITE_OK`. (Inlined, with the SQL behind an autoclosure:
    /// a check on the success path should cost one comparison.)
    @inline(__always)
    func check(_ rc: Int32, sql: @autoclosure () -> String?) throws {
        guard rc == SQLITE_OK else { throw failure(sql: sql()) }
    }

    private func failure(sql: String?) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: lastErrorMessage, sql: sql)
    }

    /// Copies this whole database into `destination` with SQLite's online backup API, which reads one consistent
    /// state even while other connections write (what the `-wal` file holds included).
    func backup(into destination: SQLiteConnection) throws {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw SQLiteError(code: sqlite3_extended_errcode(destination.handle), message: destination.lastErrorMessage, sql: "backup")
        }
        var rc: Int32
        repeat {
            rc = sqlite3_backup_step(backup, -1)
            if rc == SQLITE_BUSY || rc == SQLITE_LOCKED { sqlite3_sleep(10) }
        } while rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED
        let finish = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE, finish == SQLITE_OK else {
            throw SQLiteError(code: rc == SQLITE_DONE ? finish : rc, message: destination.lastErrorMessage, sql: "backup")
        }
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; any error rolls the transaction back.
    func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }
}
