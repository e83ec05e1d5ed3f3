/// SQL functions every store connection has.
enum StoreFunctions {
    /// Operator codes, as the functions' names and the C side number them.
    typealias Code = StringOperation

    /// The function for a predicate's string operator under the options' folding,
    /// `PST_STRING_<operator>_<folding>(left, right)`: ``StringComparison`` evaluates it exactly as in memory. NULL
    /// when either string is NULL (the caller decides what nil means).
    static func stringFunction(_ code: Code, _ options: StringComparison.Options) -> String {
        "PST_STRING_\(code.rawValue)_\(options.folding.rawValue)"
    }

    /// The foldings a function exists for: none, `[c]`, `[d]`, `[cd]` (`[n]` changes nothing).
    private static let foldings: [StringComparison.Options] = [[], [.caseInsensitive], [.diacriticInsensitive],
                                                                [.caseInsensitive, .diacriticInsensitive]]

    static func register(on connection: SQLiteConnection) throws {
        for code in Code.allCases {
            for folding in foldings {
                try connection.registerStringOperatorFunction(
                    stringFunction(code, folding), operation: Int32(code.rawValue), folding: Int32(folding.rawValue)
                ) { rawCode, rawFolding, left, right in
                    guard let operation = Code(rawValue: rawCode) else {
                        throw SQLiteError(code: SQLiteError.ResultCode.error, message: "PST_STRING: bad operator \(rawCode)", sql: nil)
                    }
                    let options = StringComparison.Options(rawValue: UInt8(truncatingIfNeeded: rawFolding))
                    return try StringComparison.evaluate(operation, utf8: left, right, options: options) ? 1 : 0
                }
            }
        }
    }
}
