/// SQL functions every store connection has.
enum StoreFunctions {
    /// `PST_STRING(operator, options, left, right)`: a predicate's string operator, evaluated by
    /// ``StringComparison`` exactly as in memory. NULL when either string is NULL (the caller decides what nil means).
    static let stringOperator = "PST_STRING"

    /// Operator codes passed as the first argument.
    typealias Code = StringOperation

    static func register(on connection: SQLiteConnection) throws {
        try connection.registerTextFunction(stringOperator) { code, rawOptions, left, right in
            guard let operation = Code(rawValue: code) else {
                throw SQLiteError(code: SQLiteError.ResultCode.error, message: "\(stringOperator): bad operator", sql: nil)
            }
            let options = StringComparison.Options(rawValue: UInt8(truncatingIfNeeded: rawOptions))
            return try StringComparison.evaluate(operation, utf8: left, right, options: options) ? 1 : 0
        }
    }
}
