internal import CSQLite

/// A failure reported by SQLite: its result code, its message, and the SQL that was running.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's extended result code.
    let code: Int32
    let message: String
    let sql: String?

    /// SQLite's primary result codes that Persistence tells apart (an extended code keeps its primary code in the
    /// low byte).
    enum ResultCode {
        /// `SQLITE_ERROR`: a generic error (also what a failing SQL function reports).
        static let error = SQLITE_ERROR
        /// `SQLITE_CORRUPT`: the database's pages do not hold together.
        static let corrupt = SQLITE_CORRUPT
        /// `SQLITE_CONSTRAINT`: a `UNIQUE`, `NOT NULL` or foreign-key constraint was broken.
        static let constraint = SQLITE_CONSTRAINT
        /// `SQLITE_NOTADB`: the file is not a database.
        static let notADatabase = SQLITE_NOTADB
    }

    var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " — in: \(sql)" }
        return text
    }

    /// The primary result code of ``code``.
    var primaryCode: Int32 { code & 0xFF }

    /// `SQLITE_CONSTRAINT` and its extended codes.
    var isConstraintViolation: Bool { primaryCode == ResultCode.constraint }

    /// `SQLITE_CORRUPT` or `SQLITE_NOTADB`: the file is damaged or not a database at all.
    var isDamagedFile: Bool { primaryCode == ResultCode.corrupt || primaryCode == ResultCode.notADatabase }
}
