/// A failure reported by SQLite: its result code, its message, and the SQL that was running.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's extended result code.
    let code: Int32
    let message: String
    let sql: String?

    var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " — in: \(sql)" }
        return text
    }

    /// `SQLITE_CONSTRAINT` and its extended codes.
    var isConstraintViolation: Bool { code & 0xFF == 19 }
}
