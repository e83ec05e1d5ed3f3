internal import CPersistenceSupport
internal import CSQLite
import Foundation

/// Owns one `sqlite3_stmt*`. Columns come back as Swift values; arguments are always bound, never spliced.
final class SQLiteStatement {
    let handle: OpaquePointer
    unowned let connection: SQLiteConnection
    let sql: String
    let columnCount: Int32
    /// The values bound for the next run, by parameter number, kept only while the SQL debug log shows them
    /// (level 2 and up; see `SQLiteStatement+DebugLog.swift`). Every run binds every parameter again.
    var debugBindings: [Int32: SQLiteValue] = [:]
    /// When the current run started, while the SQL debug log is on (nanoseconds of uptime).
    var debugStarted: UInt64 = 0

    init(connection: SQLiteConnection, sql: String) throws {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else {
            throw SQLiteError(code: sqlite3_extended_errcode(connection.handle), message: connection.lastErrorMessage, sql: sql)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
        self.columnCount = sqlite3_column_count(statement)
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Readies the statement to run again. A failed earlier step has already been reported, so `sqlite3_reset`'s
    /// echo of that error is not an error here.
    func reset(clearingBindings: Bool = true) throws {
        sqlite3_reset(handle)
        if clearingBindings { try check(sqlite3_clear_bindings(handle)) }
    }

    func bind(_ arguments: [SQLiteValue]) throws {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard expected == arguments.count else {
            throw SQLiteError(code: SQLITE_RANGE, message: "expected \(expected) arguments, got \(arguments.count)", sql: sql)
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument, at: Int32(offset + 1))
        }
    }

    @inline(__always)
    func bind(_ value: SQLiteValue, at index: Int32) throws {
        if _slowPath(persistence_sql_debug_level() >= 2) { debugBindings[index] = value }
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v): rc = SQLiteStatement.withUTF8(v) { sqlite3_bind_text64(handle, index, $0, $1, csqlite_transient(), UInt8(SQLITE_UTF8)) }
        case .blob(let v):
            rc = v.withUnsafeBytes { bytes in
                // A zero-length blob needs a non-null pointer to stay a blob rather than NULL.
                sqlite3_bind_blob64(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                    sqlite3_uint64(bytes.count), csqlite_transient())
            }
        }
        try check(rc)
    }

    /// Hands `body` the UTF-8 bytes of `text` and their count. Text goes to SQLite with its byte length, never as a
    /// C string, so a NUL inside it is kept rather than ending it. (An empty string still gets a valid pointer:
    /// a null one would bind NULL.)
    @inline(__always)
    static func withUTF8<R>(_ text: String, _ body: (UnsafePointer<CChar>, sqlite3_uint64) -> R) -> R {
        var text = text
        return text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                if let base = chars.baseAddress { return body(base, sqlite3_uint64(chars.count)) }
                return "".withCString { body($0, 0) }
            }
        }
    }

    @inline(__always)
    func bind(_ value: Int64, at index: Int32) throws {
        if _slowPath(persistence_sql_debug_level() >= 2) { debugBindings[index] = .integer(value) }
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binding checks a code per column: the success path must not touch the (unowned) connection, which would
    /// retain and release it every time.
    @inline(__always)
    private func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK else { throw failure() }
    }

    private func failure() -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(connection.handle), message: connection.lastErrorMessage, sql: sql)
    }

    /// Advances to the next row; `false` when the statement is done.
    func step() throws -> Bool {
        // The log shows a statement as it starts a run (SQLite calls it busy from its first step to its end).
        if _slowPath(persistence_sql_debug_level() != 0) && sqlite3_stmt_busy(handle) == 0 { logStart() }
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(code: sqlite3_extended_errcode(connection.handle), message: connection.lastErrorMessage, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func text(at column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return .text(text(at: column))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return .blob(Data()) }
            return .blob(Data(bytes: pointer, count: count))
        default: return .null
        }
    }
}
