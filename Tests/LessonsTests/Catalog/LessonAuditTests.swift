import XCTest
@testable import LessonsKit

/// The file checks of `lessons verify`, on a small workbook written into a temporary folder.
final class LessonAuditTests: TemporaryFolderTestCase {
    /// A one-lesson workbook; `files` are written on top of a complete lesson, `nil` contents remove one.
    private func workbook(hints: Int = 2, decoys: String = #"["a", "b"]"#, extraKatas: String = "",
                          standIns: String = "", files: [String: String?] = [:]) throws -> Catalog {
        let hintList = (0..<hints).map { "\"Hint \($0 + 1).\"" }.joined(separator: ", ")
        let decoyCases = try JSONSerialization.jsonObject(with: Data(decoys.utf8)) as? [String] ?? []
        let cases = decoyCases.map { "{\"id\": \"\($0)\", \"mistake\": \"M\"}" }.joined(separator: ", ")
        var tree: [String: String?] = [
            "lessons/manifest.json": """
                {"format": 1, "title": "T", "documents": [{"id": "000", "title": "D"}], "lessons": [
                 {"number": 1, "slug": "one", "title": "One", "summary": "S", "languages": ["en"],
                  "sources": [{"document": "000", "sections": ["x"]}],
                  "katas": {"suite": "Kata01One", "file": "Tests/Katas/Kata01One.swift",
                            "hints": {"test01_a": [\(hintList)]\(extraKatas)}},
                  "starter": ["Sources/Workbook/01-one"], "solution": ["Sources/Solutions/01-one"],
                  "example": {"product": "example01-one", "path": "Sources/Examples/01-one"},
                  "decoys": {"path": "Sources/Decoys/01-one", "cases": [\(cases)]}\(standIns)}]}
                """,
            "lessons/01-one/lesson.en.md": "# One\n\nText.\n",
            "Package.swift": "let lessons = [.init(id: \"01-one\")]\n",
            "Sources/Examples/01-one/main.swift": "print(1)\n",
            "Tests/Katas/Kata01One.swift": "final class Kata01One: KataCase {\n    func test01_a() {}\n}\n",
            "Sources/Workbook/01-one/A.swift": "", "Sources/Workbook/01-one/Sub/B.swift": "",
            "Sources/Solutions/01-one/A.swift": "", "Sources/Solutions/01-one/Sub/B.swift": "",
            "Sources/Decoys/01-one/A.swift": "if Decoy.isActive(\"a\") {}\n",
            "Sources/Decoys/01-one/Sub/B.swift": "if Decoy.isActive(\"b\") {}\n",
        ]
        tree.merge(files) { _, new in new }
        for (path, contents) in tree {
            if let contents { _ = try write(contents, to: "book/" + path) }
        }
        return try Catalog.load(Workspace(packageRoot: temporary.appendingPathComponent("book")))
    }

    private func audit(_ catalog: Catalog) -> LessonAudit {
        LessonAudit(catalog.lessons[0], catalog: catalog)
    }

    func testEveryRealLessonIsPlannedOrReady() throws {
        let catalog = try Catalog.load(Workspace(packageRoot: TestPaths.packageRoot))
        let audits = CatalogVerifier(catalog: catalog).audits()
        for audit in audits where audit.state == .incomplete {
            XCTFail("lesson \(audit.lesson.number) is incomplete:\n" + audit.problems.joined(separator: "\n"))
        }
        XCTAssertEqual(audits.prefix(2).map(\.state), [.ready, .ready], "lessons 1 and 2 are written")
    }

    func testACompleteLessonIsReady() throws {
        let audit = audit(try workbook())
        XCTAssertEqual(audit.problems, [])
        XCTAssertEqual(audit.state, .ready)
        XCTAssertEqual(audit.katas, ["test01_a"])
        XCTAssertTrue(audit.katasRunnable)
        XCTAssertEqual(CatalogVerifier.parts(of: audit), "text en · example · 1 katas · 2 hints · 2 decoys")
    }

    func testALessonWithNothingWrittenIsPlanned() throws {
        var removed: [String: String?] = [:]
        for path in ["lessons/01-one/lesson.en.md", "Sources/Examples/01-one/main.swift", "Tests/Katas/Kata01One.swift",
                     "Sources/Workbook/01-one/A.swift", "Sources/Workbook/01-one/Sub/B.swift",
                     "Sources/Solutions/01-one/A.swift", "Sources/Solutions/01-one/Sub/B.swift",
                     "Sources/Decoys/01-one/A.swift", "Sources/Decoys/01-one/Sub/B.swift"] {
            removed[path] = .some(nil)
        }
        let audit = audit(try workbook(files: removed))
        XCTAssertEqual(audit.state, .planned)
        XCTAssertEqual(audit.problems, [])
    }

