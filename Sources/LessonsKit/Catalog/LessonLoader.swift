import Foundation

/// Reads lesson texts and makes them ready to render: code includes resolved from compiled files, links to
/// lessons and local images checked. Every problem is an error naming the lesson file and line.
public struct LessonLoader: Sendable {
    public var catalog: Catalog

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    private var workspace: Workspace { catalog.workspace }

    /// Loads `lesson` in `language`; a text that is not written yet is a `.notThereYet` error.
    public func load(_ lesson: Lesson, language: Language) throws(LessonsError) -> LoadedLesson {
        let url = catalog.textFile(of: lesson, language: language)
        let display = workspace.displayPath(url)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw LessonsError(.notThereYet, "lesson \(lesson.number) (\(lesson.title.text(in: language))) is not "
                + "written yet in \(language.nativeName): \(display) does not exist")
        }
        let (document, images) = try loadDocument(at: url)
        return LoadedLesson(lesson: lesson, language: language, file: display, document: document, images: images)
    }

    /// Loads any Markdown file with the same rules (used for lesson texts and test fixtures).
    public func loadDocument(at url: URL) throws(LessonsError) -> (MarkdownDocument, [String: URL]) {
        let display = workspace.displayPath(url)
        let text: String
        do {
            let data = try Data(contentsOf: url)
            guard let decoded = String(data: data, encoding: .utf8) else {
                throw LessonsError(.io, "not UTF-8 text", file: display)
            }
            text = decoded
        } catch let error as LessonsError {
            throw error
        } catch {
            throw LessonsError(.io, "cannot read (\(error.localizedDescription))", file: display)
        }
        var document = try MarkdownParser.parse(text, file: display)
        var context = Context(file: display, folder: url.deletingLastPathComponent())
        var blocks: [MarkdownBlock] = []
        for block in document.blocks { blocks.append(try resolve(block, &context)) }
        document.blocks = blocks
        return (document, context.images)
    }

    private struct Context {
        var file: String
        var folder: URL
        var images: [String: URL] = [:]
    }

    private func resolve(_ block: MarkdownBlock, _ context: inout Context) throws(LessonsError) -> MarkdownBlock {
        var block = block
        switch block.kind {
        case .paragraph(let inlines):
            try check(inlines, line: block.line, &context)
        case .heading(_, let inlines):
            try check(inlines, line: block.line, &context)
        case .blockQuote(let children):
            var resolved: [MarkdownBlock] = []
            for child in children { resolved.append(try resolve(child, &context)) }
            block.kind = .blockQuote(resolved)
        case .list(var list):
            var items: [[MarkdownBlock]] = []
            for item in list.items {
                var resolved: [MarkdownBlock] = []
                for child in item { resolved.append(try resolve(child, &context)) }
                items.append(resolved)
            }
            list.items = items
            block.kind = .list(list)
        case .codeBlock(let code):
            if let include = CodeInclude(info: code.info) {
                block.kind = .codeBlock(try resolve(include, in: code, line: block.line, file: context.file))
            }
        case .table(let table):
            for cell in table.header + table.rows.flatMap({ $0 }) { try check(cell, line: block.line, &context) }
        case .htmlBlock, .thematicBreak:
            break
        }
        return block
    }

    private func resolve(
        _ include: CodeInclude, in block: MarkdownCodeBlock, line: Int, file: String
    ) throws(LessonsError) -> MarkdownCodeBlock {
        func fail(_ message: String) -> LessonsError { LessonsError(.reference, message, file: file, line: line) }
        guard block.code.trimmingWhitespace.isEmpty else {
            throw fail("an include block must be empty: its code comes from \(include.reference)")
        }
        guard let url = workspace.resolve(include.path) else {
            throw fail("include path \"\(include.path)\" must be relative to the package root and stay inside it")
        }
        guard let source = try? String(contentsOf: url, encoding: .utf8) else {
            throw fail("included file \(include.path) does not exist or is not UTF-8 text")
        }
        var code = source
        if let region = include.region {
            switch CodeRegion.extract(region, from: source) {
            case .success(let excerpt): code = excerpt
            case .failure(let problem): throw fail("\(include.path): \(problem)")
            }
        }
        let info = block.info.split(separator: " ").filter { !$0.hasPrefix("include=") }.joined(separator: " ")
        return MarkdownCodeBlock(info: info, code: code.hasSuffix("\n") ? code : code + "\n", origin: include.reference)
    }

    private func check(_ inlines: [MarkdownInline], line: Int, _ context: inout Context) throws(LessonsError) {
        func fail(_ message: String) -> LessonsError {
            LessonsError(.reference, message, file: context.file, line: line)
        }
        for inline in inlines {
            switch inline {
            case .link(let destination, _, let children):
                switch LinkTarget(destination) {
                case .lesson(let name, _):
                    do { _ = try catalog.lesson(named: name) } catch {
                        throw fail("link to unknown lesson \"\(name)\" (write lesson:N with N from 1 to "
                            + "\(catalog.lessons.count), or a lesson's slug)")
                    }
                case .relative(let path):
                    throw fail("link to a file (\(path)): handouts cannot follow it; include code with "
                        + "```swift include=PATH#REGION, or link a lesson with lesson:N")
                case .unsupported(let value):
                    throw fail("link \"\(value)\" uses a scheme handouts do not follow (use https:, mailto:, "
                        + "lesson: or #anchor)")
                case .anchor, .external:
                    break
                }
                try check(children, line: line, &context)
            case .image(let source, _, let children):
                switch LinkTarget(source) {
                case .relative(let path):
                    let url = context.folder.appendingPathComponent(path).standardizedFileURL
                    guard !path.split(separator: "/").contains(".."),
                          FileManager.default.fileExists(atPath: url.path) else {
                        throw fail("image \(path) not found next to the lesson (expected \(workspace.displayPath(url)))")
                    }
                    context.images[source] = url
                case .external:
                    break
                case .lesson, .anchor, .unsupported:
                    throw fail("image source \"\(source)\" is neither a file next to the lesson nor an https URL")
                }
                try check(children, line: line, &context)
            case .emphasis(let children), .strong(let children):
                try check(children, line: line, &context)
            case .text, .softBreak, .lineBreak, .code, .html:
                break
            }
        }
    }
}
