import Foundation

extension TransferMeasure {
    /// One piece of what a lesson shows — a Swift code block of its text, or a file of its example — normalised.
    struct Material: Sendable {
        /// The lesson file or the example file, relative to the package root.
        var file: String
        var tokens: [String]
        /// The line of each token in `file`.
        var lines: [Int]
        /// Where each token occurs: the places a line that starts with it may start.
        private var positions: [String: [Int]]

        init(file: String, tokens: [String], lines: [Int]) {
            self.file = file
            self.tokens = tokens
            self.lines = lines
            positions = [:]
            for (index, token) in tokens.enumerated() { positions[token, default: []].append(index) }
        }

        /// The index of the token where `pattern` (a line's tokens, from ``pattern(_:)``) first occurs, nil where it
        /// does not. A line is looked for in every other lesson's material: split once, not once per piece.
        func start(of pattern: [String]) -> Int? {
            guard let first = pattern.first, pattern.count <= tokens.count else { return nil }
            for start in positions[first] ?? [] where start + pattern.count <= tokens.count {
                if tokens[start..<(start + pattern.count)].elementsEqual(pattern) { return start }
            }
            return nil
        }

        /// The tokens of a normalised line (tokens joined by one space).
        static func pattern(_ normalized: String) -> [String] {
            normalized.split(separator: " ").map(String.init)
        }
    }

    /// A kata as its suite names its work: `kata(6, in: "FlashcardLibrary.swift", "importCatalog(_:)")`.
    struct Target: Equatable {
        var number: Int
        /// The file, relative to the lesson's starter and solution folders.
        var file: String
        /// `"init(container:) and save(completion:)"` names two.
        var symbols: [String]
    }

    /// The lesson's Swift code blocks in every written language, then its example's Swift files.
    func material(of lesson: Lesson) -> [Material] {
        let workspace = catalog.workspace
        var result: [Material] = []
        let loader = LessonLoader(catalog: catalog)
        for language in catalog.writtenLanguages(of: lesson) {
            guard let loaded = try? loader.load(lesson, language: language) else { continue }
            for (line, block) in Self.codeBlocks(in: loaded.document.blocks)
            where block.language == nil || block.language == "swift" {
                let tokens = SwiftTokenizer.tokens(in: block.code)
                // An included block is shown at its fence; an inline one line by line below it.
                let lines = tokens.map { block.origin == nil ? line + $0.line : line }
                result.append(Material(file: loaded.file, tokens: normalized(tokens), lines: lines))
            }
        }
        let example = lesson.example.path
        for file in workspace.swiftFiles(at: example) {
            let path = example.hasSuffix(".swift") ? example : example + "/" + file
            guard let url = workspace.resolve(path), let text = try? String(contentsOf: url, encoding: .utf8) else {
                continue
            }
            let tokens = SwiftTokenizer.tokens(in: text)
            result.append(Material(file: path, tokens: normalized(tokens), lines: tokens.map(\.line)))
        }
        return result
    }

    /// Every code block with the line of its opening fence, in lists and quotes too.
    static func codeBlocks(in blocks: [MarkdownBlock]) -> [(Int, MarkdownCodeBlock)] {
        blocks.flatMap { block -> [(Int, MarkdownCodeBlock)] in
            switch block.kind {
            case .codeBlock(let code): return [(block.line, code)]
            case .blockQuote(let children): return codeBlocks(in: children)
            case .list(let list): return list.items.flatMap(codeBlocks)
            case .paragraph, .heading, .htmlBlock, .thematicBreak, .table: return []
            }
        }
    }

    /// The `kata(N, in: "File.swift", "symbol")` calls of a kata file, in order.
    static func targets(inKataFile source: String) -> [Target] {
        let tokens = SwiftTokenizer.tokens(in: source)
        var targets: [Target] = []
        func literal(_ token: SwiftTokenizer.Token) -> String? {
            guard token.kind == .string, token.text.count >= 2, token.text.hasPrefix("\"") else { return nil }
            return String(token.text.dropFirst().dropLast())
        }
        for index in tokens.indices where tokens[index].text == "kata" && index + 8 < tokens.count {
            let call = tokens[index...].prefix(9).map(\.text)
            guard call[1] == "(", let number = Int(call[2]), call[3] == ",", call[4] == "in", call[5] == ":",
                  let file = literal(tokens[index + 6]), call[7] == ",", let symbol = literal(tokens[index + 8]) else {
                continue
            }
            let symbols = symbol.components(separatedBy: " and ").map(\.trimmingWhitespace).filter { !$0.isEmpty }
            targets.append(Target(number: number, file: file, symbols: symbols))
        }
        return targets
    }

    /// The path of `file` (relative to the lesson's folder) under one of `roots` — folders, or files named
    /// `file` — relative to the package root; nil when none holds it.
    static func path(of file: String, in roots: [String], workspace: Workspace) -> String? {
        for root in roots {
            if root.hasSuffix(".swift") {
                if root == file || root.hasSuffix("/" + file) { return root }
            } else if workspace.exists(root + "/" + file) {
                return root + "/" + file
            }
        }
        return nil
    }
}
