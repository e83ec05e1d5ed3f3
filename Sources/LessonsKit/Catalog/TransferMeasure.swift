import Foundation

/// Measures how much of each kata's answer a lesson already shows, so that a lesson teaching with the kata's own
/// code can be found and rewritten: a learner who copies the example passes the kata and has practised nothing.
///
/// For each kata, the answer is the code of the function or property its `kata(N, in: "File.swift", "symbol")`
/// call names in the lesson's reference solution (`Sources/Solutions/NN-slug/File.swift`), together with the
/// helpers of that file which it uses and which the starter does not give. Its *significant lines* are compared
/// with the lesson's Swift code blocks, in every written language, and the Swift files of its example, after
/// normalising both sides the same way (``normalized(_:)``): the names a copy renames and every literal become
/// `_`, while Swift's keywords and the names of Core Data's API (Persistence's public names) and of the standard
/// library and Foundation stay as written. A line counts as shown when its normalised tokens occur, in order and
/// side by side, anywhere in one code block or example file, however the lines there are broken.
///
/// A line is significant when, normalised, it still names something: lines of nothing but punctuation, keywords,
/// local names and literals (`}`, `return result`, `self.name = name`) say nothing that a copy could give away.
/// Nor does a line that the text or example of ``commonLessons`` or more *other* lessons show as well
/// (`let _ = _(context: _)`, `try _.save()`): it is the API's everyday vocabulary, which no lesson can avoid, and
/// it is counted apart (``KataTransfer/commonLines``). Lines are logical: a call broken over several lines inside
/// its parentheses is one line.
public struct TransferMeasure: Sendable {
    /// The share of a kata's solution lines at or above which the lesson is taken to show the answer.
    public static let threshold = 0.5
    /// Fewer significant lines than this are one idiom (make, save, delete): a lesson that teaches the call shows
    /// them, and its kata is not flagged whatever its share.
    public static let minimumLines = 4
    /// A solution line shown by this many other lessons is everyday vocabulary, not a give-away (see above).
    public static let commonLessons = 4

