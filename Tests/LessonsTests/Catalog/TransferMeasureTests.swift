import XCTest
@testable import LessonsKit

/// A one-lesson workbook whose kata's answer the example may copy, with a small Persistence that declares the API
/// it uses. Shared by the measure's tests and the `lessons transfer` command's.
enum TransferWorkbook {
    static let solution = """
        import Persistence

        public final class Library {
            let context: ManagedObjectContext

            public init(context: ManagedObjectContext) {
                self.context = context
            }

            public func importAll(_ entries: [Entry]) throws -> Int {
                let rows = entries.map { ["code": $0.code] }
                let request = BatchInsertRequest(entityName: "Deck", objects: rows)
                request.resultType = .objectIDs
                let result = try context.execute(request)
                return tally(of: result)
            }

            private func tally(of result: BatchInsertResult) -> Int {
                result.objectIDs.count
            }
        }
        """

    /// Four of the answer's five lines, renamed, with other literals and other line breaks.
    static let renamedCopy = """
        func load(_ items: [Item], into context: ManagedObjectContext) throws {
            let payload = items.map { ["id": $0.code] }
            let insert = BatchInsertRequest(entityName: "Card",
                                            objects: payload)
            insert.resultType = .objectIDs
            let answer = try context.execute(insert)   // the same call
            print(answer)
        }
        """

    /// The same API taught with another shape of problem: a count, built up in another order.
    static let otherShape = """
        let insert = BatchInsertRequest(entityName: "Card", objects: drafts)
        insert.resultType = .count
        if let answer = try? context.execute(insert) { print(answer) }
        """

    /// Writes the workbook into `folder`; `katas` are the suite's kata calls after the first.
    static func write(into folder: URL, example: String, reviewed: Bool?, extraKata: String = "") throws {
        let reviewedField = reviewed.map { ", \"transferReviewed\": \($0)" } ?? ""
        let tree: [String: String] = [
            "lessons/manifest.json": """
                {"format": 1, "title": "T", "documents": [{"id": "000", "title": "D"}], "lessons": [
                 {"number": 1, "slug": "one", "title": "One", "summary": "S", "languages": ["en"],
                  "sources": [{"document": "000", "sections": ["x"]}],
                  "katas": {"suite": "Kata01One", "file": "Tests/Katas/Kata01One.swift",
                            "hints": {"test01_importsEverything": ["H1", "H2"]}},
                  "starter": ["Sources/Workbook/01-one"], "solution": ["Sources/Solutions/01-one"],
                  "example": {"product": "example01-one", "path": "Sources/Examples/01-one"},
                  "decoys": {"path": "Sources/Decoys/01-one", "cases": [{"id": "a", "mistake": "M"}]}\(reviewedField)}]}
                """,
            "lessons/01-one/lesson.en.md": "# One\n\n```swift\nlet library = Library(context: context)\n```\n",
            "Package.swift": "let lessons = [.init(id: \"01-one\")]\n",
            "Sources/Persistence/Context.swift": """
                public final class ManagedObjectContext {
                    public func execute(_ request: BatchInsertRequest) throws -> BatchInsertResult { fatalError() }
                }
                public final class BatchInsertRequest {
                    public enum ResultType { case objectIDs, count }
                    public var resultType: ResultType = .count
                    public init(entityName: String, objects: [[String: Any]]) {}
                }
                public final class BatchInsertResult {
                    public var objectIDs: [Int] = []
                }
                """,
            "Sources/KataSupport/01-one/Entry.swift": "public struct Entry { public var code: String; public var title: String }\n",
            "Sources/Examples/01-one/main.swift": example,
            "Tests/Katas/Kata01One.swift": """
                final class Kata01One: KataCase {
                    func test01_importsEverything() {
                        kata(1, in: "Library.swift", "importAll(_:)") {
                            XCTAssertEqual(try Library(context: context).importAll([]), 0)
                        }
                    }
                \(extraKata)}
                """,
            "Sources/Workbook/01-one/Library.swift": """
                public final class Library {
                    let context: ManagedObjectContext

                    public init(context: ManagedObjectContext) {
                        self.context = context
                    }

                    public func importAll(_ entries: [Entry]) throws -> Int {
                        throw KataNotDone(lesson: 1)
                    }
                }
                """,
            "Sources/Solutions/01-one/Library.swift": solution,
            "Sources/Decoys/01-one/Library.swift": "if Decoy.isActive(\"a\") {}\n",
        ]
        for (path, contents) in tree {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
    }
}

/// How much of a kata's answer a lesson shows, and what `lessons verify` makes of it.
final class TransferMeasureTests: TemporaryFolderTestCase {
    private func catalog(example: String = TransferWorkbook.renamedCopy, reviewed: Bool? = nil,
                         extraKata: String = "") throws -> Catalog {
        let root = temporary.appendingPathComponent("book")
        try TransferWorkbook.write(into: root, example: example, reviewed: reviewed, extraKata: extraKata)
        return try Catalog.load(Workspace(packageRoot: root))
    }

