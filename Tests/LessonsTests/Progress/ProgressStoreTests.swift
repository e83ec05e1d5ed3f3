import XCTest
@testable import LessonsKit

final class ProgressStoreTests: TemporaryFolderTestCase {
    private var file: URL { temporary.appendingPathComponent(".lessons-progress.json") }

    func testMissingFileIsAFreshStart() {
        let store = ProgressStore(file: file)
        XCTAssertEqual(store.progress, LearnerProgress())
        XCTAssertNil(store.warning)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "loading writes nothing")
    }

    func testRoundTripIsPlainSortedJSON() throws {
        var store = ProgressStore(file: file)
        try store.update { $0.lessons["saving-safely"] = LessonProgress(read: true, hintsRevealed: ["test01": 2],
                                                                         katas: ["test01": .passed], passed: false) }
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), """
            {
              "format" : 1,
              "lessons" : {
                "saving-safely" : {
                  "hintsRevealed" : {
                    "test01" : 2
                  },
                  "katas" : {
                    "test01" : "passed"
                  },
                  "passed" : false,
                  "read" : true
                }
              }
            }

            """)
        XCTAssertEqual(ProgressStore(file: file).progress, store.progress)
    }

    func testAFileFromBeforePerKataHintsStillLoads() throws {
        try Data(#"{"lessons": {"stack": {"hintsRevealed": 3, "passed": true}}}"#.utf8).write(to: file)
        let store = ProgressStore(file: file)
        XCTAssertNil(store.warning)
        XCTAssertEqual(store.progress.lessons["stack"], LessonProgress(hintsRevealed: [:], passed: true))
    }

    func testAnUnknownKataStateIsDroppedAndTheRestLoads() throws {
        let json = #"{"lessons": {"stack": {"katas": {"test01": "passed", "test02": "not run", "test03": "exploded"}}}}"#
        try Data(json.utf8).write(to: file)
        let store = ProgressStore(file: file)
        XCTAssertNil(store.warning)
        XCTAssertEqual(store.progress.lessons["stack"]?.katas, ["test01": .passed, "test02": .notRun])
    }

    func testALessonOncePassedStaysDone() {
        var lesson = LessonProgress()
        lesson.record(states: ["a": .passed, "b": .failed], wholeSuite: true, at: "t1")
        XCTAssertFalse(lesson.passed, "a failing kata")
        lesson.record(states: ["b": .passed], wholeSuite: false, at: "t2")
        XCTAssertFalse(lesson.passed, "one kata run never finishes a lesson")
        lesson.record(states: ["a": .passed, "b": .passed], wholeSuite: true, at: "t3")
        XCTAssertTrue(lesson.passed)
        lesson.record(states: ["a": .failed, "b": .passed], wholeSuite: true, at: "t4")
        XCTAssertTrue(lesson.passed, "done stays done after a later failing run")
        XCTAssertEqual(lesson.katas, ["a": .failed, "b": .passed])
        XCTAssertEqual(lesson.lastChecked, "t4")
    }

    func testHintsGoToTheFirstKataThatDidNotPass() {
        let suite = KataSuite(name: "K", file: "K.swift", katas: ["test01_a", "test02_b", "test03_c"])
        XCTAssertEqual(KataHints.kataNeedingHelp(in: suite, progress: LessonProgress()), "test01_a", "nothing checked yet")
        let checked = LessonProgress(hintsRevealed: ["test02_b": 5],
                                     katas: ["test01_a": .passed, "test02_b": .failed, "test03_c": .failed])
        XCTAssertEqual(KataHints.kataNeedingHelp(in: suite, progress: checked), "test02_b")
        XCTAssertNil(KataHints.kataNeedingHelp(in: suite, progress: LessonProgress(katas: [
            "test01_a": .passed, "test02_b": .passed, "test03_c": .passed])))
        let lesson = Lesson(
            number: 1, slug: "k", title: LocalizedText([.en: "K"]), summary: LocalizedText([.en: "S"]), languages: [.en],
            sources: [], katas: Lesson.Katas(suite: "K", file: "K.swift",
                                             hints: ["test02_b": [LocalizedText([.en: "one"]), LocalizedText([.en: "two"])]]),
            starter: [], solution: [], example: Lesson.Example(product: "p", path: "P"), decoys: nil)
        let hints = KataHints(lesson: lesson, suite: suite, kata: "test02_b", progress: checked)
        XCTAssertEqual(hints.number, 2)
        XCTAssertEqual(hints.before, 2, "never more than the kata has")
        XCTAssertEqual(hints.shown, 2)
        XCTAssertTrue(hints.exhausted)
        let first = KataHints(lesson: lesson, suite: suite, kata: "test02_b", progress: LessonProgress())
        XCTAssertEqual([first.before, first.shown], [0, 1])
        XCTAssertFalse(first.exhausted)
    }

    func testHandEditedFileWithMissingKeysLoads() throws {
        try Data(#"{"lessons": {"stack": {"passed": true}}}"#.utf8).write(to: file)
        let store = ProgressStore(file: file)
        XCTAssertNil(store.warning)
        XCTAssertEqual(store.progress.lessons["stack"], LessonProgress(passed: true))
    }

    func testCorruptFileIsKeptAsideAndRebuilt() throws {
        try Data("{ not json".utf8).write(to: file)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        var store = ProgressStore(file: file, now: now)
        XCTAssertEqual(store.progress, LearnerProgress())
        let aside = ".lessons-progress.json.corrupt-2023-11-14T221320Z"
        XCTAssertEqual(store.warning, "the progress file .lessons-progress.json could not be read (not valid progress "
            + "JSON); it was kept as \(aside) and a fresh one started")
        XCTAssertEqual(try String(contentsOf: temporary.appendingPathComponent(aside), encoding: .utf8), "{ not json")
        try store.update { $0.lessons["x"] = LessonProgress(read: true) }
        XCTAssertNil(ProgressStore(file: file).warning)
    }

    func testNewerFormatIsNotOverwritten() throws {
        try Data(#"{"format": 2, "lessons": {}}"#.utf8).write(to: file)
        let store = ProgressStore(file: file)
        XCTAssertTrue(store.warning?.contains("format 2 is newer than this version of lessons reads (1)") ?? false)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
    }

    func testOverviewStatusesAndNextStep() throws {
        let catalog = try fixtureCatalog()
        var progress = LearnerProgress()
        var overview = LessonOverview(catalog: catalog, progress: progress)
        XCTAssertEqual(overview.entries.map(\.status), [.new, .new, .coming])
        XCTAssertEqual(overview.nextStep, "Next: read lesson 1, Every construct: swift run lessons show 1")
        progress.lessons["every-construct"] = LessonProgress(read: true)
        overview = LessonOverview(catalog: catalog, progress: progress)
        XCTAssertEqual(overview.nextStep, "Next: make lesson 1's katas pass (Every construct): swift run lessons check 1")
        progress.lessons["every-construct"] = LessonProgress(read: true, katas: ["a": .passed, "b": .failed])
        progress.lessons["two-languages"] = LessonProgress(passed: true)
        overview = LessonOverview(catalog: catalog, progress: progress)
        XCTAssertEqual(overview.entries.map(\.status), [.katas(passed: 1, total: 2), .done, .coming])
        progress.lessons["every-construct"]?.passed = true
        overview = LessonOverview(catalog: catalog, progress: progress)
        XCTAssertEqual(overview.nextStep, "Next: lesson 3, Coming soon — its text is not written yet; its katas are not written yet either.")
    }
}
