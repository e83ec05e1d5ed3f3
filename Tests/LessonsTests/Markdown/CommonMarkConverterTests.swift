import XCTest
@testable import LessonsKit

final class CommonMarkConverterTests: XCTestCase {
    private func parse(_ text: String) throws -> [MarkdownBlock] {
        try MarkdownParser.parse(text).blocks
    }

    func testHeadingsParagraphsAndLines() throws {
        let blocks = try parse("# One\n\nSome *text*\nmore\n\nTwo\n---\n")
        XCTAssertEqual(blocks, [
            MarkdownBlock(.heading(level: 1, [.text("One")]), line: 1),
            MarkdownBlock(.paragraph([.text("Some "), .emphasis([.text("text")]), .softBreak, .text("more")]), line: 3),
            MarkdownBlock(.heading(level: 2, [.text("Two")]), line: 6),
        ])
    }

    func testAdjacentTextRunsAreMergedAndEntitiesDecoded() throws {
        let blocks = try parse("a &amp; b \\* c &#x41;\n")
        XCTAssertEqual(blocks.first?.kind, .paragraph([.text("a & b * c A")]))
    }

    func testListsKeepStyleStartAndTightness() throws {
        let blocks = try parse("3) a\n4) b\n\n- x\n\n- y\n")
        guard case .list(let ordered) = blocks[0].kind, case .list(let bullets) = blocks[1].kind else {
            return XCTFail("expected two lists, got \(blocks)")
        }
        XCTAssertEqual(ordered.style, .ordered(start: 3, delimiter: ")"))
        XCTAssertTrue(ordered.isTight)
        XCTAssertEqual(ordered.items.count, 2)
        XCTAssertEqual(bullets.style, .bullet)
        XCTAssertFalse(bullets.isTight)
    }

    func testCodeHTMLLinksAndImages() throws {
        let text = """
            ```swift include=A.swift#x
            let a = 1
            ```

            <div>raw</div>

            [t](https://e.org "T") ![alt *x*](p.svg) <kbd> `c`\\
            next
            """
        let blocks = try parse(text)
        XCTAssertEqual(blocks[0].kind, .codeBlock(MarkdownCodeBlock(info: "swift include=A.swift#x", code: "let a = 1\n")))
        XCTAssertEqual(blocks[1].kind, .htmlBlock("<div>raw</div>\n"))
        XCTAssertEqual(blocks[2].kind, .paragraph([
            .link(destination: "https://e.org", title: "T", [.text("t")]), .text(" "),
            .image(source: "p.svg", title: "", [.text("alt "), .emphasis([.text("x")])]), .text(" "),
            .html("<kbd>"), .text(" "), .code("c"), .lineBreak, .text("next"),
        ]))
        XCTAssertEqual(blocks[2].line, 7)
    }

    func testQuotesAndThematicBreaks() throws {
        let blocks = try parse("> q\n> > n\n\n***\n")
        XCTAssertEqual(blocks, [
            MarkdownBlock(.blockQuote([
                MarkdownBlock(.paragraph([.text("q")]), line: 1),
                MarkdownBlock(.blockQuote([MarkdownBlock(.paragraph([.text("n")]), line: 2)]), line: 2),
            ]), line: 1),
            MarkdownBlock(.thematicBreak, line: 4),
        ])
    }

    func testInvalidUTF8AndEmptyInputDoNotCrash() throws {
        XCTAssertEqual(try parse(""), [])
        XCTAssertEqual(try parse("\u{FFFD}x").first?.kind, .paragraph([.text("\u{FFFD}x")]))
    }

    /// The fixture must really contain every construct, or the golden files prove less than they claim.
    func testFixtureUsesEveryConstruct() throws {
        let text = try String(contentsOf: TestPaths.everyConstruct, encoding: .utf8)
        var blockKinds = Set<String>(), inlineKinds = Set<String>()
        func visit(_ inlines: [MarkdownInline]) {
            for inline in inlines {
                switch inline {
                case .text: inlineKinds.insert("text")
                case .softBreak: inlineKinds.insert("softBreak")
                case .lineBreak: inlineKinds.insert("lineBreak")
                case .code: inlineKinds.insert("code")
                case .html: inlineKinds.insert("html")
                case .emphasis(let c): inlineKinds.insert("emphasis"); visit(c)
                case .strong(let c): inlineKinds.insert("strong"); visit(c)
                case .link(_, _, let c): inlineKinds.insert("link"); visit(c)
                case .image(_, _, let c): inlineKinds.insert("image"); visit(c)
                }
            }
        }
        func visit(_ blocks: [MarkdownBlock]) {
            for block in blocks {
                switch block.kind {
                case .paragraph(let i): blockKinds.insert("paragraph"); visit(i)
                case .heading(let level, let i): blockKinds.insert("h\(level)"); visit(i)
                case .blockQuote(let b): blockKinds.insert("blockQuote"); visit(b)
                case .list(let l):
                    blockKinds.insert(l.isTight ? "tightList" : "looseList")
                    if case .ordered = l.style { blockKinds.insert("orderedList") }
                    l.items.forEach(visit)
                case .codeBlock(let c): blockKinds.insert(c.info.isEmpty ? "codeBlock" : "fencedCodeWithInfo")
                case .htmlBlock: blockKinds.insert("htmlBlock")
                case .thematicBreak: blockKinds.insert("thematicBreak")
                case .table(let t): blockKinds.insert("table"); (t.header + t.rows.flatMap { $0 }).forEach(visit)
                }
            }
        }
        visit(try MarkdownParser.parse(text).blocks)
        XCTAssertEqual(blockKinds, ["paragraph", "h1", "h2", "h3", "h4", "h5", "h6", "blockQuote", "tightList",
                                    "looseList", "orderedList", "codeBlock", "fencedCodeWithInfo", "htmlBlock",
                                    "thematicBreak", "table"])
        XCTAssertEqual(inlineKinds, ["text", "softBreak", "lineBreak", "code", "html", "emphasis", "strong",
                                     "link", "image"])
    }
}
