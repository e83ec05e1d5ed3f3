/// SQL functions every store connection has.
enum StoreFunctions {
    /// `PST_STRING(operator, options, left, right)`: a predicate's string operator, evaluated by
    /// ``StringComparison`` exactly as in memory. NULL when either string is NULL (the caller decides what nil means).
    static let stringOperator = "PST_STRING"

    /// Operator codes passed as the first argument.
    enum Code: Int64 {
        case equal = 1, less, lessOrEqual, greater, greaterOrEqual, contains, beginsWith, endsWith, like, matches
    }

    static func register(on connection: SQLiteConnection) throws {
        try connection.registerFunction(stringOperator, argumentCount: 4) { arguments in
            guard case .integer(let code) = arguments[0], let op = Code(rawValue: code),
                  case .integer(let rawOptions) = arguments[1] else {
                throw SQLiteError(code: SQLiteError.ResultCode.error, message: "\(stringOperator): bad operator", sql: nil)
            }
            guard case .text(let left) = arguments[2], case .text(let right) = arguments[3] else { return .null }
            let options = StringComparison.Options(rawValue: UInt8(truncatingIfNeeded: rawOptions))
            let result: Bool
            switch op {
            case .equal: result = StringComparison.equals(left, right, options: options)
            case .less: result = StringComparison.compare(left, right, options: options) == .orderedAscending
            case .lessOrEqual: result = StringComparison.compare(left, right, options: options) != .orderedDescending
            case .greater: result = StringComparison.compare(left, right, options: options) == .orderedDescending
            case .greaterOrEqual: result = StringComparison.compare(left, right, options: options) != .orderedAscending
            case .contains: result = StringComparison.contains(left, right, options: options)
            case .beginsWith: result = StringComparison.beginsWith(left, right, options: options)
            case .endsWith: result = StringComparison.endsWith(left, right, options: options)
            case .like: result = StringComparison.like(left, pattern: right, options: options)
            case .matches: result = try StringComparison.matches(left, regex: right, options: options)
            }
            return .integer(result ? 1 : 0)
        }
    }
}
