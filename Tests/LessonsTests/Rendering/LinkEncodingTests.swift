import XCTest
@testable import LessonsKit

/// Link destinations in the handouts are percent-encoded exactly as cmark's own HTML renderer does it.
final class LinkEncodingTests: XCTestCase {
    private let destinations = [
        "</my uri>", "https://example.com/ä?q=1&r='2'", "foo\\\\bar", "<a[b]c>", "https://e.org/%20ok", "a|b{c}^`~",
        "https://ru.wikipedia.org/wiki/Контекст", "#anchor-with-ёж", "mailto:someone@example.com", "x\"y", "/tab%09",
        "https://e.org/path;p=1?x=$+!*(),@:~",
    ]

    /// The `href` cmark writes for `[x](destination)`.
    private func cmarkHref(_ destination: String) throws -> String {
        let html = CommonMarkConverter.referenceHTML("[x](\(destination))")
        let start = try XCTUnwrap(html.range(of: "href=\""), html)
        let end = try XCTUnwrap(html[start.upperBound...].firstIndex(of: "\""), html)
        return String(html[start.upperBound..<end])
    }

    func testDestinationsMatchCmarksEncoding() throws {
        for written in destinations {
            let document = try MarkdownParser.parse("[x](\(written))")
            guard case .paragraph(let inlines)? = document.blocks.first?.kind,
                  case .link(let destination, _, _)? = inlines.first else {
                XCTFail("[x](\(written)) is not a link")
                continue
            }
            XCTAssertEqual(HTMLEscaping.escapeURL(destination), try cmarkHref(written), written)
        }
    }

    func testTheRendererUsesIt() throws {
        let html = HTMLRenderer().render(try MarkdownParser.parse("[a](<https://e.org/my uri>) ![b](https://e.org/ä.png)")).html
        XCTAssertEqual(html, "<p><a href=\"https://e.org/my%20uri\">a</a> "
            + "<a class=\"image-link\" href=\"https://e.org/%C3%A4.png\">[image: b]</a></p>\n")
    }

    func testEncodedTextKeepsItsMeaning() {
        XCTAssertEqual(HTMLEscaping.escapeURL("https://e.org/a%20b?x=1&y=2#top"), "https://e.org/a%20b?x=1&amp;y=2#top")
        XCTAssertEqual(HTMLEscaping.escapeURL("日"), "%E6%97%A5")
    }
}
