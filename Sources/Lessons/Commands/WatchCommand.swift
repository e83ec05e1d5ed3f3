import ArgumentParser
import Foundation
import LessonsKit

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Check a lesson's katas, then again each time you save a starter file (Ctrl-C stops).",
        discussion: "Uses inotify on Linux and falls back to polling file times where it is not available.")

    @Argument(help: "The lesson: its number or slug.")
    var lesson: String

    @Argument(help: "Only this kata: its number in the suite, its name, or the start of its name.")
    var kata: String?

    @Option(name: .customLong("interval"), help: "Seconds between checks of file times.")
    var interval: Double = 1

    @Flag(help: "Only poll file times, even where inotify works.")
    var polling = false

    @OptionGroup var options: CommonOptions

    func validate() throws {
        guard interval >= 0.1 && interval <= 60 else {
            throw ValidationError("--interval must be between 0.1 and 60 seconds (got \(interval)).")
        }
    }

    func run() throws {
        let catalog = try options.catalog()
        let lesson = try catalog.lesson(named: self.lesson)
        let suite = try KataSuite.load(lesson, workspace: catalog.workspace)
        let only = try kata.map { name throws(LessonsError) in try suite.kata(named: name) }
        let paths = lesson.starter.filter { catalog.workspace.exists($0) }.compactMap { catalog.workspace.resolve($0) }
        guard !paths.isEmpty else {
            throw LessonsError(.notThereYet, "lesson \(lesson.number)'s starter is not written yet ("
                + lesson.starter.joined(separator: ", ") + " does not exist), so there is nothing to watch.")
        }
        let watcher = FileWatcher(paths: paths, pollInterval: interval, useNotifications: !polling)
        while true {
            _ = try CheckCommand.check(lesson, suite: suite, kata: only, catalog: catalog, options: options)
            let count = watcher.snapshot().count
            Console.note("Watching \(count) file\(count == 1 ? "" : "s") in "
                + lesson.starter.joined(separator: ", ") + " (\(watcher.mechanism)). Save to check again; Ctrl-C stops.")
            let changed = watcher.waitForChange()
            Console.note("\nChanged: " + changed.map { catalog.workspace.displayPath(URL(fileURLWithPath: $0)) }
                .joined(separator: ", "))
        }
    }
}
