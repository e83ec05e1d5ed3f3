import XCTest
@testable import LessonsKit

final class LessonLoaderTests: TemporaryFolderTestCase {
    /// Loads a one-file lesson written into a copy of the fixture lessons, returning the error text.
    private func loadError(_ text: String) throws -> LessonsError? {
        let lessons = temporary.appendingPathComponent("lessons")
        if !FileManager.default.fileExists(atPath: lessons.path) {
            try FileManager.default.copyItem(at: TestPaths.fixtureLessons, to: lessons)
        }
        let file = try write(text, to: "lessons/03-coming-soon/lesson.en.md")
        let catalog = try Catalog.load(Workspace(packageRoot: TestPaths.packageRoot, lessonsDirectory: lessons))
        do {
            _ = try LessonLoader(catalog: catalog).load(catalog.lessons[2], language: .en)
            return nil
        } catch {
            XCTAssertTrue(error.file?.hasSuffix(file.path.split(separator: "/").suffix(3).joined(separator: "/")) ?? false)
            return error
        }
    }

    func testIncludeResolvesARegionOfACompiledFile() throws {
        let catalog = try fixtureCatalog()
        let loaded = try LessonLoader(catalog: catalog).load(catalog.lessons[0], language: .en)
        let includes = loaded.document.blocks.compactMap { block -> MarkdownCodeBlock? in
            if case .codeBlock(let code) = block.kind, code.origin != nil { return code }
            return nil
        }
        XCTAssertEqual(includes.count, 1)
        XCTAssertEqual(includes[0].info, "swift")
        XCTAssertTrue(includes[0].code.hasPrefix("/// Escapes the five characters"))
        XCTAssertEqual(loaded.file, "Tests/LessonsTests/Fixtures/lessons/01-every-construct/lesson.en.md")
    }

    func testMissingFileRegionOrNonEmptyIncludeNamesFileAndLine() throws {
        let missingFile = try loadError("# T\n\n```swift include=Sources/Nowhere.swift#a\n```\n")
        XCTAssertEqual(missingFile?.line, 3)
        XCTAssertEqual(missingFile?.message, "included file Sources/Nowhere.swift does not exist or is not UTF-8 text")

        let missingRegion = try loadError("# T\n\ntext\n\n```swift include=Sources/LessonsKit/Rendering/HTML/HTMLEscaping.swift#nope\n```\n")
        XCTAssertEqual(missingRegion?.line, 5)
        XCTAssertEqual(missingRegion?.message, "Sources/LessonsKit/Rendering/HTML/HTMLEscaping.swift: no region \"nope\" "
            + "(regions in the file: escape); mark one with `// region: nope` … `// endregion: nope`")

        let notEmpty = try loadError("```swift include=Sources/LessonsKit/LessonsKit.swift\nlet stale = 1\n```\n")
        XCTAssertEqual(notEmpty?.message, "an include block must be empty: its code comes from Sources/LessonsKit/LessonsKit.swift")

        let escaping = try loadError("> ```swift include=../outside.swift\n> ```\n")
        XCTAssertEqual(escaping?.line, 1)
        XCTAssertEqual(escaping?.kind, .reference)
    }

    func testLinksAndImagesAreChecked() throws {
        XCTAssertEqual(try loadError("- [x](lesson:9)\n")?.message,
                       "link to unknown lesson \"9\" (write lesson:N with N from 1 to 3, or a lesson's slug)")
        XCTAssertEqual(try loadError("[x](notes.md)")?.kind, .reference)
        XCTAssertEqual(try loadError("[x](javascript:alert(1))")?.kind, .reference)
        XCTAssertEqual(try loadError("\n\n![x](missing.png)")?.line, 3)
        XCTAssertNil(try loadError("[x](lesson:every-construct#lists) [y](https://e.org) ![z](https://e.org/i.png)"))
    }

    func testUnwrittenLessonIsNotThereYet() throws {
        let catalog = try fixtureCatalog()
        XCTAssertThrowsError(try LessonLoader(catalog: catalog).load(catalog.lessons[2], language: .en)) { error in
            XCTAssertEqual((error as? LessonsError)?.kind, .notThereYet)
        }
        XCTAssertEqual(catalog.writtenLanguages(of: catalog.lessons[1]), [.ru, .en])
        XCTAssertEqual(catalog.writtenLanguages(of: catalog.lessons[2]), [])
    }

    func testVerifierAuditsEveryLesson() throws {
        let verifier = CatalogVerifier(catalog: try fixtureCatalog())
        let audits = verifier.audits()
        XCTAssertEqual(audits.map(\.state), [.incomplete, .incomplete, .planned])
        // Lesson 1 borrows files of the package for its starter, solution and katas, so its names are not its own,
        // and its text includes its own "solution".
        XCTAssertTrue(audits[0].problems.contains { $0.contains("includes Sources/LessonsKit/Rendering/HTML/"
            + "HTMLEscaping.swift#escape from the reference solutions") }, "\(audits[0].problems)")
        XCTAssertEqual(audits[0].problems.filter { !$0.contains("from its id") && !$0.contains("reference solutions") }, [
            "no runnable example: Sources/Examples/01-every-construct holds no Swift files",
            "no decoys: list at least one known-wrong answer under \"decoys\" in the manifest",
        ])
        XCTAssertTrue(audits[0].katasRunnable, "kata file, starter and solution exist")
        XCTAssertFalse(audits[1].katasRunnable)
        XCTAssertEqual(audits[1].writtenLanguages, [.ru, .en])
        let (text, ok) = verifier.report(audits)
        XCTAssertFalse(ok)
        assertMatchesGolden(text, "verify-files.txt")
    }
}
