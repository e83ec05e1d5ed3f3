import Foundation
import XCTest
@testable import LessonsKit

/// `lessons show` and `lessons solution` on a real pseudo-terminal: the pager must get the keyboard, and `q`
/// must bring the prompt back.
final class PagerTerminalTests: TemporaryFolderTestCase {
    private var progressFile: URL { temporary.appendingPathComponent("progress.json") }

    /// Starts `lessons ARGS` on the fixture lessons in a 60×20 terminal with the default pager (`less -R`).
    private func startLessons(_ arguments: [String], environment: [String: String] = [:]) throws -> PseudoTerminal {
        let binary = LessonsCLITests.binary
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            XCTFail("\(binary.path) is missing: build it with `swift build --build-tests` before `swift test`")
            throw CocoaError(.fileNoSuchFile)
        }
        let terminal = try PseudoTerminal(columns: 60, rows: 20)
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8",
                   "HOME": temporary.path, "TERM": "xterm"]
        env.merge(environment) { _, new in new }
        let options = ["--lessons-dir", TestPaths.fixtureLessons.path, "--progress-file", progressFile.path]
        try terminal.start(binary.path, [arguments[0]] + options + arguments.dropFirst(), environment: env,
                           directory: TestPaths.packageRoot.path)
        return terminal
    }

    /// Waits for the pager's first screen, types `keys`, and requires `lessons` to end within five seconds.
    private func quit(_ terminal: PseudoTerminal, expecting text: String, keys: String = "q",
                      file: StaticString = #filePath, line: UInt = #line) -> Int32? {
        XCTAssertTrue(terminal.read(until: { $0.contains(text) }, timeout: 20),
                      "the first screen never showed \(text.debugDescription); screen:\n\(terminal.screen)",
                      file: file, line: line)
        terminal.type(keys)
        let status = terminal.waitForExit(timeout: 5)
        XCTAssertNotNil(status, "lessons did not end after \(keys.debugDescription); screen:\n\(terminal.screen)",
                        file: file, line: line)
        return status
    }

    func testShowInThePagerQuitsOnQ() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/less") else { throw XCTSkip("less is not installed") }
        let terminal = try startLessons(["show", "1"])
        XCTAssertEqual(quit(terminal, expecting: "Every construct"), 0)
        XCTAssertFalse(terminal.screen.contains("Example: swift run lessons run 1"),
                       "the lesson is longer than the screen, so its end was never shown")
    }

    func testControlCInThePagerDoesNotEndLessonsBeforeThePager() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/less") else { throw XCTSkip("less is not installed") }
        let terminal = try startLessons(["show", "1"])
        // Interrupt less only once it waits at its prompt, not while it is still painting the first screen.
        XCTAssertTrue(terminal.read(until: { $0.contains("Every construct") && $0.hasSuffix(":\u{1B}[K") },
                                    timeout: 20), terminal.screen)
        terminal.type("\u{03}")
        XCTAssertNil(terminal.waitForExit(timeout: 0.5), "Ctrl-C in the pager belongs to the pager")
        // What less does with the interrupt is less's business: it normally beeps and redraws, but on a very busy
        // machine it has been seen to swallow the next key. What matters here is that lessons ends only after
        // the pager, with the pager's status, so q is typed until less takes it.
        var status: Int32?
        for _ in 0..<3 where status == nil {
            terminal.type("q")
            status = terminal.waitForExit(timeout: 5)
        }
        XCTAssertEqual(status, 0, terminal.screen)
    }

    func testSolutionInThePagerQuitsOnQ() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/less") else { throw XCTSkip("less is not installed") }
        var store = ProgressStore(file: progressFile)
        try store.update { $0.lessons["every-construct"] = LessonProgress(passed: true) }
        let terminal = try startLessons(["solution", "1"])
        XCTAssertEqual(quit(terminal, expecting: "HTMLEscaping"), 0)
    }

    func testAPagerCommandFromTheEnvironmentGetsTheTerminalToo() throws {
        // `more` would work as well; a shell reading one key from the terminal shows the same thing portably.
        let script = "cat >/dev/null; printf 'press a key: '; read -r answer </dev/tty; echo \"got $answer\""
        let terminal = try startLessons(["show", "1"], environment: ["PAGER": script])
        XCTAssertEqual(quit(terminal, expecting: "press a key", keys: "x\n"), 0)
        XCTAssertTrue(terminal.screen.contains("got x"), terminal.screen)
    }

    func testNoPagerPrintsEverythingAndEnds() throws {
        let terminal = try startLessons(["show", "1", "--no-pager"])
        XCTAssertEqual(terminal.waitForExit(timeout: 10), 0, terminal.screen)
        XCTAssertTrue(terminal.screen.contains("Example: swift run lessons run 1"), terminal.screen)
    }
}
