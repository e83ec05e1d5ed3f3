import ArgumentParser
import Foundation
import LessonsKit

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run a lesson's katas and summarise which pass, with each failure's message.",
        discussion: """
            Runs `swift test --filter <the lesson's kata suite>/` in the package and reads XCTest's output; the \
            full output is kept in .build/lessons/last-check.log.
            """)

    @Argument(help: "The lesson: its number or slug.")
    var lesson: String

    @Argument(help: "Only this kata: its number in the suite, its name, or the start of its name.")
    var kata: String?

    @OptionGroup var options: CommonOptions

    func run() throws {
        let catalog = try options.catalog()
        let lesson = try catalog.lesson(named: self.lesson)
        let suite = try KataSuite.load(lesson, workspace: catalog.workspace)
        let only = try kata.map { name throws(LessonsError) in try suite.kata(named: name) }
        let summary = try Self.check(lesson, suite: suite, kata: only, catalog: catalog, options: options)
        if summary.passedCount < summary.katas.count || summary.katas.isEmpty { throw ExitCode.failure }
    }

    /// Runs the katas with a progress bar, prints the summary and records the result. Shared with `watch`.
    static func check(_ lesson: Lesson, suite: KataSuite, kata: String?, catalog: Catalog,
                      options: CommonOptions) throws -> KataSummary {
        let bar = ProgressBar(label: "building")
        let total = kata == nil ? max(suite.katas.count, 1) : 1
        // The katas word their failures in the learner's language (lessons written in more than one).
        let runner = KataRunner(workspace: catalog.workspace, language: options.language)
        let run = try runner.run(suite, kata: kata) { parser in
            if parser.finishedCount > 0 || parser.buildProgress == nil {
                bar.update(label: "katas", done: parser.finishedCount, total: total)
            } else if let (done, steps) = parser.buildProgress {
                bar.update(label: "building", done: done, total: steps)
            }
        }
        bar.finish()
        let summary = KataSummary(lesson: lesson, suite: suite, report: run.report, onlyKata: kata)
        let language = lesson.bestLanguage(for: options.language)
        var text = summary.render(colors: options.terminal.colors, workspace: catalog.workspace,
                                  title: lesson.title.text(in: language))
        if run.report.results.isEmpty && !run.report.buildFailed {
            text += "swift test ran no kata (exit status \(run.exitStatus)).\n"
        }
        if let log = run.log { text += "Full output: \(catalog.workspace.displayPath(log))\n" }
        Console.print(text)
        var store = options.progressStore(catalog.workspace)
        let states = summary.states
        let stamp = ProgressStore.timestamp(Date())
        try? store.update { $0[lesson].record(states: states, wholeSuite: kata == nil, at: stamp) }
        return summary
    }
}
