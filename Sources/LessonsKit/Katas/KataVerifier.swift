import Foundation

/// The part of `lessons verify` that builds and runs: every kata against the starters, the reference solutions
/// and each decoy, and every lesson's example. The rules a result must meet are plain functions
/// (``judgeStarters(_:report:)`` …) so they can be tested without running SwiftPM.
public struct KataVerifier: Sendable {
    /// A lesson whose katas can run, with its suite as read from the kata file.
    public struct Entry: Sendable {
        public var lesson: Lesson
        public var suite: KataSuite

        public init(lesson: Lesson, suite: KataSuite) {
            self.lesson = lesson
            self.suite = suite
        }
    }

    /// A step starting, for a progress line: what it does, and the parser as output arrives.
    public typealias Progress = @Sendable (_ step: String, _ parser: XCTestOutputParser?) -> Void

    public var workspace: Workspace
    public var entries: [Entry]
    /// The language the katas word their failures in (see ``KataRunner/language``).
    public var language: Language?

    public init(workspace: Workspace, entries: [Entry], language: Language? = nil) {
        self.workspace = workspace
        self.entries = entries
        self.language = language
    }

    /// Runs everything, in the order that keeps the learner's build as it was: the starters and examples in the
    /// workspace's build folder first, then the solutions and the decoys in folders of their own.
    public func run(progress: Progress = { _, _ in }) throws(LessonsError) -> KataVerification {
        var result = KataVerification()
        guard !entries.isEmpty else { return result }
        let filter = entries.map { KataRunner.filter(suite: $0.suite.name, kata: nil) }.joined(separator: "|")

        progress("katas against the starters", nil)
        let starters = try KataRunner(workspace: workspace, subject: .starters, language: language)
            .run(filter: filter, logName: "verify-starters.log") { progress("katas against the starters", $0) }
        if starters.report.buildFailed {
            result.buildErrors[.starters] = relative(starters.report.buildErrors)
        } else {
            result.starters = entries.map { Self.judgeStarters($0, report: starters.report) }
        }

        // One build for every example, then each runs straight from the build folder (one SwiftPM start-up,
        // not one per example).
        progress("building the examples", nil)
        let examplesBuilt = try buildExamples()
        for entry in entries {
            progress("example of lesson \(entry.lesson.number)", nil)
            result.examples.append(try runExample(entry.lesson, built: examplesBuilt))
        }

        let solutionsStep = "katas against the solutions (built in "
            + "\(workspace.displayPath(KataSubject.solutions.scratchPath(in: workspace)!)))"
        progress(solutionsStep, nil)
        let solutions = try KataRunner(workspace: workspace, subject: .solutions, language: language)
            .run(filter: filter, logName: "verify-solutions.log") { progress(solutionsStep, $0) }
        if solutions.report.buildFailed {
            result.buildErrors[.solutions] = relative(solutions.report.buildErrors)
        } else {
            result.solutions = entries.map { Self.judgeSolutions($0, report: solutions.report) }
        }

        var built = false
        for entry in entries {
            for decoy in entry.lesson.decoys?.cases ?? [] {
                let step = "decoy \(decoy.id)"
                progress(step, nil)
                // The first run builds the decoys; the others run that build as it is.
                let runner = KataRunner(workspace: workspace, subject: .decoys, language: language)
                let environment = ["LESSONS_DECOY": decoy.id]
                let run = built
                    ? try runner.runBuilt(suite: entry.suite.name, environment: environment,
                                          logName: "verify-decoy-\(decoy.id).log") { progress(step, $0) }
                    : try runner.run(filter: KataRunner.filter(suite: entry.suite.name, kata: nil),
                                     environment: environment, logName: "verify-decoys.log") { progress(step, $0) }
                if run.report.buildFailed {
                    result.buildErrors[.decoys] = relative(run.report.buildErrors)
                    return result
                }
                built = true
                result.decoys.append(Self.judgeDecoy(decoy, of: entry, report: run.report))
            }
        }
        result.coverage = entries.map { Self.judgeCoverage($0, decoys: result.decoys) }
        return result
    }

    /// Compiler messages with paths relative to the package root, each once (the compiler repeats them).
    private func relative(_ errors: [String]) -> [String] {
        var seen: Set<String> = []
        return errors.map { $0.replacingOccurrences(of: workspace.packageRoot.path + "/", with: "") }
            .filter { seen.insert($0).inserted }
    }

    /// Builds the package in the learner's build folder; false when the build failed (each example then goes
    /// through `swift run`, which reports its own errors).
    private func buildExamples() throws(LessonsError) -> Bool {
        let arguments = ["swift", "build"] + KataSubject.starters.buildOptions(in: workspace)
        return try ProcessRunner.run(arguments, in: workspace.packageRoot) { _ in } == 0
    }

