import Foundation
import XCTest
@testable import LessonsKit

/// Starting programs: which process group they run in, and interrupts passed on to them (Ctrl-C during
/// `lessons check` must stop the build it started, not leave it running).
final class ChildProcessTests: TemporaryFolderTestCase {
    /// The process group of `pid`, from /proc (field 5 of its stat line).
    private func processGroup(of pid: pid_t) throws -> pid_t {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let afterName = stat[stat.range(of: ")", options: .backwards)!.upperBound...]
        return pid_t(afterName.split(separator: " ")[2])!
    }

    /// Whether `pid` is still running (a zombie nobody has reaped yet counts as ended).
    private func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.range(of: ")", options: .backwards) else { return false }
        return stat[close.upperBound...].split(separator: " ").first != "Z"
    }

    /// The number a shell wrote to `file`, waiting up to five seconds for it.
    private func number(in file: URL) throws -> pid_t {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if let text = try? String(contentsOf: file, encoding: .utf8), text.hasSuffix("\n"),
               let value = pid_t(text.trimmingWhitespace) {
                return value
            }
            usleep(10_000)
        }
        throw CocoaError(.fileReadNoSuchFile)
    }

    private func waitUntilEnded(_ pid: pid_t, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(5)
        while isRunning(pid) && Date() < deadline { usleep(10_000) }
        XCTAssertFalse(isRunning(pid), "process \(pid) is still running", file: file, line: line)
    }

    func testAnInterruptReachesTheChildsWholeGroupAndIsWaitedFor() throws {
        // The shell stands for `swift build`, the sleep it starts for a compiler.
        let pidFile = temporary.appendingPathComponent("compiler.pid")
        let script = "sh -c 'echo $$ > \(pidFile.path); exec sleep 30'; echo carried on"
        var child = try ChildProcess.start(["sh", "-c", script], in: temporary, group: .own, output: .merged)
        let compiler = try number(in: pidFile)
        XCTAssertEqual(try processGroup(of: child.pid), child.pid, "a group of its own")
        XCTAssertEqual(try processGroup(of: compiler), child.pid)

        kill(getpid(), SIGINT)  // what the terminal sends for Ctrl-C
        var output = ""
        child.readOutput { output += String(decoding: $0, as: UTF8.self) }
        let end = child.wait()
        XCTAssertEqual(end.interrupt, SIGINT)
        XCTAssertEqual(end.status, 128 + SIGINT)
        XCTAssertEqual(output, "", "the shell was interrupted too, so it did not carry on")
        waitUntilEnded(compiler)
    }

    func testTerminationReachesBackgroundJobsToo() throws {
        // Shells ignore SIGINT in background jobs; SIGTERM (a closed terminal, a `kill`) still stops them.
        let pidFile = temporary.appendingPathComponent("job.pid")
        var child = try ChildProcess.start(["sh", "-c", "sleep 30 & echo $! > \(pidFile.path); wait"],
                                           group: .own, output: .merged)
        let job = try number(in: pidFile)
        kill(getpid(), SIGTERM)
        let end = child.wait()
        XCTAssertEqual(end.interrupt, SIGTERM)
        XCTAssertEqual(end.status, 128 + SIGTERM)
        waitUntilEnded(job)
    }

    func testASharedGroupChildGetsWhatIsSentToLessonsAlone() throws {
        var child = try ChildProcess.start(["sleep", "30"], group: .shared)
        XCTAssertEqual(try processGroup(of: child.pid), getpgrp(), "the caller's group, so a terminal's foreground")
        kill(getpid(), SIGTERM)
        let end = child.wait()
        XCTAssertEqual(end, ChildProcess.Termination(status: 128 + SIGTERM, interrupt: SIGTERM))
    }

    func testWithoutAnInterruptTheExitStatusComesBack() throws {
        var child = try ChildProcess.start(["sh", "-c", "exit 3"], group: .own)
        XCTAssertEqual(child.wait(), ChildProcess.Termination(status: 3, interrupt: nil))
        var cat = try ChildProcess.start(["cat"], group: .shared, input: .pipe, output: .merged)
        cat.send(Data("through a pipe\n".utf8))
        var output = Data()
        cat.readOutput { output.append($0) }
        XCTAssertEqual(cat.wait().status, 0)
        XCTAssertEqual(String(decoding: output, as: UTF8.self), "through a pipe\n")
    }

    func testRunMergesOutputAndFirstLineReadsStandardOutputOnly() throws {
        var lines: [String] = []
        let status = try ProcessRunner.run(["sh", "-c", "echo one; echo two >&2; printf three; exit 4"],
                                           in: temporary) { lines.append($0) }
        XCTAssertEqual(status, 4)
        XCTAssertEqual(lines, ["one", "two", "three"])
        // Debian's chromium launcher complains on standard error before printing its version.
        XCTAssertEqual(ProcessRunner.firstLine(["sh", "-c", "echo '[: unexpected operator' >&2; echo 'Chromium 1.2'"]),
                       "Chromium 1.2")
        XCTAssertNil(ProcessRunner.firstLine(["sh", "-c", "echo 1.0; exit 1"]))
        XCTAssertNil(ProcessRunner.firstLine(["no-such-program-here"]))
    }

    func testStartingInAMissingFolderIsAnError() {
        XCTAssertThrowsError(try ProcessRunner.run(["true"], in: temporary.appendingPathComponent("gone")) { _ in })
    }
}
