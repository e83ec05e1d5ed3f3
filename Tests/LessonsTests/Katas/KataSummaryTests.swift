import XCTest
@testable import LessonsKit

final class KataSummaryTests: TemporaryFolderTestCase {
    private let source = """
        final class Kata05SavingSafely: XCTestCase {
            func test01_passes() {}
            // func test00_commentedOut() {}
            func test02_assertFails() throws {}
            func helper() {}
            func test03_throws() async throws {}
            func test04_twoFailures() {}
            func test05_skipped() {}
            func test06_neverRan() {}
        }
        """

    private func summary(_ fixture: String, only: String? = nil) throws -> KataSummary {
        let catalog = try fixtureCatalog()
        let suite = KataSuite(name: "Kata05SavingSafely", file: "Tests/Katas/Kata05SavingSafely.swift",
                              katas: KataSuite.testNames(in: source))
        return KataSummary(lesson: catalog.lessons[0], suite: suite,
                           report: XCTestOutputParser.parse(try TestPaths.fixture(fixture)), onlyKata: only)
    }

    func testTestNamesInFileOrder() {
        XCTAssertEqual(KataSuite.testNames(in: source), ["test01_passes", "test02_assertFails", "test03_throws",
                                                         "test04_twoFailures", "test05_skipped", "test06_neverRan"])
    }

    func testSummaryGolden() throws {
        let workspace = Workspace(packageRoot: URL(fileURLWithPath: "/home/learner/workbook"))
        let text = try summary("xctest/kata05-failures.txt").render(colors: false, workspace: workspace, title: "Saving safely")
        assertMatchesGolden(text, "kata-summary.txt")
        let crash = try summary("xctest/kata06-crash.txt").render(colors: false, workspace: workspace, title: "Saving safely")
        XCTAssertTrue(crash.contains("  · not run  1  test01_passes\n"), crash)
        let build = try summary("xctest/build-error.txt").render(colors: false, workspace: workspace, title: "Saving safely")
        XCTAssertEqual(build, "Lesson 1 · Saving safely — Kata05SavingSafely\nThe package did not build, so no kata ran:\n"
            + "  Sources/Demo/Demo.swift:4:31: error: cannot convert return expression of type 'String' to return type 'Int'\n")
    }

    func testStatesAndCompletion() throws {
        let all = try summary("xctest/kata05-failures.txt")
        XCTAssertEqual(all.passedCount, 1)
        XCTAssertFalse(all.lessonPassed)
        XCTAssertEqual(all.states["test04_twoFailures"], .failed)
        XCTAssertEqual(all.states["test05_skipped"], .skipped)
        XCTAssertEqual(all.states["test06_neverRan"], .notRun)
        let one = try summary("xctest/kata05-one-passing.txt", only: "test01_passes")
        XCTAssertEqual(one.katas, ["test01_passes"])
        XCTAssertEqual(one.passedCount, 1)
        XCTAssertFalse(one.lessonPassed, "one kata passing never completes a lesson")
    }

    func testKataLookupListsValidKatas() throws {
        let suite = KataSuite(name: "Kata05SavingSafely", file: "F", katas: KataSuite.testNames(in: source))
        XCTAssertEqual(try suite.kata(named: "2"), "test02_assertFails")
        XCTAssertEqual(try suite.kata(named: "03"), "test03_throws")
        XCTAssertEqual(try suite.kata(named: "test04"), "test04_twoFailures")
        XCTAssertThrowsError(try suite.kata(named: "test0")) { error in
            XCTAssertEqual((error as? LessonsError)?.description, """
                unknown kata "test0" in Kata05SavingSafely. Valid katas:
                  1  test01_passes
                  2  test02_assertFails
                  3  test03_throws
                  4  test04_twoFailures
                  5  test05_skipped
                  6  test06_neverRan
                """)
        }
    }

    func testRunnerStreamsParsesAndKeepsTheLog() throws {
        let fixture = TestPaths.fixtures.appendingPathComponent("xctest/kata05-failures.txt").path
        // `sh -c SCRIPT FILE --filter X`: the script prints the captured output and fails like swift test.
        let runner = KataRunner(workspace: Workspace(packageRoot: temporary),
                                command: ["sh", "-c", "cat \"$0\"; test \"$1 $2\" = \"--filter ^Katas\\\\.Kata05SavingSafely/\"; exit 1", fixture])
        var updates = 0
        let suite = KataSuite(name: "Kata05SavingSafely", file: "F", katas: [])
        let run = try runner.run(suite, kata: nil) { _ in updates += 1 }
        XCTAssertEqual(run.exitStatus, 1)
        XCTAssertEqual(run.report.results.count, 5)
        XCTAssertGreaterThan(updates, 40)
        XCTAssertEqual(try String(contentsOf: run.log!, encoding: .utf8), try TestPaths.fixture("xctest/kata05-failures.txt"))
        XCTAssertEqual(KataRunner.filter(suite: "Kata05SavingSafely", kata: "test01_passes"),
                       "^Katas\\.Kata05SavingSafely/test01_passes$")
        XCTAssertEqual(KataRunner.filter(suite: "Kata05SavingSafely", kata: nil), "^Katas\\.Kata05SavingSafely/")
    }

