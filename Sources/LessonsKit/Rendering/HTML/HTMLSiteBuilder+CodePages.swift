import Foundation

extension HTMLSiteBuilder {
    /// A source file that gets its own highlighted page: a lesson's kata file, one of its starter files, or (in a
    /// teacher's handouts) one of its reference solution files.
    struct CodeFile: Equatable {
        enum Role: Equatable { case katas, starter, solution }

        var path: String
        var role: Role
        var lesson: Lesson

        /// `code/Tests-Katas-Kata05SavingSafely.swift.html`; a solution's `code/solution-Sources-Solutions-….html`.
        var page: String {
            "code/" + (role == .solution ? "solution-" : "") + path.replacingOccurrences(of: "/", with: "-") + ".html"
        }
    }

    /// Every kata and starter file that exists, and the solution files when asked for, once each, in lesson order.
    func codeFiles() -> [CodeFile] {
        var files: [CodeFile] = []
        var seen: Set<String> = []
        for lesson in lessons {
            var candidates = [(lesson.katas.file, CodeFile.Role.katas)]
            candidates += lesson.starter.flatMap { swiftFiles(at: $0) }.map { ($0, CodeFile.Role.starter) }
            if withSolutions {
                candidates += lesson.solution.flatMap { swiftFiles(at: $0) }.map { ($0, CodeFile.Role.solution) }
            }
            for (path, role) in candidates where catalog.workspace.exists(path) && seen.insert("\(role) \(path)").inserted {
                files.append(CodeFile(path: path, role: role, lesson: lesson))
            }
        }
        return files
    }

    /// The file itself, or the `.swift` files under a folder, sorted.
    private func swiftFiles(at path: String) -> [String] {
        guard let url = catalog.workspace.resolve(path) else { return [] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
        var result: [String] = []
        while let file = enumerator?.nextObject() as? URL {
            if file.pathExtension == "swift" { result.append(catalog.workspace.displayPath(file)) }
        }
        return result.sorted()
    }

    func codePage(_ file: CodeFile, all loaded: [LoadedLesson]) -> String {
        let strings = HandoutStrings(language: .en)
        let source = (try? String(contentsOf: catalog.workspace.resolve(file.path)!, encoding: .utf8)) ?? ""
        var body = "<nav class=\"pages\"><a href=\"../index.html\">\(strings.allLessons)</a>"
        if let page = page(for: file.lesson, language: .en, among: loaded) {
            body += "<a href=\"../\(HTMLEscaping.escape(pageName(page.lesson, page.language)))\">"
                + "← \(file.lesson.number). \(HTMLEscaping.escape(file.lesson.title.text(in: page.language)))</a>"
        }
        body += "</nav>\n"
        let number = file.lesson.number
        let role = switch file.role {
        case .katas: "Katas of lesson \(number)"
        case .starter: "Starter of lesson \(number)"
        case .solution: "Reference solution of lesson \(number)"
        }
        body += "<p class=\"kicker\">\(role)</p>\n<h1><code>\(HTMLEscaping.escape(file.path))</code></h1>\n"
        switch file.role {
        case .katas:
            body += "<p>Run them with <code>swift run lessons check \(number)</code>.</p>\n"
        case .starter:
            body += "<p>Edit this file until <code>swift run lessons check \(number)</code> passes.</p>\n"
        case .solution:
            body += "<p>For teachers. A learner sees it with <code>swift run lessons solution \(number)</code> once "
                + "the lesson's katas pass.</p>\n"
        }
        body += HTMLRenderer.codeBlock(source, language: "swift")
        return HTMLPage(title: file.path, language: .en, body: body).rendered
    }
}
