import ArgumentParser
import Foundation
import LessonsKit

/// Options every command takes: the language and where the workbook is.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Language of lesson texts, titles and hints (default: $LESSONS_LANG, else your locale, else en).",
        valueName: "en|ru"))
    var lang: LanguageOption?

    @Option(name: .customLong("package-root"), help: ArgumentHelp(
        "The workbook's folder (default: found from the current folder upwards).", valueName: "dir"))
    var packageRoot: String?

    @Option(name: .customLong("lessons-dir"), help: ArgumentHelp(
        "The folder with manifest.json and the lesson texts (default: <package-root>/lessons).", valueName: "dir"))
    var lessonsDirectory: String?

    @Option(name: .customLong("progress-file"), help: ArgumentHelp(
        "The progress file (default: <package-root>/.lessons-progress.json).", valueName: "file"))
    var progressFile: String?

    @Option(name: .customLong("scratch-path"), help: ArgumentHelp(
        "The build folder for the katas and examples (default: the one lessons was built in).", valueName: "dir"))
    var scratchPath: String?

    var environment: [String: String] { ProcessInfo.processInfo.environment }

    var language: Language { lang?.language ?? Language.preferred(environment: environment) }

    var terminal: TerminalInfo { TerminalInfo.standardOutput(environment: environment) }

    func workspace() throws(LessonsError) -> Workspace {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        func absolute(_ path: String) -> URL {
            URL(fileURLWithPath: path, relativeTo: current).standardizedFileURL
        }
        let root: URL
        if let packageRoot {
            root = absolute(packageRoot)
        } else {
            root = try Workspace.locateRoot(from: current, executable: Bundle.main.executableURL)
        }
        let scratch = scratchPath.map(absolute)
            ?? Workspace.scratchPath(ofExecutable: Bundle.main.executableURL, packageRoot: root)
        return Workspace(packageRoot: root, lessonsDirectory: lessonsDirectory.map(absolute),
                         progressFile: progressFile.map(absolute), scratchPath: scratch)
    }

    func catalog() throws(LessonsError) -> Catalog {
        try Catalog.load(workspace())
    }

    /// The progress store; a corrupt file is reported on standard error and replaced, never fatal.
    func progressStore(_ workspace: Workspace) -> ProgressStore {
        let store = ProgressStore(file: workspace.progressFile)
        if let warning = store.warning { Console.warn(warning) }
        return store
    }
}
