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

    /// The `--filter` pattern for a suite or one kata: anchored so `Kata01` does not also run `Kata010…`.
    public static func filter(suite: String, kata: String?) -> String {
        kata.map { "\(suite)/\($0)$" } ?? "\(suite)/"
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
        var arguments = command + subject.buildOptions(in: workspace)
        if skipBuild { arguments.append("--skip-build") }
        arguments += ["--filter", filter]
        return try launch(arguments, environment: environment, logName: logName, onProgress: onProgress)
    }

    private func launch(_ arguments: [String], environment: [String: String], logName: String,
                        onProgress: (XCTestOutputParser) -> Void) throws(LessonsError) -> Run {
        var parser = XCTestOutputParser()
        var output = ""
        var environment = environment
        if let language, environment["LESSONS_LANG"] == nil { environment["LESSONS_LANG"] = language.rawValue }
        let processEnvironment = environment.isEmpty
            ? nil : ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let status = try ProcessRunner.run(arguments, in: workspace.packageRoot, environment: processEnvironment) { line in
            output += line + "\n"
            parser.consume(line)
            onProgress(parser)
        }
        let report = parser.finish()
        return Run(report: report, exitStatus: status, log: saveLog(output, name: logName))
    }

    /// Runs one suite of the build that is already there, without asking SwiftPM whether it is up to date: the
    /// test executable straight from the build folder when there is one (Linux; XCTest takes `Katas.Suite`), which
    /// saves SwiftPM's two seconds of start-up a run — `lessons verify` runs a suite once per decoy. Elsewhere (a
    /// macOS test bundle needs `xctest` to load it) it is `swift test --skip-build`.
    public func runBuilt(suite: String, environment: [String: String] = [:], logName: String,
                         onProgress: (XCTestOutputParser) -> Void = { _ in }) throws(LessonsError) -> Run {
        guard command == ["swift", "test"], let executable = testExecutable() else {
            return try run(filter: Self.filter(suite: suite, kata: nil), environment: environment, skipBuild: true,
                           logName: logName, onProgress: onProgress)
        }
        return try launch([executable.path, "\(Self.testModule).\(suite)"], environment: environment,
                          logName: logName, onProgress: onProgress)
    }

    /// The test target of the katas.
    static let testModule = "Katas"

    /// The package's test executable in this subject's build folder (`<build>/debug/<Package>PackageTests.xctest`),
    /// when it is a plain executable file, as on Linux.
    public func testExecutable() -> URL? {
        let folder = subject.buildFolder(in: workspace).appendingPathComponent("debug", isDirectory: true)
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

    private func saveLog(_ output: String, name: String) -> URL? {
        let folder = workspace.packageRoot.appendingPathComponent(".build/lessons")
        let file = folder.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(output.utf8).write(to: file, options: .atomic)
            return file
        } catch {
            return nil
        }
    }
}
