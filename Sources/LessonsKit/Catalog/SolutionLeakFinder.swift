import Foundation

/// Finds the answers to katas in a lesson's text: code included from a reference solution, and code blocks
/// (included from elsewhere or written inline) that repeat a run of a solution's lines.
///
/// A lesson teaches with its example, another domain or Apple-only code; the reference solutions open only
/// through `lessons solution N` once the katas pass. `lessons verify` runs this on every written text.
///
/// A *run* is `minimumRun` consecutive significant lines, compared after trimming: blank lines, comments and
/// lines of nothing but brackets and punctuation (`}`, `} catch {`, `do {`) are skipped on both sides, since every
/// Swift file shares them. Four lines are enough to tell a copied body from a shared idiom (`let request = …`,
/// `request.predicate = …` alone do not match).
public struct SolutionLeakFinder: Sendable {
    public static let minimumRun = 4

    /// The solution folders and files of every lesson (relative to the package root).
    private let solutionRoots: [String]
    /// Each run of the solutions' significant lines, with the file it comes from (the first one, if several).
    private let runs: [String: String]

    public init(catalog: Catalog) {
        let workspace = catalog.workspace
        var roots: [String] = []
        var runs: [String: String] = [:]
        for lesson in catalog.lessons {
            for root in lesson.solution {
                roots.append(root)
                var isFolder: ObjCBool = false
                let folder = workspace.resolve(root).map {
                    FileManager.default.fileExists(atPath: $0.path, isDirectory: &isFolder) && isFolder.boolValue
                } ?? false
                for file in workspace.swiftFiles(at: root) {
                    let path = folder ? "\(root)/\(file)" : root
                    guard let url = workspace.resolve(path),
                          let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
                    for run in Self.runs(in: text) where runs[run] == nil { runs[run] = path }
                }
            }
        }
        self.init(solutionRoots: roots, runs: runs)
    }

    init(solutionRoots: [String], runs: [String: String]) {
        self.solutionRoots = solutionRoots
        self.runs = runs
    }

    /// What in `document` gives an answer away, one sentence each, naming the lesson file and line.
    public func leaks(in document: MarkdownDocument, file: String) -> [String] {
        var found: [String] = []
        func visit(_ blocks: [MarkdownBlock]) {
            for block in blocks {
                switch block.kind {
                case .codeBlock(let code):
                    if let leak = leak(in: code) { found.append("\(file):\(block.line): \(leak)") }
                case .blockQuote(let children):
                    visit(children)
                case .list(let list):
                    list.items.forEach(visit)
                case .paragraph, .heading, .htmlBlock, .thematicBreak, .table:
                    break
                }
            }
        }
        visit(document.blocks)
        return found
    }

    private func leak(in block: MarkdownCodeBlock) -> String? {
        let advice = "a lesson never shows a kata's answer (teach with the example, another domain or Apple-only "
            + "code; learners open the solution with `lessons solution N` once its katas pass)"
        if let origin = block.origin {
            let path = String(origin.split(separator: "#", maxSplits: 1)[0])
            if let root = solutionRoots.first(where: { path == $0 || path.hasPrefix($0 + "/") })
                ?? (path.hasPrefix("Sources/Solutions/") ? "Sources/Solutions" : nil) {
                return "includes \(origin) from the reference solutions (\(root)): \(advice)"
            }
        }
        let lines = Self.significantLines(of: block.code)
        guard lines.count >= Self.minimumRun else { return nil }
        for start in 0...(lines.count - Self.minimumRun) {
            let run = lines[start..<(start + Self.minimumRun)].joined(separator: "\n")
            if let source = runs[run] {
                let what = block.origin.map { "the code included from \($0)" } ?? "this code block"
                return "\(what) repeats \(Self.minimumRun) lines of \(source) (from \"\(lines[start])\"): \(advice)"
            }
        }
        return nil
    }

    static func runs(in text: String) -> [String] {
        let lines = significantLines(of: text)
        guard lines.count >= minimumRun else { return [] }
        return (0...(lines.count - minimumRun)).map { lines[$0..<($0 + minimumRun)].joined(separator: "\n") }
    }

    /// The lines that carry code, trimmed: no blank lines, comments (a line that is all comment trims to empty),
    /// region markers and `#if`s, or lines of punctuation and the keywords that only open or close a block.
    static func significantLines(of text: String) -> [String] {
        let trivial: Set<String> = ["do {", "} catch {", "} else {", "return", "break", "default:", "@MainActor"]
        let punctuation = CharacterSet(charactersIn: "{}()[],;:")
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { raw in
            let line = withoutTrailingComment(raw).trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { return nil }
            if trivial.contains(line) { return nil }
            if line.unicodeScalars.allSatisfy({ punctuation.contains($0) || $0 == " " }) { return nil }
            return line
        }
    }

    /// The line up to a `//` comment that is not inside a string literal (an even number of quotes before it).
    private static func withoutTrailingComment(_ line: Substring) -> Substring {
        var quotes = 0
        var index = line.startIndex
        while index < line.endIndex {
            let next = line.index(after: index)
            if line[index] == "\"" {
                quotes += 1
            } else if line[index] == "/", next < line.endIndex, line[next] == "/", quotes % 2 == 0 {
                return line[..<index]
            }
            index = next
        }
        return line
    }
}