    func testABuiltSuiteRunsStraightFromTheBuildFolder() throws {
        // A stand-in for the package's test executable in the build folder: it prints what it was given.
        let folder = temporary.appendingPathComponent(".build/debug")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let executable = folder.appendingPathComponent("WorkbookPackageTests.xctest")
        try "#!/bin/sh\necho \"args=$* decoy=$LESSONS_DECOY\"\n".write(to: executable, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
        let runner = KataRunner(workspace: Workspace(packageRoot: temporary), subject: .decoys)
        XCTAssertEqual(runner.testExecutable()?.path, executable.path)
        let run = try runner.runBuilt(suites: ["Kata05SavingSafely"], environment: ["LESSONS_DECOY": "forgets-rollback"],
                                      logName: "built.log")
        XCTAssertEqual(try String(contentsOf: run.log!, encoding: .utf8),
                       "args=KatasDecoys.Kata05SavingSafely decoy=forgets-rollback\n")
        // Several suites of one subject go to one process, each named with the subject's module.
        let solutions = try KataRunner(workspace: Workspace(packageRoot: temporary), subject: .solutions)
            .runBuilt(suites: ["Kata01Testing", "Kata02Stack"], logName: "several.log")
        XCTAssertEqual(try String(contentsOf: solutions.log!, encoding: .utf8),
                       "args=KatasSolutions.Kata01Testing,KatasSolutions.Kata02Stack decoy=\n")

        // Without such an executable (a macOS bundle is a folder), and with another command, SwiftPM runs it,
        // with the environment that puts the subject's katas in the package.
        let elsewhere = temporary.appendingPathComponent("elsewhere")
        XCTAssertNil(KataRunner(workspace: Workspace(packageRoot: elsewhere), subject: .solutions).testExecutable())
        let script = "echo \"LESSONS_KATA_SUBJECTS=$LESSONS_KATA_SUBJECTS $*\""
        let substitute = KataRunner(workspace: Workspace(packageRoot: temporary), command: ["sh", "-c", script, "sh"],
                                    subject: .decoys)
        let fallback = try substitute.runBuilt(suites: ["Kata05SavingSafely", "Kata06Faults"], logName: "fallback.log")
        XCTAssertEqual(try String(contentsOf: fallback.log!, encoding: .utf8),
                       "LESSONS_KATA_SUBJECTS=all --skip-build --filter ^KatasDecoys\\.(Kata05SavingSafely|Kata06Faults)/\n")
    }

    func testRunnerPassesTheLearnersLanguageToTheKatas() throws {
        // The script prints the language it was given and fails unless it is Russian.
        let script = "echo \"LESSONS_LANG=$LESSONS_LANG\"; test \"$LESSONS_LANG\" = ru"
        let suite = KataSuite(name: "Kata11MergeRules", file: "F", katas: [])
        let russian = try KataRunner(workspace: Workspace(packageRoot: temporary), command: ["sh", "-c", script],
                                     language: .ru).run(suite, kata: nil)
        XCTAssertEqual(russian.exitStatus, 0)
        XCTAssertEqual(try String(contentsOf: russian.log!, encoding: .utf8), "LESSONS_LANG=ru\n")
        let english = try KataRunner(workspace: Workspace(packageRoot: temporary), command: ["sh", "-c", script],
                                     language: .en).run(suite, kata: nil)
        XCTAssertEqual(english.exitStatus, 1)
        XCTAssertEqual(try String(contentsOf: english.log!, encoding: .utf8), "LESSONS_LANG=en\n")
        // A variable the caller sets itself is left alone.
        let explicit = try KataRunner(workspace: Workspace(packageRoot: temporary), command: ["sh", "-c", script],
                                      language: .en).run(filter: "X/", environment: ["LESSONS_LANG": "ru"])
        XCTAssertEqual(explicit.exitStatus, 0)
    }

    func testMissingKataFileIsNotThereYet() throws {
        let catalog = try fixtureCatalog()
        XCTAssertThrowsError(try KataSuite.load(catalog.lessons[1], workspace: catalog.workspace)) { error in
            XCTAssertEqual((error as? LessonsError)?.description, "lesson 2's katas are not written yet: "
                + "Tests/Katas/Kata02TwoLanguages.swift (suite Kata02TwoLanguages) does not exist")
        }
        XCTAssertEqual(try KataSuite.load(catalog.lessons[0], workspace: catalog.workspace).katas.first,
                       "testFailuresThrowsSkipsAndMultiLineMessages")
    }
}
