import XCTest
@testable import LessonsKit

/// The rules `lessons verify` applies to kata runs, fed with captured XCTest output instead of real runs.
final class KataVerifierTests: XCTestCase {
    private let lesson = Lesson(
        number: 1, slug: "testing", title: LocalizedText([.en: "Testing"]), summary: LocalizedText([.en: "S"]),
        languages: [.en], sources: [], katas: Lesson.Katas(suite: "Kata01Testing", file: "Tests/Katas/Kata01Testing.swift"),
        starter: ["Sources/Workbook/01-testing"], solution: ["Sources/Solutions/01-testing"],
        example: Lesson.Example(product: "example01-testing", path: "Sources/Examples/01-testing"),
        decoys: Lesson.Decoys(path: "Sources/Decoys/01-testing", cases: [.init(id: "no-save", mistake: "never saves")]))

    private var entry: KataVerifier.Entry {
        KataVerifier.Entry(lesson: lesson, suite: KataSuite(name: "Kata01Testing", file: lesson.katas.file,
                                                            katas: ["test01_a", "test02_b", "test03_c", "test04_d"]))
    }

    /// Output of a run: kata 1 fails in the house style, 2 passes, 3 fails with a bare assertion, 4 crashes.
    private let mixed = """
        Test Case 'Kata01Testing.test01_a' started at 2025-01-01 10:00:00.000
        /w/Tests/Katas/Kata01Testing.swift:10: error: Kata01Testing.test01_a : failed - Lesson 1 · kata 1 — a() is not written yet.
        Work in Sources/Workbook/01-testing/A.swift, a(). Stuck? swift run lessons hint 1
        Test Case 'Kata01Testing.test01_a' failed (0.001 seconds)
        Test Case 'Kata01Testing.test02_b' started at 2025-01-01 10:00:00.001
        Test Case 'Kata01Testing.test02_b' passed (0.001 seconds)
        Test Case 'Kata01Testing.test03_c' started at 2025-01-01 10:00:00.002
        /w/Tests/Katas/Kata01Testing.swift:30: error: Kata01Testing.test03_c : XCTAssertTrue failed -
        Test Case 'Kata01Testing.test03_c' failed (0.001 seconds)
        Test Case 'Kata01Testing.test04_d' started at 2025-01-01 10:00:00.003
        Fatal error: Unexpectedly found nil while unwrapping an Optional value
        """

    func testStartersMustFailEveryKataNamingLessonAndFile() {
        let check = KataVerifier.judgeStarters(entry, report: XCTestOutputParser.parse(mixed))
        XCTAssertEqual(check.katas, 4)
        XCTAssertEqual(check.good, 1)
        XCTAssertEqual(check.problems, [
            "test02_b passes against the untouched starter",
            "test03_c fails without naming the lesson and the file to change: XCTAssertTrue failed -",
            "test04_d crashed: Fatal error: Unexpectedly found nil while unwrapping an Optional value",
        ])
    }

    func testSolutionsMustPassEveryKata() {
        let check = KataVerifier.judgeSolutions(entry, report: XCTestOutputParser.parse(mixed))
        XCTAssertEqual(check.good, 1)
        XCTAssertEqual(check.problems.first, "test01_a fails: Lesson 1 · kata 1 — a() is not written yet.")
        XCTAssertEqual(check.problems.last, "test04_d crashed: Fatal error: Unexpectedly found nil while unwrapping an Optional value")
    }

    func testADecoyIsCaughtByAFailureButNotByACrash() {
        let decoy = lesson.decoys!.cases[0]
        let crashed = KataVerifier.judgeDecoy(decoy, of: entry, report: XCTestOutputParser.parse(mixed))
        XCTAssertEqual(crashed.problem, "test04_d crashed (Fatal error: Unexpectedly found nil while unwrapping an "
            + "Optional value); a wrong answer must fail a kata, not end the run")
        let clean = mixed.components(separatedBy: "\n").prefix(9).joined(separator: "\n")
        let caught = KataVerifier.judgeDecoy(decoy, of: entry, report: XCTestOutputParser.parse(clean))
        XCTAssertNil(caught.problem)
        XCTAssertEqual(caught.caughtBy, [1, 3])
        let passing = """
            Test Case 'Kata01Testing.test01_a' started at 2025-01-01 10:00:00.000
            Test Case 'Kata01Testing.test01_a' passed (0.001 seconds)
            """
        XCTAssertEqual(KataVerifier.judgeDecoy(decoy, of: entry, report: XCTestOutputParser.parse(passing)).problem,
                       "not caught: every kata accepts this wrong answer")
        XCTAssertEqual(KataVerifier.judgeDecoy(decoy, of: entry, report: KataRunReport()).problem, "no kata ran")
    }

