import XCTest
@testable import LessonsKit

final class ManifestTests: XCTestCase {
    func testTheRealManifestListsFourteenLessonsInOrder() throws {
        let catalog = try Catalog.load(Workspace(packageRoot: TestPaths.packageRoot))
        XCTAssertEqual(catalog.lessons.map(\.number), Array(1...14))
        XCTAssertEqual(catalog.lessons.map(\.slug), [
            "testing", "stack", "modelling", "contexts-and-crud", "saving-safely", "faults-and-fetching",
            "threads-and-queues", "child-contexts", "responding-to-changes", "query-generations", "merge-rules",
            "batch-requests", "searching-and-async-fetching", "persistent-history",
        ])
        for lesson in catalog.lessons {
            let number = lesson.number < 10 ? "0\(lesson.number)" : "\(lesson.number)"
            XCTAssertTrue(lesson.katas.suite.hasPrefix("Kata\(number)"), lesson.katas.suite)
            XCTAssertEqual(lesson.katas.file, "Tests/Katas/\(lesson.katas.suite).swift")
            XCTAssertFalse(lesson.sources.isEmpty, lesson.slug)
            XCTAssertFalse(lesson.summary.text(in: .en).isEmpty, lesson.slug)
            XCTAssertEqual(lesson.starter.count, lesson.solution.count, lesson.slug)
        }
        let merge = try catalog.lesson(named: "11")
        XCTAssertEqual(merge.languages, [.ru, .en])
        XCTAssertEqual(merge.title.text(in: .ru), "Правила слияния")
        XCTAssertEqual(merge.title.text(in: .en), "Merge rules")
        XCTAssertEqual(catalog.lessons.filter { $0.languages != [.en] }.map(\.number), [11])
    }

    func testLessonLookupByNumberSlugAndFolder() throws {
        let catalog = try Catalog.load(Workspace(packageRoot: TestPaths.packageRoot))
        XCTAssertEqual(try catalog.lesson(named: "05").slug, "saving-safely")
        XCTAssertEqual(try catalog.lesson(named: "Saving-Safely").number, 5)
        XCTAssertEqual(try catalog.lesson(named: "05-saving-safely").number, 5)
        XCTAssertThrowsError(try catalog.lesson(named: "99")) { error in
            let message = (error as? LessonsError)?.description ?? ""
            XCTAssertTrue(message.hasPrefix("unknown lesson \"99\". Valid lessons:\n"), message)
            XCTAssertTrue(message.contains("  13  searching-and-async-fetching  Searching and asynchronous fetching"))
        }
    }

    private func decodeError(_ json: String) -> String {
        do {
            _ = try Manifest.decode(Data(json.utf8), file: "lessons/manifest.json")
            return "no error"
        } catch {
            return error.description
        }
    }

    private func manifest(lessons: String) -> String {
        """
        {"format": 1, "title": "T", "documents": [{"id": "000", "title": "D"}], "lessons": [\(lessons)]}
        """
    }

    private func lesson(_ number: Int, slug: String = "a", document: String = "000", languages: String = "[\"en\"]",
                        title: String = "\"T\"", decoys: [String] = [], exempt: String = "",
                        lessonHints: String = "") -> String {
        let cases = decoys.map { "{\"id\": \"\($0)\", \"mistake\": \"M\"}" }.joined(separator: ", ")
        let decoyField = decoys.isEmpty ? "" : ", \"decoys\": {\"path\": \"D\", \"cases\": [\(cases)]}"
        return """
        {"number": \(number), "slug": "\(slug)", "title": \(title), "summary": "S", "languages": \(languages),
         "sources": [{"document": "\(document)", "sections": ["x"]}],
         "katas": {"suite": "K", "file": "K.swift", "hints": {"test01_a": ["h", {"ru": "п"}]}\(exempt)},
         "starter": [], "solution": [], "example": {"product": "p", "path": "P"}\(decoyField)\(lessonHints)}
        """
    }

