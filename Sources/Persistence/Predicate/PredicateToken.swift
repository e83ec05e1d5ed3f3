/// One token of a predicate format string, with where it starts, for error messages.
struct PredicateToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A key: `name`, or a reserved word escaped with `#` (`#from`), stored without the `#`.
        case identifier(String)
        /// A reserved word, recognized case-insensitively.
        case keyword(Keyword)
        /// A quoted string, escapes resolved.
        case string(String)
        /// An unsigned number as written (`42`, `2.5e3`, `0x1F`); a leading `-` is a separate token.
        case number(String)
        /// `$NAME`, stored without the `$`.
        case variable(String)
        /// `@count`, `@sum`…, stored without the `@`.
        case collectionOperator(String)
        /// `%@`, `%K`, `%d`…
        case placeholder(Placeholder)
        case symbol(Symbol)
        case end
    }

    /// The words of the grammar. Any of them can still be used as a key when escaped with `#`, and after a `.` in a
    /// key path every word is a key. Words NSPredicate reserves but this grammar does not use (`SIZE`, `FIRST`,
    /// `LAST`, `ANYKEY`…) are ordinary keys.
    enum Keyword: String, Sendable, Hashable, CaseIterable {
        case and = "AND", or = "OR", not = "NOT"
        case any = "ANY", some = "SOME", all = "ALL", none = "NONE"
        case `in` = "IN", contains = "CONTAINS", beginsWith = "BEGINSWITH", endsWith = "ENDSWITH"
        case like = "LIKE", matches = "MATCHES", between = "BETWEEN"
        case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
        case `true` = "TRUE", yes = "YES", `false` = "FALSE", no = "NO", `nil` = "NIL", null = "NULL"
        case `self` = "SELF"

        /// The keyword spelled by `word` in any letter case, if it is one.
        init?(word: String) {
            self.init(rawValue: word.uppercased())
        }
    }

    enum Symbol: String, Sendable, Hashable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case andAnd = "&&", orOr = "||", bang = "!"
        case openParen = "(", closeParen = ")", openBrace = "{", closeBrace = "}", openBracket = "[",
             closeBracket = "]"
        case comma = ",", dot = ".", minus = "-"
    }

    /// A format specifier that takes the next argument.
    enum Placeholder: Sendable, Hashable {
        /// `%@`: any supported value, object or collection.
        case object
        /// `%K`: a key path given as a string.
        case keyPath
        /// `%d`, `%i`, `%u`, `%x`, `%o`, with length modifiers (`%ld`, `%lld`, `%lu`…): an integer.
        case integer
        /// `%f`, `%e`, `%g`, `%a`, with length modifiers (`%lf`, `%la`…): a floating-point number.
        case float
        /// `%s`: a string.
        case string
    }

    var kind: Kind
    /// The offset of the token's first character in the format, in characters.
    var offset: Int
    /// The token as written, for messages.
    var text: String

    /// The token as a message quotes it.
    var quoted: String {
        if case .end = kind { return "the end of the format" }
        return "'\(text)'"
    }
}
