import ArgumentParser
import Foundation
import LessonsKit

struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Put a lesson's starter files back as they were, keeping a copy of yours.",
        discussion: """
            The starter is taken from git (the workbook is a git clone): from HEAD unless --from names another \
            revision. Your current files are copied to .lessons-backups/<time>/ first (outside the build folder, so \
            a clean build does not delete them), so nothing is lost. Files you added yourself are left alone. A \
            lesson you finished stays marked done.
            """)

    @Argument(help: "The lesson: its number or slug.")
    var lesson: String

    @Option(name: .customLong("from"), help: ArgumentHelp(
        "The git revision holding the original starter; if you committed your own work, name the commit you "
            + "started from (e.g. origin/main).", valueName: "revision"))
    var revision = "HEAD"

    @OptionGroup var options: CommonOptions

    func run() throws {
        let catalog = try options.catalog()
        let lesson = try catalog.lesson(named: self.lesson)
        let root = catalog.workspace.packageRoot
        func git(_ arguments: [String]) throws -> (Int32, String) {
            var output = ""
            let status = try ProcessRunner.run(["git", "-C", root.path] + arguments, in: root) { output += $0 + "\n" }
            return (status, output)
        }
        guard try git(["rev-parse", "--is-inside-work-tree"]).0 == 0 else {
            throw LessonsError(.io, "reset restores starters from git, but \(root.path) is not a git clone "
                + "(or git is not installed: see `lessons doctor`).")
        }
        guard try git(["rev-parse", "--verify", "--quiet", revision + "^{commit}"]).0 == 0 else {
            throw LessonsError(.unknownChoice, "git knows no revision \"\(revision)\" (try HEAD or origin/main).")
        }
        for path in lesson.starter where try git(["cat-file", "-e", "\(revision):\(path)"]).0 != 0 {
            throw LessonsError(.notThereYet, "lesson \(lesson.number)'s starter \(path) is not in \(revision): "
                + "the starter is not written yet, or not committed there.")
        }
        let backup = try backUp(lesson.starter, workspace: catalog.workspace)
        let (status, output) = try git(["restore", "--source=\(revision)", "--worktree", "--"] + lesson.starter)
        guard status == 0 else {
            throw LessonsError(.io, "git restore failed: \(output.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        var store = options.progressStore(catalog.workspace)
        // The katas' last results described the old files; whether the lesson was ever finished does not change.
        try store.update { $0[lesson].katas = [:] }
        var text = "Restored " + lesson.starter.joined(separator: ", ") + " from \(revision).\n"
        if let backup { text += "Your previous version is in \(catalog.workspace.displayPath(backup)).\n" }
        Console.print(text)
    }

    /// Where backups go: a folder in the package root that git ignores. Not under `.build`, which a clean build
    /// (`swift package clean`, `rm -rf .build`) deletes with everything in it.
    static let backupFolder = ".lessons-backups"

    /// Copies the current starter files (those that exist) into a new time-stamped folder.
    private func backUp(_ paths: [String], workspace: Workspace) throws -> URL? {
        let existing = paths.filter { workspace.exists($0) }
        guard !existing.isEmpty else { return nil }
        let stamp = ProgressStore.timestamp(Date()).replacingOccurrences(of: ":", with: "")
        let folder = workspace.packageRoot.appendingPathComponent("\(Self.backupFolder)/\(stamp)")
        do {
            for path in existing {
                let target = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(),
                                                        withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: workspace.resolve(path)!, to: target)
            }
        } catch {
            throw LessonsError(.io, "could not back up your files before resetting, so nothing was changed: "
                + error.localizedDescription)
        }
        return folder
    }
}
