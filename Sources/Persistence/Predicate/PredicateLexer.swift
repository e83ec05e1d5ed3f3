/// Splits a predicate format string into tokens. Offsets are counted in characters, as a person counts columns.
struct PredicateLexer {
    private let format: String
    private let characters: [Character]
    private var index = 0

    private init(format: String) {
        self.format = format
        self.characters = Array(format)
    }

    /// The tokens of `format`, ending with an `.end` token.
    /// - Throws: ``FetchPredicateError`` (`.syntax`) at the first character that cannot start or continue a token.
    static func tokenize(_ format: String) throws -> [PredicateToken] {
        var lexer = PredicateLexer(format: format)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if case .end = token.kind { return tokens }
        }
    }

    // MARK: Scanning

    private var current: Character? { index < characters.count ? characters[index] : nil }

    private func peek(_ distance: Int = 1) -> Character? {
        index + distance < characters.count ? characters[index + distance] : nil
    }

    private func error(_ message: String, at offset: Int) -> FetchPredicateError {
        FetchPredicateError(.syntax, message, format: format, offset: offset)
    }

    private func text(from start: Int) -> String {
        String(characters[start..<index])
    }

    private mutating func next() throws -> PredicateToken {
        while let c = current, c.isWhitespace { index += 1 }
        let start = index
        guard let c = current else { return PredicateToken(kind: .end, offset: start, text: "") }

        if Self.isIdentifierStart(c) {
            let word = scanWord()
            let kind: PredicateToken.Kind = PredicateToken.Keyword(word: word).map { .keyword($0) } ?? .identifier(word)
            return PredicateToken(kind: kind, offset: start, text: word)
        }
        if c.isASCII, c.isNumber {
            return try scanNumber()
        }
        switch c {
        case "\"", "'":
            return try scanString()
        case "#", "$", "@":
            index += 1
            guard let first = current, Self.isIdentifierStart(first) else {
                let what = c == "#" ? "a key after '#'" : c == "$" ? "a variable name after '$'"
                    : "a collection operator after '@', such as @count"
                throw error("expected \(what)", at: index)
            }
            let word = scanWord()
            let kind: PredicateToken.Kind = c == "#" ? .identifier(word) : c == "$" ? .variable(word)
                : .collectionOperator(word)
            return PredicateToken(kind: kind, offset: start, text: text(from: start))
        case "%":
            return try scanPlaceholder()
        default:
            return try scanSymbol()
        }
    }

    private static func isIdentifierStart(_ c: Character) -> Bool {
        c.isLetter || c == "_"
    }

    private static func isIdentifierPart(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_"
    }

    private mutating func scanWord() -> String {
        let start = index
        while let c = current, Self.isIdentifierPart(c) { index += 1 }
        return text(from: start)
    }

    private mutating func scanNumber() throws -> PredicateToken {
        let start = index
        if current == "0", let radix = peek(), "xXoObB".contains(radix) {
            index += 2
            let digitsStart = index
            while let c = current, c.isHexDigit { index += 1 }
            guard index > digitsStart else { throw error("expected digits after '\(text(from: start))'", at: index) }
        } else {
            while let c = current, c.isASCII, c.isNumber { index += 1 }
            // A '.' belongs to the number only when a digit follows, so `1.` never swallows a key path dot.
            if current == ".", let d = peek(), d.isASCII, d.isNumber {
                index += 1
                while let c = current, c.isASCII, c.isNumber { index += 1 }
            }
            if let e = current, e == "e" || e == "E" {
                var look = 1
                if let sign = peek(), sign == "+" || sign == "-" { look = 2 }
                if let d = peek(look), d.isASCII, d.isNumber {
                    index += look
                    while let c = current, c.isASCII, c.isNumber { index += 1 }
                }
            }
        }
        if let c = current, Self.isIdentifierPart(c) {
            throw error("unexpected '\(c)' in the number '\(text(from: start))'", at: index)
        }
        let literal = text(from: start)
        return PredicateToken(kind: .number(literal), offset: start, text: literal)
    }

    /// A quoted string. Escapes: `\\ \' \" \n \r \t \0 \uXXXX \u{X…}`. Any other backslash is kept with the
    /// character after it, so regular expressions (`MATCHES '\d+'`) and LIKE escapes (`LIKE 'a\*'`) read naturally.
    private mutating func scanString() throws -> PredicateToken {
        let start = index
        guard let quote = current else { throw error("expected a string", at: start) }
        index += 1
        var value = ""
        while true {
            guard let c = current else {
                throw error("unterminated string: no closing \(quote) for the quote at column \(start + 1)", at: start)
            }
            index += 1
            if c == quote { break }
            guard c == "\\" else { value.append(c); continue }
            guard let escaped = current else { continue }
            let escapeStart = index - 1
            index += 1
            switch escaped {
            case "\\", "'", "\"": value.append(escaped)
            case "n": value.append("\n")
            case "r": value.append("\r")
            case "t": value.append("\t")
            case "0": value.append("\0")
            case "u": value.unicodeScalars.append(try scanUnicodeEscape(escapeStart: escapeStart))
            default:
                value.append("\\")
                value.append(escaped)
            }
        }
        return PredicateToken(kind: .string(value), offset: start, text: text(from: start))
    }

    private mutating func scanUnicodeEscape(escapeStart: Int) throws -> Unicode.Scalar {
        var digits = ""
        if current == "{" {
            index += 1
            while let c = current, c != "}" {
                guard c.isHexDigit, digits.count < 8 else { break }
                digits.append(c)
                index += 1
            }
            guard current == "}" else { throw error("expected '}' to end the \\u{…} escape", at: index) }
            index += 1
        } else {
            while digits.count < 4, let c = current, c.isHexDigit {
                digits.append(c)
                index += 1
            }
            guard digits.count == 4 else { throw error("expected four hex digits after \\u", at: escapeStart) }
        }
        guard let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) else {
            throw error("\\u escape '\(digits)' is not a Unicode scalar value", at: escapeStart)
        }
        return scalar
    }

    /// `%@ %K %d %i %u %x %o %f %e %g %a %s`, with the C length modifiers NSPredicate accepts (`%ld`, `%lld`, `%lu`,
    /// `%lf`, `%la`…).
    private mutating func scanPlaceholder() throws -> PredicateToken {
        let start = index
        index += 1
        guard let c = current else { throw error("expected a format specifier after '%'", at: start) }
        let placeholder: PredicateToken.Placeholder
        switch c {
        case "@":
            index += 1
            placeholder = .object
        case "K":
            index += 1
            placeholder = .keyPath
        default:
            while let m = current, "lhqzjt".contains(m) { index += 1 }
            guard let conversion = current else {
                throw error("incomplete format specifier '\(text(from: start))'", at: start)
            }
            index += 1
            // The conversion says what the argument is, not how to print it: every integer conversion (decimal,
            // octal, hexadecimal) takes an integer, every floating-point one (%f, %e, %g, %a) a number.
            switch conversion {
            case "d", "i", "u", "D", "U", "o", "O", "x", "X": placeholder = .integer
            case "f", "F", "e", "E", "g", "G", "a", "A": placeholder = .float
            case "s", "S": placeholder = .string
            default:
                throw error("unknown format specifier '\(text(from: start))'; use %@, %K, %d, %i, %u, %x, %o, %f, %e, %g, %a or %s",
                            at: start)
            }
        }
        return PredicateToken(kind: .placeholder(placeholder), offset: start, text: text(from: start))
    }

    private mutating func scanSymbol() throws -> PredicateToken {
        let start = index
        let c = characters[index]
        let n = peek()
        typealias S = PredicateToken.Symbol
        let symbol: S
        var length = 1
        switch (c, n) {
        case ("=", "="): symbol = .equal; length = 2
        case ("=", "<"): symbol = .lessOrEqual; length = 2
        case ("=", ">"): symbol = .greaterOrEqual; length = 2
        case ("=", _): symbol = .equal
        case ("!", "="): symbol = .notEqual; length = 2
        case ("!", _): symbol = .bang
        case ("<", "="): symbol = .lessOrEqual; length = 2
        case ("<", ">"): symbol = .notEqual; length = 2
        case ("<", _): symbol = .less
        case (">", "="): symbol = .greaterOrEqual; length = 2
        case (">", _): symbol = .greater
        case ("&", "&"): symbol = .andAnd; length = 2
        case ("|", "|"): symbol = .orOr; length = 2
        case ("(", _): symbol = .openParen
        case (")", _): symbol = .closeParen
        case ("{", _): symbol = .openBrace
        case ("}", _): symbol = .closeBrace
        case ("[", _): symbol = .openBracket
        case ("]", _): symbol = .closeBracket
        case (",", _): symbol = .comma
        case (".", _): symbol = .dot
        case ("-", _): symbol = .minus
        case ("&", _), ("|", _):
            throw error("unexpected '\(c)'; write \(c)\(c) or \(c == "&" ? "AND" : "OR")", at: start)
        default:
            throw error("unexpected character '\(c)'", at: start)
        }
        index += length
        return PredicateToken(kind: .symbol(symbol), offset: start, text: text(from: start))
    }
}
