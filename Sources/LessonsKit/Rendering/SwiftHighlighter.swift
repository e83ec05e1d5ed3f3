/// Splits Swift source into coloured tokens for both renderers, from ``SwiftLexer``'s pieces: good enough for
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
        var tokens: [Token] = []
        var previous: SwiftLexer.Piece?
        for piece in SwiftLexer.pieces(in: source) {
            let kind: Token.Kind
            switch piece.kind {
            case .whitespace, .punctuation, .escapedIdentifier: kind = .plain
            case .comment: kind = .comment
            case .string: kind = .string
            case .number: kind = .number
            case .attribute: kind = .attribute
            case .directive: kind = .directive
            case .identifier:
                let afterDot = previous?.kind == .punctuation && previous?.text == "."
                // After a dot a keyword is a member name (`.default`; `.init` and `.self` aside), not a keyword.
                if keywords.contains(piece.text) && (!afterDot || piece.text == "init" || piece.text == "self") {
                    kind = .keyword
                } else if piece.text.first?.isUppercase == true {
                    kind = .type
                } else {
                    kind = .plain
                }
            }
            previous = piece
            // Adjacent plain pieces (spaces, punctuation) make one token.
            if kind == .plain, let last = tokens.last, last.kind == .plain {
                tokens[tokens.count - 1].text += piece.text
            } else {
                tokens.append(Token(kind, piece.text))
            }
        }
        return tokens
    }
}
