import ArgumentParser
import Foundation
import LessonsKit

struct SolutionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solution",
        abstract: "Show a lesson's reference solution — once all its katas pass.")

    @Argument(help: "The lesson: its number or slug.")
    var lesson: String

    @Flag(name: .customLong("no-pager"), help: "Print everything at once, even on a terminal.")
    var noPager = false

    @OptionGroup var options: CommonOptions

    func run() throws {
        let catalog = try options.catalog()
        let lesson = try catalog.lesson(named: self.lesson)
        let store = options.progressStore(catalog.workspace)
        let state = store.progress[lesson]
        guard state.passed else {
            let passing = state.katas.values.filter { $0 == .passed }.count
            let sofar = state.katas.isEmpty ? "not checked yet" : "\(passing) of \(state.katas.count) pass"
            throw LessonsError(.notAllowed, "lesson \(lesson.number)'s solution opens once all its katas pass "
                + "(\(sofar)): swift run lessons check \(lesson.number)")
        }
        let files = lesson.solution.flatMap { swiftFiles(at: $0, workspace: catalog.workspace) }
        guard !files.isEmpty else {
            throw LessonsError(.notThereYet, "lesson \(lesson.number)'s reference solution is not written yet ("
                + lesson.solution.joined(separator: ", ") + ").")
        }
        let terminal = options.terminal
        let renderer = TerminalRenderer(options: .init(width: terminal.proseWidth, colors: terminal.colors,
                                                       codeWidth: terminal.codeWidth))
        var text = ""
        for file in files {
            // Region markers are for lesson texts; here they would only be noise.
            let source = CodeRegion.removingMarkers(from: try String(contentsOf: file, encoding: .utf8))
            text += renderer.renderCode(source, language: "swift", origin: catalog.workspace.displayPath(file)) + "\n"
        }
        Pager.show(text, terminal: terminal, environment: options.environment, usePager: !noPager)
    }

    private func swiftFiles(at path: String, workspace: Workspace) -> [URL] {
        guard let url = workspace.resolve(path) else { return [] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [url] }
        var files: [URL] = []
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            if file.pathExtension == "swift" { files.append(file) }
        }
        return files.sorted { $0.path < $1.path }
    }
}
