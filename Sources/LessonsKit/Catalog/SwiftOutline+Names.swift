extension SwiftOutline {
    private static let declarationKeywords: Set<String> = [
        "let", "var", "func", "case", "class", "struct", "enum", "protocol", "typealias", "actor", "associatedtype",
    ]

    /// Every name the file declares: types, functions, properties, enum cases, parameters (labels and names),
    /// locals, closure and loop variables, and the labels of tuple types. These are the names a copy renames.
    public var declaredNames: Set<String> {
        var names: Set<String> = []
        func identifiers(in range: Range<Int>) {
            for index in range where tokens[index].kind == .identifier && !Self.isKeywordLike(tokens[index].text) {
                names.insert(tokens[index].text)
            }
        }
        for (index, token) in tokens.enumerated() where token.kind != .string {
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            if token.kind == .identifier, Self.declarationKeywords.contains(token.text), let next {
                if next.kind == .identifier {
                    names.insert(next.text)
                } else if next.text == "(", let close = Self.closing(of: index + 1, in: tokens) {
                    identifiers(in: (index + 2)..<close)      // `let (a, b) = …`, `case let (a, b)`
                }
            }
            if Self.isWord(token, "for"), let inIndex = tokens[index...].prefix(12).firstIndex(where: { Self.isWord($0, "in") }) {
                identifiers(in: (index + 1)..<inIndex)
            }
            if token.text == "{", let parameters = closureParameters(after: index) {
                identifiers(in: parameters)
            }
            if token.text == "(", let close = Self.closing(of: index, in: tokens) {
                let before = index > 0 ? tokens[index - 1] : nil
                let isParameterList = index >= 2 && (Self.isWord(tokens[index - 2], "func")
                    || Self.isWord(tokens[index - 2], "case")) || before.map { Self.isWord($0, "init") } == true
                    || before?.text == ">" && isGenericFunction(closingAt: index - 1)
                let isTupleType = before.map { [":", "[", "<"].contains($0.text) } == true
                    || (index >= 2 && before?.text == ">" && tokens[index - 2].text == "-")
                if isParameterList || isTupleType {
                    for parameter in Self.parameters(in: (index + 1)..<close, of: tokens) {
                        names.formUnion(parameter.names.filter { $0 != "_" })
                    }
                }
            }
        }
        return names
    }

    /// Every name Persistence makes public: its types, functions, properties and enum cases, and the argument
    /// labels of its functions and initializers. With Core Data's names, these are what a lesson teaches.
    public var publicNames: Set<String> {
        var names: Set<String> = []
        var publicBodies: [Int] = []        // brace depths of public enums and protocols, whose members are public
        var depth = 0
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.text == "{" { depth += 1 }
            if token.text == "}" {
                if publicBodies.last == depth { publicBodies.removeLast() }
                depth -= 1
            }
            let isPublic = (Self.isWord(token, "public") || Self.isWord(token, "open"))
                && index + 1 < tokens.count && tokens[index + 1].kind == .identifier
            let inPublicBody = publicBodies.last == depth
                && (Self.isWord(token, "case") || Self.isWord(token, "func") || Self.isWord(token, "var"))
                && (index == 0 || tokens[index - 1].line != token.line || tokens[index - 1].text == "{")
            guard isPublic || inPublicBody else {
                index += 1
                continue
            }
            // Skip the modifiers and attributes up to the declaration's keyword.
            var cursor = isPublic ? index + 1 : index
            while cursor < tokens.count, !Self.declarationKeywords.contains(tokens[cursor].text),
                  !["init", "subscript", "extension"].contains(tokens[cursor].text),
                  tokens[cursor].line == token.line {
                cursor += 1
            }
            guard cursor < tokens.count, tokens[cursor].line == token.line else {
                index += 1
                continue
            }
            let keyword = tokens[cursor].text
            if keyword == "case" {
                // `case a, b(label: T)`: every name at the top level of the list, and the labels inside.
                var position = cursor + 1
                while position < tokens.count, tokens[position].line == tokens[cursor].line {
                    if tokens[position].kind == .identifier, tokens[position - 1].text == "case" || tokens[position - 1].text == "," {
                        names.insert(tokens[position].text)
                    }
                    if tokens[position].text == "(", let close = Self.closing(of: position, in: tokens) {
                        for parameter in Self.parameters(in: (position + 1)..<close, of: tokens) where parameter.label != "_" {
                            names.insert(parameter.label)
                        }
                        position = close
                    }
                    position += 1
                }
            } else if keyword == "init" || keyword == "subscript" || keyword == "func" {
                var open = cursor + 1
                if keyword == "func", open < tokens.count {
                    names.insert(tokens[open].text)
                    open += 1
                }
                while open < tokens.count, tokens[open].text != "(", tokens[open].text != "{" { open += 1 }
                if open < tokens.count, tokens[open].text == "(", let close = Self.closing(of: open, in: tokens) {
                    for parameter in Self.parameters(in: (open + 1)..<close, of: tokens) where parameter.label != "_" {
                        names.insert(parameter.label)
                    }
                }
            } else if keyword != "extension", cursor + 1 < tokens.count, tokens[cursor + 1].kind == .identifier {
                names.insert(tokens[cursor + 1].text)
                if keyword == "enum" || keyword == "protocol" {
                    // Its body opens at the next `{`; the depth counter counts it when the loop reaches it.
                    publicBodies.append(depth + 1)
                }
            }
            index += 1
        }
        return names.filter { !Self.isKeywordLike($0) }
    }

    /// `{ a, b in` or `{ (a, b) in` or `{ [weak self] a in`: the range of the parameters, if `{` opens such a closure.
    private func closureParameters(after brace: Int) -> Range<Int>? {
        var index = brace + 1
        if index < tokens.count, tokens[index].text == "[", let close = Self.closing(of: index, in: tokens) {
            index = close + 1
        }
        let start = index
        while index < tokens.count, index - start < 16 {
            let token = tokens[index]
            if Self.isWord(token, "in") { return index > start ? start..<index : nil }
            guard token.kind == .identifier || [",", "(", ")", ":", "_"].contains(token.text) else { return nil }
            index += 1
        }
        return nil
    }

    /// Whether the `>` at `index` closes the generic parameters of a `func` or `init`.
    private func isGenericFunction(closingAt index: Int) -> Bool {
        var depth = 0
        var cursor = index
        while cursor > 0 {
            if tokens[cursor].text == ">" { depth += 1 }
            if tokens[cursor].text == "<" {
                depth -= 1
                if depth == 0 {
                    let before = tokens[cursor - 1]
                    return Self.isWord(before, "init") || (cursor >= 2 && Self.isWord(tokens[cursor - 2], "func"))
                }
            }
            cursor -= 1
        }
        return false
    }

    static func isKeywordLike(_ word: String) -> Bool {
        TransferMeasure.keywords.contains(word) || word == "_"
    }
}
