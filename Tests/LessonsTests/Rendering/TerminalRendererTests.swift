import XCTest
@testable import LessonsKit

final class TerminalRendererTests: TemporaryFolderTestCase {
    private func renderFixture(colors: Bool, width: Int = 60) throws -> String {
        let loader = LessonLoader(catalog: try fixtureCatalog())
        let (document, _) = try loader.loadDocument(at: TestPaths.everyConstruct)
        return TerminalRenderer(options: .init(width: width, colors: colors)).render(document)
    }

    func testPlainGolden() throws {
        assertMatchesGolden(try renderFixture(colors: false), "every-construct.plain.txt")
    }

    func testColourGolden() throws {
        assertMatchesGolden(try renderFixture(colors: true), "every-construct.ansi.txt")
    }

    func testPlainHasNoEscapeCodesAndColourHas() throws {
        XCTAssertFalse(try renderFixture(colors: false).contains("\u{1B}["))
        XCTAssertTrue(try renderFixture(colors: true).contains("\u{1B}[0;1;35m"))
    }

    /// Prose wraps to the width; only code (indented four spaces) and the table may run past it.
    func testProseFitsTheWidth() throws {
        for width in [40, 60, 80] {
            var inCode = false
            for line in try renderFixture(colors: false, width: width).split(separator: "\n") {
                if line.hasPrefix("    ") { inCode = true } else if !line.hasPrefix(" ") { inCode = false }
                if inCode || line.contains("│") { continue }
                XCTAssertLessThanOrEqual(TextWidth.of(String(line)), width, "\(width): \(line)")
            }
        }
    }

    func testNoTrailingSpaces() throws {
        for line in try renderFixture(colors: false).split(separator: "\n") {
            XCTAssertFalse(line.hasSuffix(" "), String(line))
        }
    }

    func testWrapCountsCyrillicAndWideCharactersByColumns() {
        let cyrillic = StyledText("Контекст это черновик изменений").wrapped(width: 16).map(\.plainText)
        XCTAssertEqual(cyrillic, ["Контекст это", "черновик", "изменений"])
        let wide = StyledText("日本語のテキスト").wrapped(width: 8).map(\.plainText)
        XCTAssertEqual(wide, ["日本語の", "テキスト"])
        let url = StyledText("see https://example.com/abcdefghijklmnop").wrapped(width: 12).map(\.plainText)
        XCTAssertEqual(url, ["see https://", "example.com/", "abcdefghijkl", "mnop"])
    }

    func testWideTableFallsBackToRecords() throws {
        let document = try MarkdownParser.parse("| Name | Description |\n|---|---|\n| a | " + String(repeating: "word ", count: 20) + "|\n")
        let text = TerminalRenderer(options: .init(width: 40, colors: false)).render(document)
        XCTAssertTrue(text.hasPrefix("Name: a\nDescription: word word"), text)
    }

    func testLessonLinksAreNamedAsCommands() throws {
        let document = try MarkdownParser.parse("See [saving](lesson:5) and [here](#x).")
        let text = TerminalRenderer(options: .init(width: 80, colors: false)).render(document)
        XCTAssertEqual(text, "See saving (lessons show 5) and here.\n")
    }
}
