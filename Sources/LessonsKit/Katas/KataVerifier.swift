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
    /// How many runs go at once after the build; nil for ``ProcessPool/defaultWidth``.
    public var width: Int?
    /// Runs what is built without asking SwiftPM first whether it is up to date, when there is a test executable
    /// to run: for a caller that has just built the package with ``KataSubject/verifyEnvironment`` (scripts/check),
    /// where that question costs seconds of processor time and finds nothing to do.
    public var skipBuild: Bool

    public init(workspace: Workspace, entries: [Entry], language: Language? = nil, width: Int? = nil,
                skipBuild: Bool = false) {
        self.workspace = workspace
        self.entries = entries
        self.language = language
        self.width = width
        self.skipBuild = skipBuild
    }

    /// Runs everything from one build: the package with the katas compiled once per subject (see ``KataSubject``),
    /// then the starters' katas, the solutions' katas, one run per decoy and every example, straight from the
    /// build folder and several at a time.
    public func run(progress: Progress = { _, _ in }) throws(LessonsError) -> KataVerification {
        var result = KataVerification()
        guard !entries.isEmpty else { return result }
        let suites = entries.map(\.suite.name)

        let buildStep = "building the katas against the starters, the solutions and the decoys"
        let built = skipBuild && KataRunner(workspace: workspace).testExecutable() != nil
        if !built { progress(buildStep, nil) }
        let errors = built ? [] : try build { progress(buildStep, $0) }
        guard errors.isEmpty else {
            // One build for all three: a subject's own code is blamed on it, shared code on the starters.
            result.buildErrors = Dictionary(grouping: relative(errors)) { KataSubject.owning($0) ?? .starters }
            return result
        }

        // Every run from here on is a program the build made, and most of their time is spent waiting on queues
        // and timers: the starters' katas, the solutions' katas, one run per decoy and every example go to a
        // pool that keeps a few going at once, each with a log of its own.
        let runs: [Run] = [.starters, .solutions] + entries.map { .example($0.lesson) }
            + entries.flatMap { entry in
                (entry.lesson.decoys?.cases ?? []).map { $0.rejectedWith == nil ? .decoy($0, of: entry) : .rejected($0, of: entry) }
            }
        let logs = logsFolder
        do {
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        } catch {
            throw LessonsError(.io, "cannot create \(workspace.displayPath(logs)): \(error.localizedDescription)")
        }
        let jobs = runs.map { job(for: $0, suites: suites, logs: logs) }
        // Without a test executable to run directly (macOS), each run is a `swift test`, and those wait for each
        // other's lock on the build folder anyway.
        let width = KataRunner(workspace: workspace).testExecutable() == nil ? 1 : self.width ?? ProcessPool.defaultWidth
        // The longest runs start first, so that the last ones to end are short: lesson 14's slowest decoy run
        // alone takes half a minute, and started last it would run on while the other slots sit idle.
        let names = jobs.map(\.log.lastPathComponent)
        let previous = readTimes()
        let order = Self.startOrder(runs.map(\.estimate), previous: names.map { previous[$0] })
        var finished = 0
        let outcomes = ProcessPool.run(jobs, in: workspace.packageRoot, width: width, order: order) { _, _ in
            finished += 1
            progress("runs \(finished) of \(jobs.count) (starters, solutions, examples, decoys)", nil)
        }
        writeTimes(Dictionary(zip(names, outcomes.map(\.seconds))) { first, _ in first })
        let statuses = outcomes.map(\.status)

        for (run, (job, status)) in zip(runs, zip(jobs, statuses)) {
            let output = (try? String(contentsOf: job.log, encoding: .utf8)) ?? ""
            switch run {
            case .starters:
                let report = XCTestOutputParser.parse(output)
                result.starters = entries.map { Self.judgeStarters($0, report: report) }
            case .solutions:
                let report = XCTestOutputParser.parse(output)
                result.solutions = entries.map { Self.judgeSolutions($0, report: report) }
            case .decoy(let decoy, let entry):
                result.decoys.append(Self.judgeDecoy(decoy, of: entry, report: XCTestOutputParser.parse(output)))
            case .rejected(let decoy, let entry):
                result.decoys.append(Self.judgeRejected(decoy, of: entry.lesson, status: status, output: output))
            case .example(let lesson):
                result.examples.append(Self.judgeExample(lesson, status: status, output: output))
            }
        }
        result.coverage = entries.map { Self.judgeCoverage($0, decoys: result.decoys) }
        return result
    }

    /// One program to run after the build.
    private enum Run {
        /// Every suite against the starters, or against the solutions.
        case starters, solutions
        /// The decoys' module with one decoy switched on (`LESSONS_DECOY`), running its lesson's suite.
        case decoy(Lesson.Decoys.Case, of: Entry)
        /// The compiler on the lesson's solution with a rejected decoy's files in place of its own.
        case rejected(Lesson.Decoys.Case, of: Entry)
        /// A lesson's example.
        case example(Lesson)

        /// A rough rank of how long the run takes, for a build folder with no times recorded: the starters' and
        /// the solutions' runs hold every suite; the examples of lessons 6, 12 and 13 work through thousands of rows
        /// (12–39 s on a busy machine); then the decoys, later lessons first, since those wait on queues and timers
        /// (on two cores lesson 14's decoys took 148 s, lesson 9's 64 s, each of lessons 1–8 under 25 s).
        var estimate: Int {
            switch self {
            case .starters, .solutions: return 1000
            case .example(let lesson): return 500 + lesson.number
            case .decoy(_, let entry): return 100 + entry.lesson.number
            case .rejected: return 50           // a second of compiling
            }
        }
    }

    /// The order to start runs in, as indices: first those never timed (a new decoy, or a fresh build folder),
    /// by their estimate, then the others by how long they took last time, the longest first.
    static func startOrder(_ estimates: [Int], previous: [TimeInterval?]) -> [Int] {
        estimates.indices.sorted { a, b in
            switch (previous[a], previous[b]) {
            case (nil, nil): return estimates[a] != estimates[b] ? estimates[a] > estimates[b] : a < b
            case (nil, _?): return true
            case (_?, nil): return false
            case (let x?, let y?): return x != y ? x > y : a < b
            }
        }
    }

    /// Where each run's seconds are kept between verifications (`seconds<tab>log name` a line), for the start
    /// order and for `lessons verify --timings`.
    public var timesFile: URL {
        logsFolder.appendingPathComponent("verify-times.tsv")
    }

    /// Where the runs' logs go, beside the build.
    var logsFolder: URL {
        workspace.packageRoot.appendingPathComponent(".build/lessons", isDirectory: true)
    }

    /// The seconds each run took last time, by its log's name; empty when there is no record.
    public func readTimes() -> [String: TimeInterval] {
        guard let text = try? String(contentsOf: timesFile, encoding: .utf8) else { return [:] }
        var times: [String: TimeInterval] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            if fields.count == 2, let seconds = TimeInterval(fields[0]) { times[String(fields[1])] = seconds }
        }
        return times
    }

    private func writeTimes(_ times: [String: TimeInterval]) {
        // Runs of lessons left out this time keep their last figure.
        let merged = readTimes().merging(times) { _, new in new }
        let text = merged.sorted { $0.value > $1.value }
            .map { String(format: "%.2f", $0.value) + "\t" + $0.key + "\n" }.joined()
        try? Data(text.utf8).write(to: timesFile)
    }

    private func job(for run: Run, suites: [String], logs: URL) -> ProcessPool.Job {
        func katas(_ subject: KataSubject, _ suites: [String], _ environment: [String: String], log: String) -> ProcessPool.Job {
            let (arguments, environment) = KataRunner(workspace: workspace, subject: subject, language: language)
                .builtInvocation(suites: suites, environment: environment)
            return .init(arguments: arguments, environment: environment, log: logs.appendingPathComponent(log))
        }
        switch run {
        case .starters:
            return katas(.starters, suites, [:], log: "verify-starters.log")
        case .solutions:
            return katas(.solutions, suites, [:], log: "verify-solutions.log")
        case .decoy(let decoy, let entry):
            return katas(.decoys, [entry.suite.name], ["LESSONS_DECOY": decoy.id], log: "verify-decoy-\(decoy.id).log")
        case .rejected(let decoy, let entry):
            return .init(arguments: rejectedInvocation(decoy, of: entry.lesson),
                         log: logs.appendingPathComponent("verify-decoy-\(decoy.id).log"))
        case .example(let lesson):
            let product = lesson.example.product
            let executable = workspace.buildFolder.appendingPathComponent("debug/\(product)")
            let arguments = FileManager.default.isExecutableFile(atPath: executable.path)
                ? [executable.path]
                : ["swift", "run", "--skip-build"] + workspace.buildOptions + [product]
            return .init(arguments: arguments, log: logs.appendingPathComponent("verify-example-\(lesson.number).log"))
        }
    }

    /// The compiler on the lesson's reference solution with the decoy's files in place of the solution's files of
    /// the same names, as the Solutions module, against the modules the build made — Swift 6 language mode, as the
    /// package. `-emit-sil`, not `-typecheck`: the data-race checks of Swift 6 (sending a value across isolation)
    /// run on SIL, after type checking. Paths are relative to the package root, where the job runs, so that the
    /// errors name the decoy's files as the manifest's folder does.
    func rejectedInvocation(_ decoy: Lesson.Decoys.Case, of lesson: Lesson) -> [String] {
        let solution = lesson.solution.first ?? ""
        let folder = decoy.rejectedFolder(in: lesson)
        let replaced = Set(workspace.swiftFiles(at: folder))
        let files = workspace.swiftFiles(at: solution).map { replaced.contains($0) ? "\(folder)/\($0)" : "\(solution)/\($0)" }
        let debug = workspace.buildFolder.appendingPathComponent("debug", isDirectory: true)
        var arguments = ["swiftc", "-emit-sil", "-o", "/dev/null", "-parse-as-library", "-swift-version", "6",
                         "-module-name", "Solutions", "-I", debug.appendingPathComponent("Modules").path]
        for map in moduleMaps(in: debug) { arguments += ["-Xcc", "-fmodule-map-file=" + map] }
        return arguments + files
    }

    /// The module maps of the package's C modules, which importing Persistence needs: the system libraries'
    /// (`Sources/NAME/module.modulemap`) and those SwiftPM wrote for C targets (`debug/NAME.build/module.modulemap`).
    private func moduleMaps(in debug: URL) -> [String] {
        let manager = FileManager.default
        let sources = workspace.packageRoot.appendingPathComponent("Sources", isDirectory: true)
        let declared = ((try? manager.contentsOfDirectory(atPath: sources.path)) ?? []).sorted()
            .map { sources.appendingPathComponent($0).appendingPathComponent("module.modulemap").path }
        let written = ((try? manager.contentsOfDirectory(atPath: debug.path)) ?? []).sorted()
            .filter { $0.hasSuffix(".build") }
            .map { debug.appendingPathComponent($0).appendingPathComponent("module.modulemap").path }
        return (declared + written).filter { manager.fileExists(atPath: $0) }
    }

    /// Builds the package with the katas of every subject (and the examples); returns the compiler's errors.
    private func build(onProgress: (XCTestOutputParser) -> Void) throws(LessonsError) -> [String] {
        let arguments = ["swift", "build", "--build-tests"] + workspace.buildOptions
        let environment = ProcessInfo.processInfo.environment.merging(KataSubject.verifyEnvironment) { _, new in new }
        var parser = XCTestOutputParser()
        var output = ""
        let status = try ProcessRunner.run(arguments, in: workspace.packageRoot, environment: environment) { line in
            output += line + "\n"
            parser.consume(line)
            onProgress(parser)
        }
        workspace.saveLog(output, name: "verify-build.log")
        let errors = parser.finish().buildErrors
        return status == 0 ? [] : errors.isEmpty ? ["swift build exited with status \(status)"] : errors
    }

    /// Compiler messages with paths relative to the package root, each once (the compiler repeats them).
    private func relative(_ errors: [String]) -> [String] {
        var seen: Set<String> = []
        return errors.map { $0.replacingOccurrences(of: workspace.packageRoot.path + "/", with: "") }
            .filter { seen.insert($0).inserted }
    }

    // MARK: Rules

    /// An example must end with status 0; otherwise the last lines of its output say why.
    public static func judgeExample(_ lesson: Lesson, status: Int32, output: String) -> KataVerification.ExampleCheck {
        let product = lesson.example.product
        guard status == 0 else {
            let tail = output.split(separator: "\n").suffix(3).joined(separator: " / ")
            return .init(lesson: lesson.number, product: product, problem: "exit status \(status): \(tail)")
        }
        return .init(lesson: lesson.number, product: product, problem: nil)
    }

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

    /// A decoy the compiler must reject is caught when compiling the solution with its files fails with an error,
    /// in one of those files, that contains the manifest's `rejectedWith` — not when it fails for another reason.
    public static func judgeRejected(_ decoy: Lesson.Decoys.Case, of lesson: Lesson, status: Int32,
                                     output: String) -> KataVerification.DecoyCheck {
        var check = KataVerification.DecoyCheck(lesson: lesson.number, id: decoy.id, mistake: decoy.mistake,
                                                caughtBy: [], problem: nil)
        let reason = decoy.rejectedWith ?? ""
        let folder = decoy.rejectedFolder(in: lesson) + "/"
        // `path:line:column: error: message [#Group]`; the lines drawn under the source quote it without a path.
        let errors = output.split(separator: "\n").map(String.init).filter { $0.contains(": error: ") }
        if let match = errors.first(where: { $0.hasPrefix(folder) && $0.contains(reason) }) {
            check.rejectedBy = String(match.dropFirst(folder.count))
        } else if status == 0 || errors.isEmpty {
            check.problem = status == 0
                ? "compiles: Swift 6 accepts this wrong answer, so a kata must catch it (drop \"rejectedWith\")"
                : "the compiler stopped (status \(status)) without an error: see the log in .build/lessons"
        } else {
            check.problem = "rejected, but not for \"\(reason)\": \(errors[0])"
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
