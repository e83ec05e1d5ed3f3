import Foundation

/// Runs katas through `swift test --filter` and reads the result.
public struct KataRunner: Sendable {
    public var workspace: Workspace
    /// The test command; `swift test` unless a test substitutes something that prints captured output.
    public var command: [String]
    /// The code the katas are built against.
    public var subject: KataSubject
    /// The learner's language, passed to the katas as `LESSONS_LANG` so that a lesson written in several languages
    /// words its failures in this one; `nil` leaves the environment as it is.
    public var language: Language?

    public init(workspace: Workspace, command: [String] = ["swift", "test"], subject: KataSubject = .starters,
                language: Language? = nil) {
        self.workspace = workspace
        self.command = command
        self.subject = subject
        self.language = language
    }

    /// The outcome of a run, with where the full output was saved.
    public struct Run: Sendable {
        public var report: KataRunReport
        public var exitStatus: Int32
        /// The complete output of `swift test`, for when the summary is not enough.
        public var log: URL?
    }

    /// The `--filter` pattern for a suite or one kata of the starters' module: anchored so `Kata01` does not also
    /// run `Kata010…`, nor the same suite of the solutions' and decoys' modules when a build has them.
    public static func filter(suite: String, kata: String?) -> String {
        let prefix = "^\(KataSubject.starters.testModule)\\.\(suite)/"
        return kata.map { prefix + "\($0)$" } ?? prefix
    }

    /// Runs one suite, or one kata of it.
    public func run(_ suite: KataSuite, kata: String?,
                    onProgress: (XCTestOutputParser) -> Void = { _ in }) throws(LessonsError) -> Run {
        try run(filter: Self.filter(suite: suite.name, kata: kata), onProgress: onProgress)
    }

    /// Runs the tests matching `filter` (a regular expression over `Module.Suite/test`).
    /// - Parameters:
    ///   - environment: added to this process's environment (`LESSONS_DECOY`…).
    ///   - skipBuild: run what is built without checking that it is up to date.
    ///   - logName: the log's file name in `.build/lessons`.
    public func run(filter: String, environment: [String: String] = [:], skipBuild: Bool = false,
                    logName: String = "last-check.log",
                    onProgress: (XCTestOutputParser) -> Void = { _ in }) throws(LessonsError) -> Run {
        var arguments = command + workspace.buildOptions
        if skipBuild { arguments.append("--skip-build") }
        arguments += ["--filter", filter]
        return try launch(arguments, environment: buildEnvironment.merging(environment) { _, new in new },
                          logName: logName, onProgress: onProgress)
    }

    private func launch(_ arguments: [String], environment: [String: String], logName: String,
                        onProgress: (XCTestOutputParser) -> Void) throws(LessonsError) -> Run {
        var parser = XCTestOutputParser()
        var output = ""
        let environment = withLanguage(environment)
        let processEnvironment = environment.isEmpty
            ? nil : ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let status = try ProcessRunner.run(arguments, in: workspace.packageRoot, environment: processEnvironment) { line in
            output += line + "\n"
            parser.consume(line)
            onProgress(parser)
        }
        let report = parser.finish()
        return Run(report: report, exitStatus: status, log: workspace.saveLog(output, name: logName))
    }

    /// `environment` with the learner's language added, unless it names one itself.
    private func withLanguage(_ environment: [String: String]) -> [String: String] {
        var environment = environment
        if let language, environment["LESSONS_LANG"] == nil { environment["LESSONS_LANG"] = language.rawValue }
        return environment
    }

    /// The environment the package is built under for this subject: the starters' katas are in every build,
    /// the others only in one made with ``KataSubject/verifyEnvironment``.
    public var buildEnvironment: [String: String] {
        subject == .starters ? [:] : KataSubject.verifyEnvironment
    }

    /// Runs suites of the build that is already there, without asking SwiftPM whether it is up to date (see
    /// ``builtInvocation(suites:environment:)``).
    public func runBuilt(suites: [String], environment: [String: String] = [:], logName: String,
                         onProgress: (XCTestOutputParser) -> Void = { _ in }) throws(LessonsError) -> Run {
        let (arguments, environment) = builtInvocation(suites: suites, environment: environment)
        return try launch(arguments, environment: environment, logName: logName, onProgress: onProgress)
    }

    /// The command that runs suites of the build that is there, and the environment it adds: the test executable
    /// straight from the build folder when there is one (Linux; XCTest takes a comma-separated list of
    /// `Module.Suite`), which saves SwiftPM's two seconds of start-up a run — `lessons verify` runs a suite once
    /// per decoy. Elsewhere (a macOS test bundle needs `xctest` to load it) it is `swift test --skip-build`.
    public func builtInvocation(suites: [String],
                                environment: [String: String] = [:]) -> (arguments: [String], environment: [String: String]) {
        guard command == ["swift", "test"], let executable = testExecutable() else {
            let pattern = "^\(subject.testModule)\\.(" + suites.joined(separator: "|") + ")/"
            return (command + workspace.buildOptions + ["--skip-build", "--filter", pattern],
                    withLanguage(buildEnvironment.merging(environment) { _, new in new }))
        }
        let selectors = suites.map(subject.selector(suite:)).joined(separator: ",")
        return ([executable.path, selectors], withLanguage(environment))
    }

    /// The package's test executable in the build folder (`<build>/debug/<Package>PackageTests.xctest`), when it
    /// is a plain executable file, as on Linux.
    public func testExecutable() -> URL? {
        let folder = workspace.buildFolder.appendingPathComponent("debug", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where name.hasSuffix("PackageTests.xctest") {
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: url.path) {
                return url
            }
        }
        return nil
    }
}