    func testDecoyIdsAreSlugsUniqueInTheManifest() throws {
        let decoded = try Manifest.decode(Data(manifest(lessons: lesson(1, decoys: ["no-save", "wrong-context"])).utf8),
                                          file: "lessons/manifest.json")
        XCTAssertEqual(decoded.lessons[0].decoys?.cases.map(\.id), ["no-save", "wrong-context"])
        XCTAssertEqual(decoded.lessons[0].decoys?.path, "D")
        XCTAssertNil(try Manifest.decode(Data(manifest(lessons: lesson(1)).utf8), file: "m").lessons[0].decoys)
        XCTAssertEqual(decodeError(manifest(lessons: lesson(1, decoys: ["No Save"]))),
                       "lessons/manifest.json: lesson 1 (a): decoy id \"No Save\" must be lower-case letters, digits and '-'")
        XCTAssertEqual(decodeError(manifest(lessons: lesson(1, decoys: ["x"]) + "," + lesson(2, slug: "b", decoys: ["x"]))),
                       "lessons/manifest.json: lesson 2 (b): decoy id \"x\" is used twice; ids are unique in the manifest")
    }

    func testHintsArePerKataAndExemptionsGiveAReason() throws {
        let decoded = try Manifest.decode(Data(manifest(lessons: lesson(1, exempt: #", "exempt": {"test02_b": "set-up only"}"#)).utf8),
                                          file: "m").lessons[0]
        XCTAssertEqual(decoded.katas.hints(for: "test01_a").map { $0.text(in: .ru) }, ["h", "п"])
        XCTAssertEqual(decoded.katas.hints(for: "test02_b"), [])
        XCTAssertEqual(decoded.katas.exempt, ["test02_b": "set-up only"])
        XCTAssertEqual(decodeError(manifest(lessons: lesson(1, exempt: #", "exempt": {"test02_b": " "}"#))),
                       "lessons/manifest.json: lesson 1 (a): kata test02_b is exempt from decoy coverage without a "
                        + "reason; say why")
        XCTAssertEqual(decodeError(manifest(lessons: lesson(1, lessonHints: #", "hints": ["old"]"#))),
                       #"lessons/manifest.json: lesson 1 (a): "hints" belong to each kata now: move them into "katas": "#
                        + #"{ "hints": { "test01_…": ["first", "second"] } }"#)
    }

    func testBadManifestsSayWhatAndWhere() {
        XCTAssertEqual(decodeError(manifest(lessons: lesson(1))), "no error")
        XCTAssertEqual(decodeError(manifest(lessons: lesson(2))),
                       "lessons/manifest.json: lesson 2 (a) is entry 1: lessons are numbered 1, 2, 3… in the order listed")
        XCTAssertEqual(decodeError(manifest(lessons: lesson(1, document: "009"))),
                       "lessons/manifest.json: lesson 1 (a): unknown source document \"009\"; valid: 000")
        XCTAssertEqual(decodeError(manifest(lessons: lesson(1, slug: "Bad Slug"))),
                       "lessons/manifest.json: lesson 1 (Bad Slug): a slug is lower-case letters, digits and '-'")
        XCTAssertEqual(decodeError(manifest(lessons: lesson(1) + "," + lesson(2))),
                       "lessons/manifest.json: lesson 2 (a): slug used twice")
        XCTAssertEqual(decodeError(manifest(lessons: lesson(1, languages: "[\"ru\", \"en\"]"))),
                       "lessons/manifest.json: lesson 1 (a): no title in ru, which it lists among its languages")
        XCTAssertEqual(decodeError(manifest(lessons: lesson(1, title: "{\"de\": \"x\"}"))),
                       "lessons/manifest.json: lessons[0].title: unknown language \"de\"; valid: en, ru")
        XCTAssertEqual(decodeError("{\"format\": 1, \"title\": \"T\", \"documents\": []}"),
                       "lessons/manifest.json: missing \"lessons\"")
        XCTAssertEqual(decodeError("{\"format\": 2}").prefix(40), "lessons/manifest.json: missing \"title\"")
        XCTAssertTrue(decodeError("{").hasPrefix("lessons/manifest.json: "))
    }

    func testPreferredLanguage() {
        XCTAssertEqual(Language.preferred(environment: [:]), .en)
        XCTAssertEqual(Language.preferred(environment: ["LANG": "ru_RU.UTF-8"]), .ru)
        XCTAssertEqual(Language.preferred(environment: ["LANG": "ru_RU.UTF-8", "LESSONS_LANG": "en"]), .en)
        XCTAssertEqual(Language.preferred(environment: ["LC_ALL": "C", "LANG": "ru_RU"]), .en)
    }
}
