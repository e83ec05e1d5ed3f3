/// Swift source cut into tokens, enough to compare code by its shape: identifiers, literals and punctuation, with
/// comments, whitespace and compiler directives (`#if …` lines) left out.
///
/// It does not parse Swift. String literals (interpolation, multi-line and raw ones included) and number literals
/// each become one token; every other character that is not a letter, digit or `_` is a token of its own, so
/// `==` is two tokens wherever it is written.
public enum SwiftTokenizer {
    /// One token and the line (from 1) it starts on.
    public struct Token: Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            /// A name, a keyword, or `$0`.
            case identifier
            case string
            case number
            case punctuation
        }

        public var kind: Kind
        public var text: String
        public var line: Int

        public init(_ kind: Kind, _ text: String, line: Int) {
            self.kind = kind
            self.text = text
            self.line = line
        }
    }

    public static func tokens(in source: String) -> [Token] {
        let characters = Array(source.unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        var line = 1
        var atLineStart = true

        func isIdentifierHead(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic
        }
        func isIdentifierBody(_ scalar: Unicode.Scalar) -> Bool {
            isIdentifierHead(scalar) || ("0"..."9").contains(scalar)
        }
        func peek(_ offset: Int) -> Unicode.Scalar? {
            index + offset < characters.count ? characters[index + offset] : nil
        }
        func text(_ range: Range<Int>) -> String {
            String(String.UnicodeScalarView(characters[range]))
        }

        while index < characters.count {
            let scalar = characters[index]
            if scalar == "\n" {
                line += 1
                index += 1
                atLineStart = true
                continue
            }
            if scalar == " " || scalar == "\t" || scalar == "\r" {
                index += 1
                continue
            }
            let startsLine = atLineStart
            atLineStart = false
            if scalar == "/", peek(1) == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
                continue
            }
            if scalar == "/", peek(1) == "*" {
                index = skipBlockComment(characters, from: index, line: &line)
                continue
            }
            // `#if`, `#else`, `#endif` and the like: the whole line is for the compiler, not code.
            if scalar == "#", startsLine, let next = peek(1), isIdentifierHead(next) {
                while index < characters.count, characters[index] != "\n" { index += 1 }
                continue
            }
            let start = index
            let startLine = line
            if scalar == "\"" || (scalar == "#" && (peek(1) == "\"" || peek(1) == "#")) {
                if let end = skipString(characters, from: index, line: &line) {
                    index = end
                    tokens.append(Token(.string, text(start..<end), line: startLine))
                    continue
                }
            }
            if ("0"..."9").contains(scalar) {
                index += 1
                while index < characters.count {
                    let next = characters[index]
                    if isIdentifierBody(next) {
                        index += 1
                    } else if next == ".", let after = peek(1), ("0"..."9").contains(after) {
                        index += 1
                    } else {
                        break
                    }
                }
                tokens.append(Token(.number, text(start..<index), line: startLine))
                continue
            }
            if isIdentifierHead(scalar) || (scalar == "$" && peek(1).map(isIdentifierBody) == true) {
                index += 1
                while index < characters.count, isIdentifierBody(characters[index]) { index += 1 }
                tokens.append(Token(.identifier, text(start..<index), line: startLine))
                continue
            }
            if scalar == "`", let close = characters[(index + 1)...].firstIndex(of: "`"),
               !characters[(index + 1)..<close].contains("\n") {
                index = close + 1
                tokens.append(Token(.identifier, text((start + 1)..<close), line: startLine))
                continue
            }
            index += 1
            tokens.append(Token(.punctuation, String(scalar), line: startLine))
        }
        return tokens
    }

    /// The index after a `/* … */` comment (they nest in Swift).
    private static func skipBlockComment(_ characters: [Unicode.Scalar], from start: Int, line: inout Int) -> Int {
        var index = start + 2
        var depth = 1
        while index < characters.count, depth > 0 {
            if characters[index] == "\n" { line += 1 }
            if characters[index] == "/", index + 1 < characters.count, characters[index + 1] == "*" {
                depth += 1
                index += 2
            } else if characters[index] == "*", index + 1 < characters.count, characters[index + 1] == "/" {
                depth -= 1
                index += 2
            } else {
                index += 1
            }
        }
        return index
    }

    /// The index after the string literal starting at `start` (`"…"`, `"""…"""`, `#"…"#`), interpolations
    /// included; nil when `start` opens none.
    private static func skipString(_ characters: [Unicode.Scalar], from start: Int, line: inout Int) -> Int? {
        var index = start
        var hashes = 0
        while index < characters.count, characters[index] == "#" {
            hashes += 1
            index += 1
        }
        guard index < characters.count, characters[index] == "\"" else { return nil }
        let multiline = index + 2 < characters.count && characters[index + 1] == "\"" && characters[index + 2] == "\""
        let quotes = multiline ? 3 : 1
        index += quotes
        func closes(at position: Int) -> Bool {
            guard position + quotes + hashes <= characters.count else { return false }
            for offset in 0..<quotes where characters[position + offset] != "\"" { return false }
            for offset in 0..<hashes where characters[position + quotes + offset] != "#" { return false }
            return true
        }
        while index < characters.count {
            let scalar = characters[index]
            if scalar == "\n" {
                if !multiline { return index }
                line += 1
            }
            if scalar == "\\" {
                var escape = index + 1
                var count = 0
                while count < hashes, escape < characters.count, characters[escape] == "#" {
                    count += 1
                    escape += 1
                }
                if count == hashes, escape < characters.count {
                    if characters[escape] == "(" {
                        index = skipInterpolation(characters, from: escape, line: &line)
                    } else {
                        index = escape + 1
                    }
                    continue
                }
            }
            if closes(at: index) { return index + quotes + hashes }
            index += 1
        }
        return index
    }

    /// The index after the parenthesis matching the one at `start`, strings inside included.
    private static func skipInterpolation(_ characters: [Unicode.Scalar], from start: Int, line: inout Int) -> Int {
        var index = start + 1
        var depth = 1
        while index < characters.count, depth > 0 {
            let scalar = characters[index]
            if scalar == "\"", let end = skipString(characters, from: index, line: &line) {
                index = end
                continue
            }
            if scalar == "\n" { line += 1 }
            if scalar == "(" { depth += 1 }
            if scalar == ")" { depth -= 1 }
            index += 1
        }
        return index
    }
}
