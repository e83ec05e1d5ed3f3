/// The declarations of one Swift file, found in its tokens: each function's and initializer's body, each stored
/// or computed property outside them, and the names the file declares.
///
/// Like ``SwiftTokenizer`` it reads shapes, not grammar: it is right for the workbook's own code, written in the
/// usual layout, and never has to be right for every Swift file.
public struct SwiftOutline: Sendable {
    /// A function, initializer or property and where its code is in ``tokens``.
    public struct Declaration: Equatable, Sendable {
        /// `importCatalog`, `init`, or a property's name.
        public var name: String
        /// `importCatalog(_:)`, `init(card:container:)`; a property's name alone.
        public var signature: String
        /// The body's tokens, braces excluded; for a stored property, its initial value.
        public var body: Range<Int>
    }

    public let tokens: [SwiftTokenizer.Token]
    public let functions: [Declaration]
    public let properties: [Declaration]

    public init(_ source: String) {
        self.init(tokens: SwiftTokenizer.tokens(in: source))
    }

    public init(tokens: [SwiftTokenizer.Token]) {
        self.tokens = tokens
        var functions: [Declaration] = []
        var index = 0
        while index < tokens.count {
            if let function = Self.function(at: index, in: tokens) {
                functions.append(function)
            }
            index += 1
        }
        self.functions = functions
        let bodies = functions.map(\.body)
        var properties: [Declaration] = []
        for index in tokens.indices where Self.isWord(tokens[index], "let") || Self.isWord(tokens[index], "var") {
            guard !bodies.contains(where: { $0.contains(index) }),
                  let property = Self.property(at: index, in: tokens) else { continue }
            properties.append(property)
        }
        self.properties = properties
    }

    /// The declarations named `signature` (`save(completion:)`); when none has exactly that signature, those with
    /// its base name (a kata may name a function loosely).
    public func declarations(matching signature: String) -> [Declaration] {
        let exact = (functions + properties).filter { $0.signature == signature }
        if !exact.isEmpty { return exact }
        let base = String(signature.prefix { $0 != "(" })
        return functions.filter { $0.name == base }
    }

    // MARK: Reading declarations

    static func isWord(_ token: SwiftTokenizer.Token, _ word: String) -> Bool {
        token.kind == .identifier && token.text == word
    }

    /// `func name(…) … { … }` or `init(…) … { … }` starting at `index`.
    private static func function(at index: Int, in tokens: [SwiftTokenizer.Token]) -> Declaration? {
        var cursor = index
        let name: String
        if isWord(tokens[cursor], "func") {
            guard cursor + 1 < tokens.count, tokens[cursor + 1].kind == .identifier else { return nil }
            name = tokens[cursor + 1].text
            cursor += 2
        } else if isWord(tokens[cursor], "init"), cursor == 0 || tokens[cursor - 1].text != "." {
            name = "init"
            cursor += 1
            if cursor < tokens.count, tokens[cursor].text == "?" || tokens[cursor].text == "!" { cursor += 1 }
        } else {
            return nil
        }
        if cursor < tokens.count, tokens[cursor].text == "<" {
            guard let close = closing(of: cursor, in: tokens, open: "<", close: ">") else { return nil }
            cursor = close + 1
        }
        guard cursor < tokens.count, tokens[cursor].text == "(",
              let parametersEnd = closing(of: cursor, in: tokens) else { return nil }
        let labels = parameters(in: (cursor + 1)..<parametersEnd, of: tokens).map(\.label)
        // The body opens at the first `{` after the effects, the result type and any `where` clause.
        var brace = parametersEnd + 1
        while brace < tokens.count, tokens[brace].text != "{" {
            if tokens[brace].text == "}" || ["func", "init", "var", "let", "case"].contains(tokens[brace].text) {
                return nil
            }
            brace += 1
        }
        guard brace < tokens.count, let end = closing(of: brace, in: tokens) else { return nil }
        return Declaration(name: name, signature: name + "(" + labels.map { $0 + ":" }.joined() + ")",
                           body: (brace + 1)..<end)
    }

    /// `let name = …` or `var name: T { … }` starting at `index`: the value or the accessor's body. A property
    /// without either (`let name: T`) declares nothing to measure.
    private static func property(at index: Int, in tokens: [SwiftTokenizer.Token]) -> Declaration? {
        guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier else { return nil }
        let name = tokens[index + 1].text
        var cursor = index + 2
        var depth = 0
        let line = tokens[index].line
        // The type annotation, if any, up to `=` or `{` on the declaration's line.
        while cursor < tokens.count {
            let text = tokens[cursor].text
            if depth == 0, text == "=" || text == "{" { break }
            if depth == 0, tokens[cursor].line != line { return nil }
            if text == "(" || text == "[" || text == "<" { depth += 1 }
            if text == ")" || text == "]" || text == ">" { depth -= 1 }
            cursor += 1
        }
        guard cursor < tokens.count else { return nil }
        if tokens[cursor].text == "{" {
            guard let end = closing(of: cursor, in: tokens) else { return nil }
            return Declaration(name: name, signature: name, body: (cursor + 1)..<end)
        }
        // A value runs to the end of the line on which its brackets are all closed again.
        let start = cursor + 1
        var end = start
        depth = 0
        while end < tokens.count {
            let text = tokens[end].text
            if text == "(" || text == "[" || text == "{" { depth += 1 }
            if text == ")" || text == "]" || text == "}" {
                depth -= 1
                if depth < 0 { break }
            }
            end += 1
            if depth == 0, end < tokens.count, tokens[end].line != tokens[end - 1].line { break }
        }
        return Declaration(name: name, signature: name, body: start..<end)
    }

    /// The index of the token closing the bracket at `open`.
    static func closing(of open: Int, in tokens: [SwiftTokenizer.Token], open opener: String? = nil,
                        close closer: String? = nil) -> Int? {
        let opener = opener ?? tokens[open].text
        let closer = closer ?? [")": ")", "(": ")", "[": "]", "{": "}"][opener] ?? ")"
        var depth = 0
        var index = open
        while index < tokens.count {
            if tokens[index].kind == .punctuation {
                if tokens[index].text == opener { depth += 1 }
                if tokens[index].text == closer {
                    depth -= 1
                    if depth == 0 { return index }
                }
            }
            index += 1
        }
        return nil
    }

    /// Each parameter of a parameter list: its argument label (`_` for none) and its names.
    static func parameters(in range: Range<Int>, of tokens: [SwiftTokenizer.Token]) -> [(label: String, names: [String])] {
        var result: [(label: String, names: [String])] = []
        var part: [SwiftTokenizer.Token] = []
        var depth = 0
        func finish() {
            // A part without a colon is a piece of a generic type cut at its comma, not a parameter.
            if let colon = part.firstIndex(where: { $0.text == ":" }), colon > 0 {
                let names = part[..<colon].filter { $0.kind == .identifier && !Self.modifiers.contains($0.text) }
                    .map(\.text)
                if let label = names.first { result.append((label, names)) }
            }
            part = []
        }
        for index in range {
            let token = tokens[index]
            if token.text == "(" || token.text == "[" || token.text == "{" { depth += 1 }
            if token.text == ")" || token.text == "]" || token.text == "}" { depth -= 1 }
            if depth == 0, token.text == "," {
                finish()
            } else {
                part.append(token)
            }
        }
        finish()
        return result
    }

    private static let modifiers: Set<String> = ["inout", "isolated", "sending", "borrowing", "consuming"]
}
