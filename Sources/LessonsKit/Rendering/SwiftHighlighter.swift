/// Splits Swift source into coloured tokens for both renderers. It is a lexer, not a parser: good enough for
/// lesson code, and it never loses text — the tokens joined give back the input exactly.
public enum SwiftHighlighter {
    public struct Token: Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            case plain, keyword, type, string, number, comment, attribute, directive
        }

        public var kind: Kind
        public var text: String

        public init(_ kind: Kind, _ text: String) {
            self.kind = kind
            self.text = text
        }
    }

    static let keywords: Set<String> = [
        "actor", "any", "as", "associatedtype", "async", "await", "break", "case", "catch", "class", "continue",
        "convenience", "default", "defer", "deinit", "do", "dynamic", "else", "enum", "extension", "fallthrough",
        "false", "fileprivate", "final", "for", "func", "get", "guard", "if", "import", "in", "indirect", "init",
        "inout", "internal", "is", "isolated", "lazy", "let", "mutating", "nil", "nonisolated", "nonmutating",
        "open", "operator", "override", "private", "protocol", "public", "repeat", "required", "rethrows",
        "return", "self", "Self", "set", "some", "static", "struct", "subscript", "super", "switch", "throw",
        "throws", "true", "try", "typealias", "unowned", "var", "weak", "where", "while", "willSet", "didSet",
        "consuming", "borrowing", "sending",
    ]

    public static func tokens(_ source: String) -> [Token] {
        var lexer = Lexer(Array(source))
        return lexer.run()
    }

    private struct Lexer {
        let chars: [Character]
        var index = 0
        var tokens: [Token] = []

        init(_ chars: [Character]) {
            self.chars = chars
        }

        func peek(_ offset: Int = 0) -> Character? {
            index + offset < chars.count ? chars[index + offset] : nil
        }

        mutating func emit(_ kind: Token.Kind, from start: Int) {
            let text = String(chars[start..<index])
            // Adjacent plain characters (spaces, punctuation) make one token.
            if kind == .plain, let last = tokens.last, last.kind == .plain {
                tokens[tokens.count - 1].text += text
            } else {
                tokens.append(Token(kind, text))
            }
        }

        mutating func run() -> [Token] {
            while let char = peek() {
                let start = index
                if char == "/" && peek(1) == "/" {
                    while let next = peek(), next != "\n" { index += 1 }
                    emit(.comment, from: start)
                } else if char == "/" && peek(1) == "*" {
                    blockComment()
                    emit(.comment, from: start)
                } else if char == "\"" || (char == "#" && rawStringAhead()) {
                    string()
                    emit(.string, from: start)
                } else if char.isNumber && char.isASCII {
                    while let next = peek(), next.isLetter || next.isNumber || next == "_" || next == "."
                        && (peek(1)?.isNumber ?? false) {
                        index += 1
                    }
                    emit(.number, from: start)
                } else if char == "@" && (peek(1)?.isLetter ?? false) {
                    index += 1
                    identifier()
                    emit(.attribute, from: start)
                } else if char == "#" && (peek(1)?.isLetter ?? false) {
                    index += 1
                    identifier()
                    emit(.directive, from: start)
                } else if char.isLetter || char == "_" {
                    identifier()
                    let word = String(chars[start..<index])
                    let previous = start > 0 ? chars[start - 1] : " "
                    // After a dot a keyword is a member name (`.default`, `.init` aside), not a keyword.
                    if Self.isKeyword(word) && (previous != "." || word == "init" || word == "self") {
                        emit(.keyword, from: start)
                    } else if word.first!.isUppercase {
                        emit(.type, from: start)
                    } else {
                        emit(.plain, from: start)
                    }
                } else if char == "`" {
                    index += 1
                    while let next = peek(), next != "`", next != "\n" { index += 1 }
                    if peek() == "`" { index += 1 }
                    emit(.plain, from: start)
                } else {
                    index += 1
                    emit(.plain, from: start)
                }
            }
            return tokens
        }

        static func isKeyword(_ word: String) -> Bool { SwiftHighlighter.keywords.contains(word) }

        mutating func identifier() {
            while let next = peek(), next.isLetter || next.isNumber || next == "_" { index += 1 }
        }

        mutating func blockComment() {
            var depth = 0
            while let char = peek() {
                if char == "/" && peek(1) == "*" {
                    depth += 1
                    index += 2
                } else if char == "*" && peek(1) == "/" {
                    depth -= 1
                    index += 2
                    if depth == 0 { return }
                } else {
                    index += 1
                }
            }
        }

        func rawStringAhead() -> Bool {
            var offset = 0
            while peek(offset) == "#" { offset += 1 }
            return peek(offset) == "\""
        }

        /// A string literal: `"…"`, `"""…"""`, raw `#"…"#`, with `\(…)` interpolations that may hold quotes.
        mutating func string() {
            var hashes = 0
            while peek() == "#" {
                hashes += 1
                index += 1
            }
            let multiline = peek() == "\"" && peek(1) == "\"" && peek(2) == "\""
            index += multiline ? 3 : 1
            let closing = String(repeating: "\"", count: multiline ? 3 : 1) + String(repeating: "#", count: hashes)
            let escape = "\\" + String(repeating: "#", count: hashes)
            while let char = peek() {
                if !multiline && char == "\n" { return }
                if matches(escape) {
                    index += escape.count
                    if peek() == "(" { interpolation() } else if peek() != nil { index += 1 }
                } else if matches(closing) {
                    index += closing.count
                    return
                } else {
                    index += 1
                }
            }
        }

        mutating func interpolation() {
            var depth = 0
            while let char = peek() {
                if char == "(" { depth += 1 }
                if char == ")" {
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return
                    }
                }
                if char == "\"" {
                    string()
                    continue
                }
                if char == "\n" { return }
                index += 1
            }
        }

        func matches(_ text: String) -> Bool {
            for (offset, char) in text.enumerated() where peek(offset) != char { return false }
            return true
        }
    }
}
