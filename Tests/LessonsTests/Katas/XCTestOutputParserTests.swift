import XCTest
@testable import LessonsKit

/// Parses output captured from real `swift test` runs (Fixtures/xctest), on Linux.
final class XCTestOutputParserTests: XCTestCase {
    func testFailuresThrowsSkipsAndMultiLineMessages() throws {
        let report = XCTestOutputParser.parse(try TestPaths.fixture("xctest/kata05-failures.txt"))
        XCTAssertEqual(report.results.map(\.name), ["test01_passes", "test02_assertFails", "test03_throws",
                                                    "test04_twoFailures", "test05_skipped"])
        XCTAssertEqual(report.outcome(of: "test01_passes"), .passed)
        XCTAssertEqual(report.outcome(of: "test02_assertFails"), .failed([KataRunReport.Failure(
            file: "/home/learner/workbook/Tests/Katas/Kata05SavingSafely.swift", line: 6,
            message: "XCTAssertEqual failed: (\"41\") is not equal to (\"42\") - Lesson 5 · kata 2 — after a failed "
                + "save the context must be clean again: hasChanges is still true.\nWork in "
                + "Sources/Workbook/05-saving-safely/ItemStore.swift, saveOrRollback().")]))
        XCTAssertEqual(report.outcome(of: "test03_throws"), .failed([KataRunReport.Failure(
            file: nil, line: nil, message: "threw error \"the store was not loaded\"")]))
        guard case .failed(let two) = report.outcome(of: "test04_twoFailures") else { return XCTFail() }
        XCTAssertEqual(two.map(\.message), ["failed - first problem", "XCTAssertTrue failed - second problem"])
        XCTAssertEqual(report.outcome(of: "test05_skipped"), .skipped("needs the solution trait"))
        XCTAssertEqual(report.outcome(of: "test99_absent"), .notRun)
        XCTAssertTrue(report.buildErrors.isEmpty)
        XCTAssertNil(report.crashMessage)
    }

    func testCrashIsPinnedOnTheKataThatWasRunning() throws {
        let report = XCTestOutputParser.parse(try TestPaths.fixture("xctest/kata06-crash.txt"))
        XCTAssertEqual(report.outcome(of: "test01_ok"), .passed)
        XCTAssertEqual(report.outcome(of: "test02_crash"), .crashed("Fatal error: Index out of range"))
        XCTAssertEqual(report.outcome(of: "test03_never"), .notRun)
        XCTAssertTrue(report.buildErrors.isEmpty)
    }

    func testBuildErrorsAreCollectedWhenNothingRan() throws {
        let report = XCTestOutputParser.parse(try TestPaths.fixture("xctest/build-error.txt"))
        XCTAssertTrue(report.buildFailed)
        XCTAssertEqual(report.buildErrors, [
            "/home/learner/workbook/Sources/Demo/Demo.swift:4:31: error: cannot convert return expression of type "
                + "'String' to return type 'Int'",
        ])
    }

    func testStreamingReportsBuildStepsAndFinishedKatas() throws {
        var parser = XCTestOutputParser()
        var steps: [Int] = [], finished: [Int] = []
        for line in try TestPaths.fixture("xctest/kata05-one-passing.txt").split(separator: "\n") {
            parser.consume(String(line))
            if let step = parser.buildProgress { steps.append(step.done) }
            finished.append(parser.finishedCount)
        }
        XCTAssertEqual(Set(steps), [0, 1, 3, 4, 5, 6, 7])
        XCTAssertEqual(finished.last, 1)
        XCTAssertEqual(parser.finish().results.map(\.outcome), [.passed])
    }

    func testMacOSFormat() {
        let output = """
            Test Case '-[Katas.Kata05SavingSafely test01_a]' started.
            Test Case '-[Katas.Kata05SavingSafely test01_a]' passed (0.001 seconds).
            Test Case '-[Katas.Kata05SavingSafely test02_b]' started.
            /Users/me/w/Tests/Katas/Kata05SavingSafely.swift:9: error: -[Katas.Kata05SavingSafely test02_b] : XCTAssertTrue failed - no
            Test Case '-[Katas.Kata05SavingSafely test02_b]' failed (0.002 seconds).
            """
        let report = XCTestOutputParser.parse(output)
        XCTAssertEqual(report.results.map(\.suite), ["Kata05SavingSafely", "Kata05SavingSafely"])
        XCTAssertEqual(report.outcome(of: "test01_a"), .passed)
        XCTAssertEqual(report.outcome(of: "test02_b"), .failed([KataRunReport.Failure(
            file: "/Users/me/w/Tests/Katas/Kata05SavingSafely.swift", line: 9, message: "XCTAssertTrue failed - no")]))
    }
}