    private func runExample(_ lesson: Lesson, built: Bool) throws(LessonsError) -> KataVerification.ExampleCheck {
        let product = lesson.example.product
        var output: [String] = []
        let executable = KataSubject.starters.buildFolder(in: workspace).appendingPathComponent("debug/\(product)")
        let arguments = built && FileManager.default.isExecutableFile(atPath: executable.path)
            ? [executable.path]
            : ["swift", "run"] + KataSubject.starters.buildOptions(in: workspace) + [product]
        let status = try ProcessRunner.run(arguments, in: workspace.packageRoot) { output.append($0) }
        guard status == 0 else {
            let tail = output.suffix(3).joined(separator: " / ")
            return .init(lesson: lesson.number, product: product, problem: "exit status \(status): \(tail)")
        }
        return .init(lesson: lesson.number, product: product, problem: nil)
    }

    // MARK: Rules

    /// Against the starters every kata must fail by assertion or error — not pass, crash or be skipped — and its
    /// message must name the lesson and a starter file.
    public static func judgeStarters(_ entry: Entry, report: KataRunReport) -> KataVerification.SuiteCheck {
        judge(entry, report: report) { kata, outcome in
            switch outcome {
            case .failed(let failures):
                let named = failures.contains {
                    $0.message.contains("Lesson \(entry.lesson.number)") && $0.message.contains("Sources/Workbook/")
                }
                return named ? nil : "\(kata) fails without naming the lesson and the file to change: "
                    + (failures.first.map { firstLine($0.text) } ?? "no message")
            case .passed:
                return "\(kata) passes against the untouched starter"
            default:
                return describe(kata, outcome)
            }
        }
    }

    /// Against the solutions every kata must pass.
    public static func judgeSolutions(_ entry: Entry, report: KataRunReport) -> KataVerification.SuiteCheck {
        judge(entry, report: report) { kata, outcome in
            switch outcome {
            case .passed:
                return nil
            case .failed(let failures):
                return "\(kata) fails: " + (failures.first.map { firstLine($0.text) } ?? "")
            default:
                return describe(kata, outcome)
            }
        }
    }

    /// A decoy is caught when at least one kata fails by assertion or error, and none crashes.
    public static func judgeDecoy(_ decoy: Lesson.Decoys.Case, of entry: Entry,
                                  report: KataRunReport) -> KataVerification.DecoyCheck {
        var check = KataVerification.DecoyCheck(lesson: entry.lesson.number, id: decoy.id, mistake: decoy.mistake,
                                                caughtBy: [], problem: nil)
        for (index, kata) in entry.suite.katas.enumerated() {
            switch report.outcome(of: kata) {
            case .failed:
                check.caughtBy.append(index + 1)
            case .crashed(let reason):
                check.problem = "\(kata) crashed (\(reason)); a wrong answer must fail a kata, not end the run"
                return check
            default:
                break
            }
        }
        if check.caughtBy.isEmpty {
            check.problem = report.results.isEmpty
                ? "no kata ran" : "not caught: every kata accepts this wrong answer"
        }
        return check
    }

    /// Which katas of the entry's suite the lesson's decoys failed. Only decoys caught cleanly count: a run that
    /// crashed proves nothing about the katas after the crash.
    public static func judgeCoverage(_ entry: Entry,
                                     decoys: [KataVerification.DecoyCheck]) -> KataVerification.CoverageCheck {
        let caught = decoys.filter { $0.lesson == entry.lesson.number && $0.problem == nil }.flatMap(\.caughtBy)
        return .init(lesson: entry.lesson.number, katas: entry.suite.katas, caught: Set(caught),
                     exempt: entry.lesson.katas.exempt)
    }

    private static func judge(_ entry: Entry, report: KataRunReport,
                              rule: (String, KataRunReport.Outcome) -> String?) -> KataVerification.SuiteCheck {
        var problems: [String] = []
        if report.buildFailed {
            problems.append("did not build: " + (report.buildErrors.first ?? "see the log in .build/lessons"))
        } else {
            for kata in entry.suite.katas {
                if let problem = rule(kata, report.outcome(of: kata)) { problems.append(problem) }
            }
        }
        let katas = entry.suite.katas.count
        return .init(lesson: entry.lesson.number, suite: entry.suite.name, katas: katas,
                     good: report.buildFailed ? 0 : katas - problems.count, problems: problems)
    }

    private static func firstLine(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
    }

    private static func describe(_ kata: String, _ outcome: KataRunReport.Outcome) -> String {
        switch outcome {
        case .crashed(let reason): return "\(kata) crashed: \(reason)"
        case .skipped(let reason): return "\(kata) was skipped: \(reason)"
        case .notRun: return "\(kata) did not run"
        case .passed: return "\(kata) passes"
        case .failed: return "\(kata) fails"
        }
    }
}