    private func normalized(_ code: String, _ measure: TransferMeasure) -> String {
        measure.normalized(SwiftTokenizer.tokens(in: code)).joined(separator: " ")
    }

    // MARK: Normalising

    func testARenamedCopyNormalisesToTheSameLine() throws {
        let measure = TransferMeasure(catalog: try catalog())
        XCTAssertTrue(measure.apiNames.isSuperset(of: ["BatchInsertRequest", "entityName", "objects", "resultType",
                                                       "objectIDs", "execute"]), "\(measure.apiNames.sorted())")
        XCTAssertTrue(measure.workbookNames.isSuperset(of: ["rows", "request", "payload", "insert", "code", "Library", "tally"]))
        XCTAssertEqual(normalized(#"let request = BatchInsertRequest(entityName: "Deck", objects: rows)"#, measure),
                       "let _ = BatchInsertRequest ( entityName : _ , objects : _ )")
        XCTAssertEqual(normalized(#"let insert = BatchInsertRequest(entityName: "Card", objects: payload)"#, measure),
                       "let _ = BatchInsertRequest ( entityName : _ , objects : _ )")
        // Names the workbook declares are renamed by a copy; the standard library's are not (`map`).
        XCTAssertEqual(normalized(#"let rows = entries.map { ["code": $0.code] }"#, measure),
                       normalized(#"let payload = items.map { ["id": $0.code] }"#, measure))
        // A property the workbook declares is renamed too, where Core Data's are not.
        XCTAssertEqual(normalized("entry.code = name", measure), normalized("deck.title = label", measure))
        XCTAssertEqual(normalized("x.count // 3", measure), "_ . count")
    }

    func testAnotherShapeDoesNotNormaliseToTheSameLine() throws {
        let measure = TransferMeasure(catalog: try catalog())
        // Core Data's names stay: another result type is another answer.
        XCTAssertNotEqual(normalized("request.resultType = .objectIDs", measure),
                          normalized("request.resultType = .count", measure))
        XCTAssertNotEqual(normalized("for path in rows.sorted(by: >) {", measure),
                          normalized("rows.sorted(by: >).forEach {", measure))
        XCTAssertNotEqual(normalized("let result = try context.execute(request)", measure),
                          normalized("if let result = try? context.execute(request) {", measure))
    }

    func testTheAnswerIsTheSymbolsBodyAndTheHelpersTheStarterLacks() throws {
        let measure = TransferMeasure(catalog: try catalog())
        let (lines, missing) = measure.answer(to: ["importAll(_:)"], in: TransferWorkbook.solution,
                                              starter: "public func importAll(_ entries: [Entry]) throws -> Int {}\n")
        XCTAssertEqual(missing, [])
        // `return tally(of: result)` names nothing a copy could not rename; the helper's line counts.
        XCTAssertEqual(lines.map(\.line), [11, 12, 13, 14, 19])
        XCTAssertEqual(lines.last?.code, "result.objectIDs.count")
        let given = measure.answer(to: ["importAll(_:)"], in: TransferWorkbook.solution,
                                   starter: "private func tally(of result: BatchInsertResult) -> Int { 0 }\n")
        XCTAssertEqual(given.lines.map(\.line), [11, 12, 13, 14], "a helper the starter gives is not the learner's")
        XCTAssertEqual(measure.answer(to: ["nowhere()"], in: TransferWorkbook.solution, starter: "").missing,
                       ["nowhere()"])
    }

    // MARK: The share

    func testTheShareCountsTheAnswersLinesTheExampleShows() throws {
        let catalog = try catalog()
        let katas = TransferMeasure(catalog: catalog).measure(catalog.lessons[0])
        XCTAssertEqual(katas.count, 1)
        let kata = try XCTUnwrap(katas.first)
        XCTAssertEqual(kata.kata, "test01_importsEverything")
        XCTAssertEqual(kata.file, "Sources/Solutions/01-one/Library.swift")
        XCTAssertEqual(kata.lines.count, 5)
        XCTAssertEqual(kata.shownLines.map(\.line), [11, 12, 13, 14])
        XCTAssertEqual(kata.lines[1].shownAt, "Sources/Examples/01-one/main.swift:3",
                       "a call broken over two lines in the example is still the solution's one line")
        XCTAssertEqual(kata.percent, 80)
        XCTAssertTrue(kata.isFlagged)
    }

    func testAnotherShapeOfProblemIsNotFlagged() throws {
        let catalog = try catalog(example: TransferWorkbook.otherShape)
        let kata = try XCTUnwrap(TransferMeasure(catalog: catalog).measure(catalog.lessons[0]).first)
        XCTAssertEqual(kata.shownLines.map(\.code), [#"let request = BatchInsertRequest(entityName: "Deck", objects: rows)"#])
        XCTAssertEqual(kata.percent, 20)
        XCTAssertFalse(kata.isFlagged)
    }

    func testTheTextsCodeBlocksCountToo() throws {
        let catalog = try catalog(example: "print(1)\n")
        let text = "# One\n\nThe call:\n\n```swift\nrequest.resultType = .objectIDs\n```\n"
        try Data(text.utf8).write(to: catalog.textFile(of: catalog.lessons[0], language: .en))
        let kata = try XCTUnwrap(TransferMeasure(catalog: catalog).measure(catalog.lessons[0]).first)
        XCTAssertEqual(kata.shownLines.map(\.shownAt), ["lessons/01-one/lesson.en.md:6"])
    }

    func testAFewLinesAreAnIdiomNotAnAnswer() {
        let line = KataTransfer.Line(line: 1, code: "try context.save()", normalized: "try _ . save ( )",
                                     shownAt: "main.swift:1")
        let small = KataTransfer(lesson: 1, number: 1, kata: "test01_a", file: "A.swift", symbols: ["a()"],
                                 lines: Array(repeating: line, count: TransferMeasure.minimumLines - 1))
        XCTAssertEqual(small.share, 1)
        XCTAssertFalse(small.isFlagged)
        var large = small
        large.lines.append(line)
        XCTAssertTrue(large.isFlagged)
        large.lines += Array(repeating: KataTransfer.Line(line: 2, code: "x", normalized: "x", shownAt: nil), count: 5)
        XCTAssertEqual(large.percent, 44)
        XCTAssertFalse(large.isFlagged)
    }

    /// A line that enough other lessons show is the API's everyday vocabulary: it gives nothing away, so it is
    /// counted apart; a line only this lesson (or fewer other lessons) shows stays measured.
    func testLinesManyOtherLessonsShowAreVocabulary() {
        func line(_ normalized: String) -> KataTransfer.Line {
            KataTransfer.Line(line: 1, code: normalized, normalized: normalized, shownAt: nil)
        }
        func material(_ code: String) -> [TransferMeasure.Material] {
            let tokens = code.split(separator: " ").map(String.init)
            return [TransferMeasure.Material(file: "f", tokens: tokens, lines: tokens.map { _ in 1 })]
        }
        let save = line("try _ . save ( )")
        let cascade = line("_ . deleteRule = . cascadeDeleteRule")
        var materials: [Int: [TransferMeasure.Material]] = [1: material("try _ . save ( ) _ . deleteRule = . cascadeDeleteRule")]
        for number in 2...4 { materials[number] = material("let _ = _ ; try _ . save ( )") }
        var split = TransferMeasure.separatingCommon([save, cascade], of: 1, materials: materials, minimum: 3)
        XCTAssertEqual(split.common.map(\.normalized), [save.normalized], "three other lessons save")
        XCTAssertEqual(split.distinct.map(\.normalized), [cascade.normalized], "its own lesson does not count")
        split = TransferMeasure.separatingCommon([save, cascade], of: 1, materials: materials, minimum: 4)
        XCTAssertEqual(split.common, [])
    }

    // MARK: lessons verify

    func testVerifyListsAFlaggedKataWithoutFailingAnUnreviewedLesson() throws {
        let catalog = try catalog(reviewed: false)
        XCTAssertFalse(catalog.lessons[0].transferReviewed)
        let audits = CatalogVerifier(catalog: catalog).audits()
        XCTAssertEqual(audits[0].problems, [])
        XCTAssertEqual(audits[0].state, .ready)
        XCTAssertEqual(audits[0].transferFlags, ["kata 1 (importAll(_:)): 4 of its 5 solution lines (80%) are in the "
            + "lesson's text or example"])
        let (text, ok) = CatalogVerifier(catalog: catalog).report(audits)
        XCTAssertTrue(ok)
        XCTAssertTrue(text.contains("\n      ! flagged: kata 1 (importAll(_:)): 4 of its 5 solution lines (80%)"), text)
        XCTAssertEqual(CatalogVerifier.transferSummary(audits), "transfer: 1 kata flagged")
    }

    func testVerifyFailsAFlaggedKataInAReviewedLesson() throws {
        let catalog = try catalog(reviewed: true)
        XCTAssertTrue(catalog.lessons[0].transferReviewed)
        let audits = CatalogVerifier(catalog: catalog).audits()
        XCTAssertEqual(audits[0].state, .incomplete)
        XCTAssertEqual(audits[0].problems.count, 1)
        XCTAssertTrue(audits[0].problems[0].hasPrefix("kata 1 (importAll(_:)): 4 of its 5 solution lines (80%) are in "
            + "the lesson's text or example of this reviewed lesson"), audits[0].problems[0])
        let (text, ok) = CatalogVerifier(catalog: catalog).report(audits)
        XCTAssertFalse(ok)
        XCTAssertFalse(text.contains("! flagged:"), "a reviewed lesson lists it once, as a problem")
        XCTAssertEqual(CatalogVerifier.transferSummary(audits), "transfer: 1 kata flagged")
    }

    func testAReviewedLessonThatShowsLittlePasses() throws {
        let catalog = try catalog(example: TransferWorkbook.otherShape, reviewed: true)
        let audits = CatalogVerifier(catalog: catalog).audits()
        XCTAssertEqual(audits[0].problems, [])
        XCTAssertEqual(CatalogVerifier.transferSummary(audits), "transfer: 0 katas flagged")
    }

    func testAKataNamingCodeTheSolutionLacksIsAProblem() throws {
        let catalog = try catalog(example: TransferWorkbook.otherShape, extraKata: """
                func test02_gone() {
                    kata(2, in: "Library.swift", "nowhere()") {}
                }

            """)
        let problems = LessonAudit(catalog.lessons[0], catalog: catalog).problems
        XCTAssertTrue(problems.contains("Tests/Katas/Kata01One.swift: kata 2 names nowhere() in "
            + "Sources/Solutions/01-one/Library.swift, which does not declare it: name the function or property the "
            + "kata exercises"), problems.joined(separator: "\n"))
    }

    func testEveryRealKataNamesCodeItsSolutionDeclares() throws {
        let catalog = try Catalog.load(Workspace(packageRoot: TestPaths.packageRoot))
        let measure = TransferMeasure(catalog: catalog)
        var count = 0
        for lesson in catalog.lessons {
            for kata in measure.measure(lesson) {
                count += 1
                XCTAssertEqual(kata.missingSymbols, [], "lesson \(lesson.number) kata \(kata.number)")
                XCTAssertFalse(kata.lines.isEmpty && kata.commonLines.isEmpty,
                               "lesson \(lesson.number) kata \(kata.number) finds no significant line")
            }
        }
        XCTAssertEqual(count, 113)
    }

    // MARK: The tokenizer

    func testTokensLeaveOutCommentsAndDirectivesAndKeepLiteralsWhole() {
        let tokens = SwiftTokenizer.tokens(in: """
            #if DEBUG
            let s = "a \\(b("c")) // not a comment" /* a /* nested */ comment */
            let n = 1_000.5 + 0..<2 // a comment
            #endif
            """)
        XCTAssertEqual(tokens.map(\.text), ["let", "s", "=", #""a \(b("c")) // not a comment""#, "let", "n", "=",
                                            "1_000.5", "+", "0", ".", ".", "<", "2"])
        XCTAssertEqual(tokens.map(\.line), [2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3])
    }
}
