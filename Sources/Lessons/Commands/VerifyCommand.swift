import ArgumentParser
import Foundation
import LessonsKit

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Maintainers' check: every lesson complete, starters fail every kata, solutions pass, decoys are caught.",
        discussion: """
            Reads the manifest and every lesson's parts (text and its included code, example, katas, starter and \
            solution mirrored file by file, decoys, hints), then runs the katas against the starters (each must \
            fail cleanly, naming lesson, file and function), the reference solutions (each must pass) and every \
            decoy (each must be caught), checks that every kata is failed by at least one decoy (unless the manifest \
            exempts it with a reason), and runs each example. Katas whose lesson shows most of the answer are \
            flagged (see `lessons transfer`); they fail the check only in lessons marked "transferReviewed". Lessons with nothing written yet are listed as \
            planned. One build serves all three: the package is built with LESSONS_KATA_SUBJECTS=all, which adds \
            the katas compiled against the solutions and against the decoys beside the learner's, in the usual \
            build folder; a learner's next `swift test` drops them again (a relink, not a rebuild). Logs are \
            kept in .build/lessons/.
            """)

    @Argument(help: "Only these lessons (numbers or slugs); default: all.")
    var lessons: [String] = []

    @Flag(name: .customLong("no-katas"), help: "Only read files: build and run nothing.")
    var noKatas = false

    @Option(name: .customLong("jobs"), help: ArgumentHelp(
        "Runs at once after the build (default: four per processor; most runs wait on timers, not the processor).",
        valueName: "n"))
    var jobs: Int?

    @Flag(name: .customLong("skip-build"), help: ArgumentHelp(
        "Run the katas from the build that is there, without asking SwiftPM whether it is up to date (for a script "
            + "that has just built everything with LESSONS_KATA_SUBJECTS=all, as scripts/check does)."))
    var skipBuild = false

    @Flag(name: .customLong("timings"), help: "Also print how long the runs took: the slowest, and each lesson's decoys.")
    var timings = false

    @OptionGroup var options: CommonOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1, not \(jobs).") }
    }

    func run() throws {
        let start = Date()
        let catalog = try options.catalog()
        let chosen = try lessons.map { name throws(LessonsError) in try catalog.lesson(named: name).number }
        let colors = options.terminal.colors
        let verifier = CatalogVerifier(catalog: catalog)
        let audits = verifier.audits().filter { chosen.isEmpty || chosen.contains($0.lesson.number) }
        let (text, filesOK) = verifier.report(audits, colors: colors)
        Console.print(text + "\n")

        var verification: KataVerification?
        if !noKatas {
            let entries = try audits.filter(\.katasRunnable).map { audit throws(LessonsError) in
                KataVerifier.Entry(lesson: audit.lesson, suite: try KataSuite.load(audit.lesson, workspace: catalog.workspace))
            }
            let bar = ProgressBar(label: "verify")
            let kataVerifier = KataVerifier(workspace: catalog.workspace, entries: entries, language: options.language,
                                            width: jobs, skipBuild: skipBuild)
            let result = try kataVerifier.run { step, parser in
                if let parser, parser.finishedCount == 0, let (done, total) = parser.buildProgress {
                    bar.update(label: "\(step): building", done: done, total: total)
                } else {
                    bar.update(label: step, done: parser?.finishedCount ?? 0, total: nil)
                }
            }
            bar.finish()
            Console.print(result.render(colors: colors) + "\n")
            if timings { Console.print(Self.timingReport(kataVerifier.readTimes(), entries: entries)) }
            verification = result
        }

        let ok = filesOK && (verification?.ok ?? true)
        let ready = audits.filter { $0.state == .ready }.count
        let planned = audits.filter { $0.state == .planned }.count
        var summary = "Summary: \(ready) of \(audits.count) lessons ready (\(planned) planned)"
        if let verification { summary += " · " + verification.summary }
        summary += " · " + CatalogVerifier.transferSummary(audits)
        summary += " — verify " + (ok ? "passed" : "FAILED") + " in " + Self.duration(Date().timeIntervalSince(start))
        Console.print(TextStyle(bold: true, color: ok ? .green : .red).paint(summary, colors: colors) + "\n")
        if !ok { throw ExitCode.failure }
    }

    /// The ten slowest runs and each lesson's decoy runs added up, from the seconds verify recorded.
    static func timingReport(_ times: [String: TimeInterval], entries: [KataVerifier.Entry]) -> String {
        func seconds(_ value: TimeInterval) -> String { String(format: "%6.1f s", value) }
        // The record keeps lessons left out this time; only this verification's runs are listed.
        let runs = Set(["verify-starters.log", "verify-solutions.log"]
            + entries.map { "verify-example-\($0.lesson.number).log" }
            + entries.flatMap { ($0.lesson.decoys?.cases ?? []).map { "verify-decoy-\($0.id).log" } })
        let times = times.filter { runs.contains($0.key) }
        var lines = ["Run times (each run's own, several at once):"]
        for (name, time) in times.sorted(by: { $0.value > $1.value }).prefix(10) {
            lines.append("  " + seconds(time) + "  " + name)
        }
        lines.append("Decoy runs by lesson (together, the slowest):")
        for entry in entries {
            let decoys = (entry.lesson.decoys?.cases ?? []).compactMap { times["verify-decoy-\($0.id).log"] }
            guard let slowest = decoys.max() else { continue }
            lines.append("  lesson \(entry.lesson.number): " + seconds(decoys.reduce(0, +)) + " in \(decoys.count) runs, "
                + "the slowest" + seconds(slowest))
        }
        lines.append("All \(times.count) runs together: " + seconds(times.values.reduce(0, +)))
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// `42 s`, `1 min 05 s`.
    static func duration(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        guard whole >= 60 else { return "\(whole) s" }
        return "\(whole / 60) min " + (whole % 60 < 10 ? "0" : "") + "\(whole % 60) s"
    }
}