    func testEveryKataMustBeFailedByADecoyUnlessExempt() {
        let decoys: [KataVerification.DecoyCheck] = [
            .init(lesson: 1, id: "a", mistake: "m", caughtBy: [1, 3], problem: nil),
            .init(lesson: 1, id: "b", mistake: "m", caughtBy: [2], problem: "test04_d crashed"),
            .init(lesson: 2, id: "c", mistake: "m", caughtBy: [4], problem: nil),
        ]
        let coverage = KataVerifier.judgeCoverage(entry, decoys: decoys)
        XCTAssertEqual(coverage.caught, [1, 3], "only clean catches of the lesson's own decoys count")
        XCTAssertEqual(coverage.uncovered, ["test02_b", "test04_d"])
        var verification = KataVerification()
        verification.coverage = [coverage]
        XCTAssertFalse(verification.ok)
        XCTAssertTrue(verification.summary.contains("katas caught by a decoy: 2/4 ·"), verification.summary)

        var exempting = entry
        exempting.lesson.katas.exempt = ["test02_b": "only checks set-up", "test04_d": "same", "test01_a": "caught anyway"]
        verification.coverage = [KataVerifier.judgeCoverage(exempting, decoys: decoys)]
        XCTAssertEqual(verification.coverage[0].uncovered, [])
        XCTAssertEqual(verification.coverage[0].exemptUncaught, ["test02_b", "test04_d"])
        XCTAssertTrue(verification.ok)
        XCTAssertTrue(verification.summary.contains("katas caught by a decoy: 2/4 (2 exempt) ·"), verification.summary)
        XCTAssertTrue(verification.render(colors: false).contains("(test02_b is exempt: only checks set-up)"))
    }

    func testRunsNeverTimedStartFirstThenTheLongestLastTime() {
        // Estimates rank the runs with no recorded time; a recorded time puts a run after all of those.
        let estimates = [1000, 1000, 516, 114, 114, 101]
        XCTAssertEqual(KataVerifier.startOrder(estimates, previous: Array(repeating: nil, count: 6)), [0, 1, 2, 3, 4, 5],
                       "with nothing recorded, by estimate, ties in their own order")
        XCTAssertEqual(KataVerifier.startOrder(estimates, previous: [7, 17, 39, 0.3, 33, 0.2]), [2, 4, 1, 0, 3, 5],
                       "all recorded: the longest first")
        XCTAssertEqual(KataVerifier.startOrder(estimates, previous: [7, 17, 39, nil, 33, 0.2]), [3, 2, 4, 1, 0, 5],
                       "a run never timed (a new decoy) before every timed one")
    }

    func testReportGolden() {
        var verification = KataVerification()
        verification.starters = [
            .init(lesson: 1, suite: "Kata01Testing", katas: 10, good: 10, problems: []),
            .init(lesson: 2, suite: "Kata02Stack", katas: 8, good: 7, problems: ["test03_c passes against the untouched starter"]),
        ]
        verification.solutions = [
            .init(lesson: 1, suite: "Kata01Testing", katas: 10, good: 10, problems: []),
            .init(lesson: 2, suite: "Kata02Stack", katas: 8, good: 7, problems: ["test05_e fails: XCTAssertTrue failed"]),
        ]
        verification.decoys = [
            .init(lesson: 1, id: "create-without-save", mistake: "never saves", caughtBy: [1], problem: nil),
            .init(lesson: 1, id: "unsorted-list", mistake: "no sort descriptor", caughtBy: [5, 9], problem: nil),
            .init(lesson: 2, id: "never-retries", mistake: "loads once", caughtBy: [],
                  problem: "not caught: every kata accepts this wrong answer"),
        ]
        verification.coverage = [
            .init(lesson: 1, katas: (1...10).map { "test\($0)" }, caught: [1, 5, 9], exempt: ["test2": "set-up only"]),
        ]
        verification.examples = [
            .init(lesson: 1, product: "example01-testing", problem: nil),
            .init(lesson: 2, product: "example02-stack", problem: "exit status 1: Fatal error"),
        ]
        XCTAssertFalse(verification.ok)
        assertMatchesGolden(verification.render(colors: false) + verification.summary + "\n", "verify-katas.txt")
        XCTAssertTrue(verification.render(colors: true).contains("\u{1B}["), "colours when asked for")
    }

    /// One build serves every subject, so a compile error stops them all: each error is listed under the subject
    /// whose code it is in, the other subjects say they did not run.
    func testABuildFailureListsItsErrorsUnderTheirSubject() {
        var verification = KataVerification()
        verification.buildErrors[.decoys] = ["Sources/Decoys/02-stack/StorageProvider.swift:3:1: error: expected declaration"]
        let report = verification.render(colors: false)
        XCTAssertFalse(verification.ok)
        XCTAssertEqual(report.components(separatedBy: "not run: the build failed").count - 1, 2, report)
        XCTAssertTrue(report.contains("""
            Decoys (Sources/Decoys, one run each):
              ✗ did not build (see .build/lessons/verify-build.log):
                  Sources/Decoys/02-stack/StorageProvider.swift:3:1: error: expected declaration
            """), report)
    }
}
