import Foundation

/// Builds the lab program in release mode, in a build folder of its own so the debug build is left alone, and
/// runs one lab with it.
public struct LabRunner {
    /// The product that holds the labs (`Sources/Labs`).
    public static let product = "persistence-labs"

    public let workspace: Workspace
    /// The lab program to run; nil for the release build ``build(progress:)`` makes.
    public let binary: URL?

    public init(workspace: Workspace, binary: URL? = nil) {
        self.workspace = workspace
        self.binary = binary
    }

    /// `.build/labs` beside the package's other build output.
    public var buildPath: URL { workspace.packageRoot.appendingPathComponent(".build/labs", isDirectory: true) }

    public var buildArguments: [String] {
        ["swift", "build", "-c", "release", "--product", Self.product, "--build-path", buildPath.path]
    }

    /// Builds the lab program; `progress` gets the compiler's steps. On failure, the error holds the compiler's
    /// messages.
    public func build(progress: (Int, Int) -> Void) throws(LessonsError) {
        var output: [String] = []
        let status = try ProcessRunner.run(buildArguments, in: workspace.packageRoot) { line in
            if let step = XCTestOutputParser.buildStep(line) { progress(step.done, step.total) }
            output.append(line)
        }
        guard status == 0 else {
            throw LessonsError(.io, "the labs did not build (swift build exit status \(status)):\n"
                + Self.compilerMessages(output).joined(separator: "\n"))
        }
    }

    /// What to show of a failed build: from the first error on, with the source lines the compiler quotes, but
    /// without its step counter (`[12/40] Compiling …`); the last lines when no line says "error:".
    static func compilerMessages(_ output: [String], limit: Int = 30) -> [String] {
        let messages = output.filter { XCTestOutputParser.buildStep($0) == nil }
        guard let first = messages.firstIndex(where: { $0.contains("error:") }) else {
            return Array(messages.suffix(limit))
        }
        return Array(messages[first...].prefix(limit))
    }

    /// Runs `lab` with `rows` (its ``Lab/defaultRows`` for the full size); `progress` gets the lab's label, done
    /// and total as it fills its data. Returns the report and the JSON line it came from.
    public func run(_ lab: Lab, rows: Int, progress: (String, Int, Int) -> Void)
        throws(LessonsError) -> (report: LabReport, json: String) {
        let program = binary ?? buildPath.appendingPathComponent("release/\(Self.product)")
        let arguments = [program.path, lab.name, "--rows", String(rows)]
        var report: (LabReport, String)?
        var other: [String] = []
        let status = try ProcessRunner.run(arguments, in: workspace.packageRoot) { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.count == 4, fields[0] == "progress", let done = Int(fields[2]), let total = Int(fields[3]) {
                progress(fields[1], done, total)
            } else if let decoded = LabReport.decode(line) {
                report = (decoded, line)
            } else {
                other.append(fields.first == "error" ? fields.dropFirst().joined(separator: " ") : line)
            }
        }
        guard status == 0, let report else {
            throw LessonsError(.io, "the lab '\(lab.name)' failed (exit status \(status))"
                + (other.isEmpty ? "." : ":\n" + other.suffix(20).joined(separator: "\n")))
        }
        return report
    }
}
