/// Swift source cut into lexical pieces — the one reading of Swift text that the highlighter (colours) and the
/// tokenizer (shapes, for the transfer measure and outlines) both build on, so the two never disagree about where a
/// string, a comment or a name ends.
///
/// It is a lexer, not a parser: good enough for the workbook's code, and it never loses text — the pieces joined
/// give back the input exactly. String literals (interpolation with nested strings, multi-line and raw ones
/// included), number literals, comments (nested block comments included) and runs of whitespace are one piece
/// each; every other character that is not part of a name is a piece of its own, so `==` is two pieces.
enum SwiftLexer {
    struct Piece: Equatable {
        enum Kind: Equatable {
            /// Spaces, tabs and line breaks.
            case whitespace
            case comment
            case string
            case number
            /// A name or keyword, or `$0`.
            case identifier
            /// A name in backticks, closed on its line: the text keeps the backticks.
            case escapedIdentifier
            /// `@` and the name after it.
            case attribute
            /// `#` and the name after it (`#if`, `#Predicate`).
            case directive
            case punctuation
        }

        var kind: Kind
        var text: String
        /// The line (from 1) the piece starts on.
        var line: Int
    }

    static func pieces(in source: String) -> [Piece] {
        let characters = Array(source.unicodeScalars)
        var pieces: [Piece] = []
        var index = 0
        var line = 1

        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n"
        }
        func isIdentifierHead(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic
        }
        func isIdentifierBody(_ scalar: Unicode.Scalar) -> Bool {
            isIdentifierHead(scalar) || ("0"..."9").contains(scalar)
        }
        func peek(_ offset: Int) -> Unicode.Scalar? {
            index + offset < characters.count ? characters[index + offset] : nil
        }
        func skipName() {
            while index < characters.count, isIdentifierBody(characters[index]) { index += 1 }
        }

        while index < characters.count {
            let scalar = characters[index]
            let start = index
            let startLine = line
            let kind: Piece.Kind
            if isWhitespace(scalar) {
                while index < characters.count, isWhitespace(characters[index]) {
                    if characters[index] == "\n" { line += 1 }
                    index += 1
                }
                kind = .whitespace
            } else if scalar == "/", peek(1) == "/" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
                kind = .comment
            } else if scalar == "/", peek(1) == "*" {
                index = skipBlockComment(characters, from: index, line: &line)
                kind = .comment
            } else if scalar == "\"" || (scalar == "#" && (peek(1) == "\"" || peek(1) == "#")),
                      let end = skipString(characters, from: index, line: &line) {
                index = end
                kind = .string
            } else if ("0"..."9").contains(scalar) {
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
                kind = .number
            } else if scalar == "@" || scalar == "#", let next = peek(1), isIdentifierHead(next) {
                index += 1
                skipName()
                kind = scalar == "@" ? .attribute : .directive
            } else if isIdentifierHead(scalar) || (scalar == "$" && peek(1).map(isIdentifierBody) == true) {
                index += 1
                skipName()
                kind = .identifier
            } else if scalar == "`", let close = characters[(index + 1)...].firstIndex(where: { $0 == "`" || $0 == "\n" }),
                      characters[close] == "`" {
                index = close + 1
                kind = .escapedIdentifier
            } else {
                index += 1
                kind = .punctuation
            }
            pieces.append(Piece(kind: kind, text: String(String.UnicodeScalarView(characters[start..<index])),
                                line: startLine))
        }
        return pieces
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
    /// included; nil when `start` opens none. A single-line string left open ends before its line break.
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
                        if characters[escape] == "\n" { line += 1 }
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
