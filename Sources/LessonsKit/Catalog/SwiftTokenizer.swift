/// Swift source cut into tokens, enough to compare code by its shape: identifiers, literals and punctuation, with
/// comments, whitespace and compiler directives (`#if …` lines) left out.
///
/// It does not parse Swift: it reads ``SwiftLexer``'s pieces. String literals (interpolation, multi-line and raw
/// ones included) and number literals each become one token; every other character that is not a letter, digit or
/// `_` is a token of its own, so `==` is two tokens wherever it is written.
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
        var tokens: [Token] = []
        // Whether only whitespace has come since the last line break: a `#if` line there is for the compiler.
        var atLineStart = true
        var skippingLine = false
        for piece in SwiftLexer.pieces(in: source) {
            if piece.kind == .whitespace {
                if piece.text.unicodeScalars.contains("\n") {
                    atLineStart = true
                    skippingLine = false
                }
                continue
            }
            let startsLine = atLineStart
            atLineStart = false
            if skippingLine { continue }
            switch piece.kind {
            case .whitespace, .comment:
                continue
            case .directive where startsLine:
                skippingLine = true
            case .attribute, .directive:
                // `@MainActor`, `#Predicate`: the sign and the name, as two tokens.
                tokens.append(Token(.punctuation, String(piece.text.prefix(1)), line: piece.line))
                tokens.append(Token(.identifier, String(piece.text.dropFirst()), line: piece.line))
            case .identifier:
                tokens.append(Token(.identifier, piece.text, line: piece.line))
            case .escapedIdentifier:
                tokens.append(Token(.identifier, String(piece.text.dropFirst().dropLast()), line: piece.line))
            case .string:
                tokens.append(Token(.string, piece.text, line: piece.line))
            case .number:
                tokens.append(Token(.number, piece.text, line: piece.line))
            case .punctuation:
                tokens.append(Token(.punctuation, piece.text, line: piece.line))
            }
        }
        return tokens
    }
}
