import XCTest
@testable import LessonsKit

final class HTMLRendererTests: TemporaryFolderTestCase {
    func testFragmentGolden() throws {
        let (document, images) = try LessonLoader(catalog: try fixtureCatalog()).loadDocument(at: TestPaths.everyConstruct)
        XCTAssertEqual(Array(images.keys), ["diagram.svg"])
        let renderer = HTMLRenderer(options: .init(
            linkHref: { destination in
                if case .lesson(let name, let anchor) = LinkTarget(destination) {
                    return "lesson-\(name).html" + (anchor.map { "#" + $0 } ?? "")
                }
                return HTMLRenderer.Options().linkHref(destination)
            },
            imageSource: { "media/" + $0 }))
        let output = renderer.render(document)
        assertMatchesGolden(output.html, "every-construct.html")
        XCTAssertEqual(output.headings.map(\.id).prefix(4), ["every-construct", "setext-heading-level-one",
                                                              "setext-heading-level-two", "links-and-images"])
        XCTAssertTrue(output.headings.contains { $0.id == "таблица-и-кириллица" })
    }

    func testEverythingIsEscapedAndRawHTMLNeverPassesThrough() throws {
        let text = """
            <script>alert(1)</script>

            A <b onclick="x">b</b> & [l](https://e.org/?a=1&b="2" "t\\"<") ![i"](x.svg) `<code>`

            ```html
            </code></pre><script>
            ```
            """
        let html = HTMLRenderer(options: .init(imageSource: { _ in "x.svg?\"" })).render(try MarkdownParser.parse(text)).html
        XCTAssertFalse(html.contains("<script"), html)
        XCTAssertFalse(html.contains("<b "), html)
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), html)
        XCTAssertTrue(html.contains("href=\"https://e.org/?a=1&amp;b=%222%22\""), html)
        XCTAssertTrue(html.contains("title=\"t&quot;&lt;\""), html)
        XCTAssertTrue(html.contains("src=\"x.svg?%22\" alt=\"i&quot;\""), html)
        XCTAssertTrue(html.contains("&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;"), html)
    }

    func testUnsafeOrFileLinksBecomeText() throws {
        let html = HTMLRenderer().render(try MarkdownParser.parse("[a](javascript:alert(1)) [b](notes.md) [c](lesson:2)")).html
        XCTAssertEqual(html, "<p>a b c</p>\n")
    }

    func testHeadingIDsAreUniqueAndPrefixed() throws {
        let document = try MarkdownParser.parse("## Save\n## Save\n## Ура, тест!\n[x](#save-2)")
        let output = HTMLRenderer(options: .init(idPrefix: "l05-")).render(document)
        XCTAssertEqual(output.headings.map(\.id), ["l05-save", "l05-save-2", "l05-ура-тест"])
        XCTAssertTrue(output.html.contains("<a href=\"#l05-save-2\">x</a>"))
    }
}
