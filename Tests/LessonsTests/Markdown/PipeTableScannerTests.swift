import XCTest
@testable import LessonsKit

final class PipeTableScannerTests: XCTestCase {
    func testTableWithAlignmentsEscapesAndInlineMarkup() throws {
        let text = "Intro\n\n| a | b | c |\n|:--|:-:|--:|\n| `x` | *y* \\| z | 3 |\n\nAfter\n"
        let blocks = try MarkdownParser.parse(text).blocks
        XCTAssertEqual(blocks.count, 3)
        XCTAssertEqual(blocks[1].line, 3)
        XCTAssertEqual(blocks[1].kind, .table(MarkdownTable(
            alignments: [.left, .center, .right],
            header: [[.text("a")], [.text("b")], [.text("c")]],
            rows: [[[.code("x")], [.emphasis([.text("y")]), .text(" | z")], [.text("3")]]])))
        // Lines after the table keep their numbers, so include errors point at the right line.
        XCTAssertEqual(blocks[2].line, 7)
    }

    func testOuterPipesAreOptionalAndRowsArePaddedOrCut() throws {
        let result = PipeTableScanner.scan("a | b\n--- | ---\n1 |\n1 | 2 | 3\nnot a row\n")
        XCTAssertEqual(result.tables, [PipeTableScanner.RawTable(
            line: 1, alignments: [.none, .none], header: ["a", "b"], rows: [["1", ""], ["1", "2"]])])
    }

    func testNotATable() {
        // Inside a fence, after a paragraph line, a lone rule, a header/delimiter count mismatch, indented code.
        for text in ["```\n| a | b |\n|---|---|\n```\n", "para\n| a | b |\n|---|---|\n", "a\n---\n",
                     "| a | b |\n|---|\n", "    | a | b |\n    |---|---|\n"] {
            XCTAssertEqual(PipeTableScanner.scan(text).tables, [], text)
            XCTAssertEqual(PipeTableScanner.scan(text).text, text, text)
        }
    }

    func testDelimiterRow() {
        XCTAssertEqual(PipeTableScanner.delimiterRow("| :--- | ---: | :-: | - |"), [.left, .right, .center, .none])
        XCTAssertNil(PipeTableScanner.delimiterRow("| --x | --- |"))
        XCTAssertNil(PipeTableScanner.delimiterRow("| | |"))
    }

    func testCellsThatLookLikeBlocksStayText() throws {
        let blocks = try MarkdownParser.parse("| n |\n|---|\n| 1. first |\n").blocks
        guard case .table(let table) = blocks.first?.kind else { return XCTFail("no table") }
        XCTAssertEqual(table.rows, [[[.text("1. first")]]])
    }
}