    /// Swift's keywords (and the contextual ones code is written with), which every normalised line keeps.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as",
        "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "async", "some", "any", "lazy",
        "weak", "unowned", "mutating", "nonmutating", "override", "final", "required", "convenience", "get", "set",
        "willSet", "didSet", "nonisolated", "isolated", "consuming", "borrowing", "sending", "unsafe", "actor",
    ]

    public var catalog: Catalog
    /// The names of Core Data's API, kept by normalisation even where the workbook's code declares the same name.
    var apiNames: Set<String>
    /// Every name the workbook's own code declares (solutions, starters, examples, kata support): what a copy renames.
    var workbookNames: Set<String>
    /// Every lesson's text and example, normalised, by lesson number: read once, as each kata's lines are looked
    /// for in all of them.
    var materials: [Int: [Material]] = [:]

    /// Reads Persistence's public names and the names the workbook's code declares.
    public init(catalog: Catalog) {
        func outlines(under folder: String) -> [SwiftOutline] {
            catalog.workspace.swiftFiles(at: folder).compactMap { file in
                guard let url = catalog.workspace.resolve(folder + "/" + file),
                      let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
                return SwiftOutline(text)
            }
        }
        let api = outlines(under: "Sources/Persistence").reduce(into: Set<String>()) { $0.formUnion($1.publicNames) }
        var declared: Set<String> = []
        for folder in ["Sources/Solutions", "Sources/Workbook", "Sources/Examples", "Sources/KataSupport"] {
            for outline in outlines(under: folder) { declared.formUnion(outline.declaredNames) }
        }
        self.init(catalog: catalog, apiNames: api, workbookNames: declared)
    }

    init(catalog: Catalog, apiNames: Set<String>, workbookNames: Set<String>) {
        self.catalog = catalog
        self.apiNames = apiNames
        self.workbookNames = workbookNames
        for lesson in catalog.lessons { materials[lesson.number] = material(of: lesson) }
    }

    /// Every kata of `lesson` that names its work with `kata(N, in:, _:)`, in the suite's order. Empty when the
    /// lesson has no kata file or no solution yet.
    public func measure(_ lesson: Lesson) -> [KataTransfer] {
        let workspace = catalog.workspace
        guard let url = workspace.resolve(lesson.katas.file),
              let source = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let names = KataSuite.testNames(in: source)
        let material = materials[lesson.number] ?? self.material(of: lesson)
        return Self.targets(inKataFile: source).map { target in
            let kata = names.indices.contains(target.number - 1) ? names[target.number - 1] : ""
            guard let file = Self.path(of: target.file, in: lesson.solution, workspace: workspace),
                  let solution = workspace.resolve(file).flatMap({ try? String(contentsOf: $0, encoding: .utf8) }) else {
                let missing = lesson.solution.first.map { "\($0)/\(target.file)" } ?? target.file
                return KataTransfer(lesson: lesson.number, number: target.number, kata: kata, file: missing,
                                    symbols: target.symbols, missingSymbols: target.symbols, lines: [])
            }
            let starter = Self.path(of: target.file, in: lesson.starter, workspace: workspace)
                .flatMap(workspace.resolve).flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
            var (lines, missing) = answer(to: target.symbols, in: solution, starter: starter)
            for index in lines.indices {
                let pattern = Material.pattern(lines[index].normalized)
                lines[index].shownAt = material.lazy.compactMap { piece in
                    piece.start(of: pattern).map { "\(piece.file):\(piece.lines[$0])" }
                }.first
            }
            let (distinct, common) = Self.separatingCommon(lines, of: lesson.number, materials: materials)
            return KataTransfer(lesson: lesson.number, number: target.number, kata: kata, file: file,
                                symbols: target.symbols, missingSymbols: missing, lines: distinct, commonLines: common)
        }
    }

    // MARK: The answer

    /// The significant lines of `symbols` in the solution file and of the helpers they use that the starter lacks,
    /// in file order, each line once; and the symbols the file does not declare.
    func answer(to symbols: [String], in solution: String, starter: String) -> (lines: [KataTransfer.Line], missing: [String]) {
        let outline = SwiftOutline(solution)
        let given = SwiftOutline(starter)
        let givenNames = Set(given.functions.map(\.signature) + given.properties.map(\.signature))
        var missing: [String] = []
        var queue: [SwiftOutline.Declaration] = []
        for symbol in symbols {
            let found = outline.declarations(matching: symbol)
            if found.isEmpty { missing.append(symbol) }
            queue += found
        }
        var included: [SwiftOutline.Declaration] = []
        while let next = queue.first {
            queue.removeFirst()
            guard !included.contains(next) else { continue }
            included.append(next)
            let used = Set(outline.tokens[next.body].filter { $0.kind == .identifier }.map(\.text))
            for helper in outline.functions + outline.properties
            where used.contains(helper.name) && !givenNames.contains(helper.signature) && !included.contains(helper) {
                queue.append(helper)
            }
        }
        let normalized = normalized(outline.tokens)
        let sourceLines = solution.split(separator: "\n", omittingEmptySubsequences: false)
        var seen: Set<Int> = []
        var lines: [KataTransfer.Line] = []
        for declaration in included {
            for range in Self.logicalLines(declaration.body, of: outline.tokens) {
                let tokens = normalized[range]
                guard tokens.contains(where: Self.isName), seen.insert(range.lowerBound).inserted else { continue }
                let number = outline.tokens[range.lowerBound].line
                let code = sourceLines.indices.contains(number - 1) ? sourceLines[number - 1].trimmingWhitespace : ""
                lines.append(KataTransfer.Line(line: number, code: code, normalized: tokens.joined(separator: " "),
                                               shownAt: nil))
            }
        }
        return (lines.sorted { $0.line < $1.line }, missing)
    }

    /// `lines` split into those fewer than ``commonLessons`` other lessons show, and the everyday vocabulary.
    static func separatingCommon(_ lines: [KataTransfer.Line], of lesson: Int, materials: [Int: [Material]],
                                 minimum: Int = commonLessons) -> (distinct: [KataTransfer.Line], common: [KataTransfer.Line]) {
        var distinct: [KataTransfer.Line] = []
        var common: [KataTransfer.Line] = []
        for line in lines {
            var showing = 0
            let pattern = Material.pattern(line.normalized)
            for (number, pieces) in materials where number != lesson && showing < minimum {
                if pieces.contains(where: { $0.start(of: pattern) != nil }) { showing += 1 }
            }
            if showing >= minimum { common.append(line) } else { distinct.append(line) }
        }
        return (distinct, common)
    }

    /// A normalised token that names something: not `_`, punctuation or a keyword.
    static func isName(_ token: String) -> Bool {
        guard let first = token.unicodeScalars.first else { return false }
        return (first.properties.isAlphabetic || (first == "_" && token.count > 1)) && !keywords.contains(token)
    }

    /// The token ranges of `range`'s logical lines: a line whose parentheses or brackets are still open goes on
    /// with the next one, unless it ends by opening a closure.
    static func logicalLines(_ range: Range<Int>, of tokens: [SwiftTokenizer.Token]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = range.lowerBound
        var depth = 0
        for index in range {
            let text = tokens[index].text
            if text == "(" || text == "[" { depth += 1 }
            if text == ")" || text == "]" { depth = max(0, depth - 1) }
            let lineEnds = index + 1 == range.upperBound || tokens[index + 1].line != tokens[index].line
            guard lineEnds else { continue }
            if depth > 0, text != "{", text != "in", index + 1 < range.upperBound { continue }
            result.append(start..<(index + 1))
            start = index + 1
            depth = 0
        }
        return result
    }

    // MARK: Normalising

    /// `tokens` with every literal, `$0`, and name a copy would rename replaced by `_`. A name stays as written
    /// when it is a keyword; when it is Core Data's and used as a member, label, type or call
    /// (`.mergePolicy`, `fromContextDidSave:`, `BatchInsertRequest`, `save()`); or when the workbook never
    /// declares it and it is a member, label or type (`.sorted`, `at:`, `IndexPath`) — the standard library's and
    /// Foundation's names, which a copy keeps. Everything else (`context`, `plant.name`… where the workbook
    /// declared `name`) is a name of the workbook's or the learner's choosing.
    func normalized(_ tokens: [SwiftTokenizer.Token]) -> [String] {
        tokens.indices.map { index in
            let token = tokens[index]
            switch token.kind {
            case .string, .number:
                return "_"
            case .punctuation:
                return token.text
            case .identifier:
                let text = token.text
                if text.hasPrefix("$") { return "_" }
                if Self.keywords.contains(text) { return text }
                let previous = index > 0 ? tokens[index - 1].text : ""
                let next = index + 1 < tokens.count ? tokens[index + 1].text : ""
                let isMember = previous == "." || next == ":"
                let isType = text.first?.isUppercase == true
                if apiNames.contains(text), isMember || isType || next == "(" { return text }
                if workbookNames.contains(text) { return "_" }
                return isMember || isType ? text : "_"
            }
        }
    }
}
