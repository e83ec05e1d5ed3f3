import Foundation

/// Runs one lesson's katas through `swift test --filter` and reads the result.
public struct KataRunner: Sendable {
    public var workspace: Workspace
    /// The test command; `swift test` unless a test substitutes something that prints captured output.
    public var command: [String]

    public init(workspace: Workspace, command: [String] = ["swift", "test"]) {
        self.workspace = workspace
        self.command = command
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

    public func run(_ suite: KataSuite, kata: String?,
                    onProgress: (XCTestOutputParser) -> Void = { _ in }) throws(LessonsError) -> Run {
        var parser = XCTestOutputParser()
        var output = ""
        let arguments = command + ["--filter", Self.filter(suite: suite.name, kata: kata)]
        let status = try ProcessRunner.run(arguments, in: workspace.packageRoot) { line in
            output += line + "\n"
            parser.consume(line)
            onProgress(parser)
        }
        let report = parser.finish()
        return Run(report: report, exitStatus: status, log: saveLog(output))
    }

    private func saveLog(_ output: String) -> URL? {
        let folder = workspace.packageRoot.appendingPathComponent(".build/lessons")
        let file = folder.appendingPathComponent("last-check.log")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(output.utf8).write(to: file, options: .atomic)
            return file
        } catch {
            return nil
        }
    }
}