    func testMirrorsDecoysHintsAndExampleAreChecked() throws {
        let catalog = try workbook(hints: 1, decoys: #"["a", "c"]"#, files: [
            "Sources/Solutions/01-one/Sub/B.swift": nil,
            "Sources/Solutions/01-one/C.swift": .some(""),
            "Package.swift": .some("// no examples\n"),
        ])
        XCTAssertEqual(audit(catalog).problems, [
            "Package.swift's list of lessons does not name \"01-one\", so there is no executable \"example01-one\" "
                + "for Sources/Examples/01-one",
            "Sources/Solutions/01-one does not mirror Sources/Workbook/01-one: missing Sub/B.swift; extra C.swift",
            "decoy \"c\" is listed but Sources/Decoys/01-one never calls Decoy.isActive(\"c\")",
            "Sources/Decoys/01-one uses decoy \"b\", which the manifest does not list (so it never runs)",
            "kata test01_a has 1 hint; each kata needs at least 2 (katas.hints in the manifest)",
        ])
        XCTAssertEqual(audit(catalog).state, .incomplete)
    }

    func testKatasTextAndDecoysMustExist() throws {
        let catalog = try workbook(decoys: "[]", files: [
            "Tests/Katas/Kata01One.swift": .some("final class Other: KataCase {}\n"),
            "lessons/01-one/lesson.en.md": .some("# One\n\n```swift include=Sources/Nowhere.swift\n```\n"),
        ])
        XCTAssertEqual(audit(catalog).problems, [
            "lessons/01-one/lesson.en.md:3: included file Sources/Nowhere.swift does not exist or is not UTF-8 text",
            "Tests/Katas/Kata01One.swift declares no class Kata01One, the suite the manifest names",
            "Tests/Katas/Kata01One.swift has no kata (no `func test…()`)",
            "no decoys: list at least one known-wrong answer under \"decoys\" in the manifest",
        ])
        XCTAssertFalse(audit(catalog).katasRunnable)
    }

    func testALessonsCodeUsesPersistenceOnlyAPIOnlyWhereTheLessonNamesIt() throws {
        let debugging = "@_spi(ConcurrencyDebugging) import Persistence\nprint(2)\n"
        // Unlisted: the example may not use the group, nor may any lesson's code open Persistence up.
        var problems = audit(try workbook(files: [
            "Sources/Examples/01-one/main.swift": .some(debugging),
            "Sources/Solutions/01-one/A.swift": .some("import Foundation\n@_spi(TestHarness) @testable import Persistence\n"),
        ])).problems
        XCTAssertEqual(problems, [
            "Sources/Solutions/01-one/A.swift:2 imports Persistence @testable; a lesson's code uses its public API",
            "Sources/Solutions/01-one/A.swift:2 imports Persistence's @_spi(TestHarness), which is for its own tests "
                + "and the katas' support code, not for a lesson's code",
            "Sources/Examples/01-one/main.swift:1 uses Persistence-only API (@_spi(ConcurrencyDebugging)) that lesson 1 "
                + "does not name: use Core Data's API, or list the group under \"standIns\" in the manifest with the "
                + "words of the text that tell the learner it is a stand-in",
        ])
        // Listed, but the text does not name it; listed and never used.
        let listed = #", "standIns": [{"group": "ConcurrencyDebugging", "namedAs": "ConcurrencyDebugging.isEnabled"}]"#
        problems = audit(try workbook(standIns: listed, files: ["Sources/Examples/01-one/main.swift": .some(debugging)]))
            .problems
        XCTAssertEqual(problems, ["lessons/01-one/lesson.en.md never mentions ConcurrencyDebugging.isEnabled, the "
            + "stand-in (@_spi(ConcurrencyDebugging)) the lesson's code uses: say that it is Persistence's, and what "
            + "Core Data has instead"])
        problems = audit(try workbook(standIns: listed)).problems
        XCTAssertTrue(problems.contains("standIns lists ConcurrencyDebugging, but no file of the starter, the solution "
            + "or the example imports it: drop it from the manifest"), "\(problems)")
        // Listed, named and used: ready.
        let audit = audit(try workbook(standIns: listed, files: [
            "Sources/Examples/01-one/main.swift": .some(debugging),
            "lessons/01-one/lesson.en.md": .some("# One\n\nHere only: `ConcurrencyDebugging.isEnabled`.\n"),
        ]))
        XCTAssertEqual(audit.problems, [])
        XCTAssertEqual(audit.state, .ready)
    }

    func testEveryNameComesFromTheLessonsId() throws {
        _ = try workbook()
        let manifest = temporary.appendingPathComponent("book/lessons/manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
            .replacingOccurrences(of: "Workbook/01-one", with: "Workbook/01-One")
            .replacingOccurrences(of: "Kata01One", with: "KataOne")
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        let catalog = try Catalog.load(Workspace(packageRoot: temporary.appendingPathComponent("book")))
        XCTAssertEqual(audit(catalog).problems.filter { $0.contains("from its id") }, [
            "starter is \"Sources/Workbook/01-One\"; a lesson's names all come from its id 01-one: \"Sources/Workbook/01-one\"",
            "katas.suite is \"KataOne\"; a lesson's names all come from its id 01-one: \"Kata01One\"",
            "katas.file is \"Tests/Katas/KataOne.swift\"; a lesson's names all come from its id 01-one: "
                + "\"Tests/Katas/Kata01One.swift\"",
        ])
    }

    func testALessonNeverShowsTheReferenceSolution() throws {
        let solution = """
            import Persistence

            public func shelve(_ book: Book, in context: ManagedObjectContext) throws {
                // region: body
                book.shelf = "A"
                book.position = 1
                context.insert(book)
                try context.save()
                // endregion: body
            }
            """
        let catalog = try workbook(files: [
            "Sources/Solutions/01-one/A.swift": .some(solution),
            "Sources/Examples/01-one/main.swift": .some("""
                // region: copied
                func store(_ book: Book) throws {
                    book.shelf = "A"
                    book.position = 1

                    context.insert(book)   // the same four lines, other indentation and a comment
                    try context.save()
                }
                // endregion: copied
                // region: three
                book.shelf = "A"
                book.position = 1
                context.insert(book)
                // endregion: three
                """),
            "lessons/01-one/lesson.en.md": .some("""
                # One

                ```swift include=Sources/Solutions/01-one/A.swift#body
                ```

                ```swift include=Sources/Examples/01-one/main.swift#copied
                ```

                ```swift include=Sources/Examples/01-one/main.swift#three
                ```

                > Inline, in a quote:
                >
                > ```swift
                > book.shelf = "A"
                > book.position = 1
                > context.insert(book)
                > try context.save()
                > ```
                """),
        ])
        let problems = audit(catalog).problems
        guard problems.count == 3 else { return XCTFail("expected 3 problems:\n" + problems.joined(separator: "\n")) }
        XCTAssertTrue(problems[0].hasPrefix("lessons/01-one/lesson.en.md:3: includes Sources/Solutions/01-one/A.swift#body "
            + "from the reference solutions (Sources/Solutions/01-one): a lesson never shows a kata's answer"), problems[0])
        XCTAssertTrue(problems[1].hasPrefix("lessons/01-one/lesson.en.md:6: the code included from "
            + "Sources/Examples/01-one/main.swift#copied repeats 4 lines of Sources/Solutions/01-one/A.swift "
            + "(from \"book.shelf = \"A\"\")"), problems[1])
        XCTAssertTrue(problems[2].hasPrefix("lessons/01-one/lesson.en.md:14: this code block repeats 4 lines of "
            + "Sources/Solutions/01-one/A.swift"), problems[2])
    }

    func testOnlyCodeLinesCountTowardsARepeatedRun() {
        XCTAssertEqual(SolutionLeakFinder.significantLines(of: """
            do {
                // a comment
                try context.save()

            } catch {
                context.rollback()
            }
            #if DEBUG
            })
            let url = "https://example.com" // a comment after code
            """), ["try context.save()", "context.rollback()", "let url = \"https://example.com\""])
    }

    func testHintsAndExemptionsMustNameKatasOfTheSuite() throws {
        let catalog = try workbook(extraKatas: #", "test09_gone": ["x", "y"]}, "exempt": {"test08_old": "set-up only""#)
        XCTAssertEqual(audit(catalog).problems, [
            "katas.hints names test09_gone, which Tests/Katas/Kata01One.swift does not declare",
            "katas.exempt names test08_old, which Tests/Katas/Kata01One.swift does not declare",
        ])
    }
}
