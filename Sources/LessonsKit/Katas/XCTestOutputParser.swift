/// Reads the output of `swift test` line by line — XCTest's Linux format and its macOS format — into a
/// ``KataRunReport``. It is fed as the output streams, so callers can show progress while tests run.
public struct XCTestOutputParser: Sendable {
    public private(set) var report = KataRunReport()
    /// Build steps done and total, from SwiftPM's `[12/40] Compiling…` lines.
    public private(set) var buildProgress: (done: Int, total: Int)?
    /// How many test cases have finished.
    public private(set) var finishedCount = 0

    private var running: (suite: String, name: String)?
    private var failures: [KataRunReport.Failure] = []
    /// Multi-line assertion messages continue until the next line the parser recognises.
    private var collectingMessage = false
    private var crashed = false
    private var testsStarted = false

    public init() {}

    public static func parse(_ output: String) -> KataRunReport {
        var parser = XCTestOutputParser()
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) { parser.consume(String(line)) }
        return parser.finish()
    }

    public mutating func consume(_ rawLine: String) {
        let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : rawLine
        if let progress = Self.buildStep(line) {
            buildProgress = progress
            return
        }
        if let (event, suite, name) = Self.testCaseEvent(line) {
            collectingMessage = false
            testsStarted = true
            switch event {
            case "started":
                running = (suite, name)
                failures = []
            case "passed":
                finish(suite, name, failures.isEmpty ? .passed : .failed(failures))
            case "failed":
                finish(suite, name, .failed(failures.isEmpty ? [KataRunReport.Failure(file: nil, line: nil,
                    message: "failed without a message")] : failures))
            case "skipped":
                let reason = failures.first?.message ?? "skipped"
                finish(suite, name, .skipped(reason))
            default:
                break
            }
            return
        }
        if let failure = Self.failureLine(line, running: running) {
            collectingMessage = !failure.isSkip
            failures.append(KataRunReport.Failure(file: failure.file, line: failure.line, message: failure.message))
            return
        }
        if let range = line.range(of: "Fatal error: ") ?? line.range(of: "Fatal error") {
            report.crashMessage = line[range.lowerBound...].trimmingWhitespace
            collectingMessage = false
            return
        }
        if line.hasPrefix("*** Signal") || line.hasPrefix("*** Program crashed") || line.contains("exited with unexpected signal") {
            crashed = true
            collectingMessage = false
            if report.crashMessage == nil, line.hasPrefix("*** Program crashed") {
                report.crashMessage = line.replacingOccurrences(of: "*", with: "").trimmingWhitespace
            }
            return
        }
        if line.hasPrefix("Test Suite ") || line.hasPrefix("\t Executed") || line.hasPrefix("◇") || line.hasPrefix("↳")
            || line.hasPrefix("✔") || line.hasPrefix("✘") {
            collectingMessage = false
            return
        }
        if collectingMessage, !failures.isEmpty {
            failures[failures.count - 1].message += "\n" + line
            return
        }
        if !testsStarted, let error = Self.buildError(line) {
            report.buildErrors.append(error)
        }
    }

    /// Ends the run: a test that started and never finished is where the process crashed.
    public mutating func finish() -> KataRunReport {
        if let running {
            let reason = report.crashMessage ?? (crashed ? "the test process crashed" : "the test process stopped")
            report.results.append(KataRunReport.Result(suite: running.suite, name: running.name, outcome: .crashed(reason)))
            self.running = nil
        }
        for index in report.results.indices {
            if case .failed(var failures) = report.results[index].outcome {
                for failureIndex in failures.indices {
                    failures[failureIndex].message = failures[failureIndex].message.trimmingWhitespace
                }
                report.results[index].outcome = .failed(failures)
            }
        }
        return report
    }

    private mutating func finish(_ suite: String, _ name: String, _ outcome: KataRunReport.Outcome) {
        report.results.append(KataRunReport.Result(suite: suite, name: name, outcome: outcome))
        running = nil
        failures = []
        finishedCount += 1
    }

    // MARK: Line formats

    static func buildStep(_ line: String) -> (done: Int, total: Int)? {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
        let parts = line[line.index(after: line.startIndex)..<close].split(separator: "/")
        guard parts.count == 2, let done = Int(parts[0]), let total = Int(parts[1]) else { return nil }
        return (done, total)
    }

    /// `Test Case 'Suite.test' started at …` (Linux) or `Test Case '-[Module.Suite test]' passed (…)` (macOS).
    static func testCaseEvent(_ line: String) -> (event: String, suite: String, name: String)? {
        guard line.hasPrefix("Test Case '") else { return nil }
        let rest = line.dropFirst("Test Case '".count)
        guard let quote = rest.firstIndex(of: "'") else { return nil }
        guard let (suite, name) = splitTestName(String(rest[..<quote])) else { return nil }
        // macOS ends the word with a full stop: `started.`
        let word = rest[rest.index(after: quote)...].trimmingWhitespace.split(separator: " ").first
        guard let event = word.map({ $0.hasSuffix(".") ? String($0.dropLast()) : String($0) }) else { return nil }
        return (event, suite, name)
    }

    /// `Suite.test`, `Module.Suite.test` or `-[Module.Suite test]` → (Suite, test).
    static func splitTestName(_ text: String) -> (String, String)? {
        if text.hasPrefix("-[") && text.hasSuffix("]") {
            let inner = text.dropFirst(2).dropLast()
            let parts = inner.split(separator: " ")
            guard parts.count == 2 else { return nil }
            let suite = parts[0].split(separator: ".").last.map(String.init) ?? String(parts[0])
            return (suite, String(parts[1]))
        }
        let parts = text.split(separator: ".")
        guard parts.count >= 2 else { return nil }
        return (String(parts[parts.count - 2]), String(parts[parts.count - 1]))
    }

    private struct FailureLine {
        var file: String?
        var line: Int?
        var message: String
        var isSkip: Bool
    }

    /// `path:12: error: Suite.test : message`, `<EXPR>:0: error: Suite.test : threw error "…"` or
    /// `path:10: Suite.test : Test skipped - reason`, for the running test.
    private static func failureLine(_ line: String, running: (suite: String, name: String)?) -> FailureLine? {
        guard let running else { return nil }
        let markers = [" \(running.suite).\(running.name) : ", " -[", "error: \(running.suite).\(running.name) : "]
        guard markers.contains(where: { line.contains($0) }) else { return nil }
        guard let separator = line.range(of: "\(running.name) : ") ?? line.range(of: "\(running.name)] : ") else {
            return nil
        }
        var message = String(line[separator.upperBound...])
        let location = line[..<separator.lowerBound]
        let isSkip = message.hasPrefix("Test skipped")
        if isSkip {
            message = message.dropFirst("Test skipped".count).drop(while: { $0 == " " || $0 == "-" }).trimmingWhitespace
        } else if !location.contains("error:") {
            return nil
        }
        let locationParts = location.split(separator: ":", maxSplits: 2)
        var file: String?, lineNumber: Int?
        if locationParts.count >= 2, let number = Int(locationParts[1]), !locationParts[0].hasPrefix("<") {
            file = String(locationParts[0])
            lineNumber = number
        }
        return FailureLine(file: file, line: lineNumber, message: message, isSkip: isSkip)
    }

    /// A compiler or linker error line, kept whole.
    private static func buildError(_ line: String) -> String? {
        if line.hasPrefix("error: fatalError") || line.hasPrefix("error: Exited") { return nil }
        if line.contains(": error: ") || line.hasPrefix("error: ") { return line.trimmingWhitespace }
        return nil
    }
}
