import XCTest
@testable import LessonsKit

/// Wrapping finished lines (list rows, the next step, summaries) and soft-wrapping code to the terminal.
final class TextWrappingTests: XCTestCase {
    func testListRowsContinueUnderTheirTitle() {
        let rows = "   1  new         Testing Core Data code: naive, injected, complex managers\n"
            + "  12  coming      Batch requests and merging remote changes\n"
            + "Next: read lesson 1, Testing Core Data code: naive, injected, complex managers: "
            + "swift run lessons show 1"
        let indent = { (line: String) in line.hasPrefix("Next: ") ? 6 : line.hasPrefix(" ") ? 18 : 0 }
        let wrapped = TextWrapping.wrap(TextWrapping.keepingCommandsTogether(rows), width: 59, hangingIndent: indent)
        XCTAssertEqual(wrapped, """
               1  new         Testing Core Data code: naive, injected,
                              complex managers
              12  coming      Batch requests and merging remote changes
            Next: read lesson 1, Testing Core Data code: naive,
                  injected, complex managers: swift run lessons show 1
            """)
        let wide = TextWrapping.wrap(TextWrapping.keepingCommandsTogether(rows), width: 99, hangingIndent: indent)
        XCTAssertTrue(wide.hasSuffix("complex managers:\n      swift run lessons show 1"), "a command stays whole: \(wide)")
        XCTAssertFalse(wide.contains(TextWrapping.noBreakSpace))
    }

    func testEscapeCodesTakeNoRoomAndShortLinesStayAsTheyAre() {
        let painted = "   4  " + TextStyle(color: .yellow).paint("0/5 katas  ", colors: true) + " Contexts and CRUD"
        XCTAssertEqual(TextWrapping.visibleWidth(painted), 35)
        XCTAssertEqual(TextWrapping.wrap(painted, width: 35), painted)
        XCTAssertEqual(TextWrapping.wrap(painted, width: 30, hangingIndent: { _ in 18 }),
                       "   4  " + TextStyle(color: .yellow).paint("0/5 katas  ", colors: true) + " Contexts and\n"
                        + String(repeating: " ", count: 15) + "CRUD", "the indent takes at most half the width")
        XCTAssertEqual(TextWrapping.visibleWidth("日本語"), 6)
    }

    func testAWordLongerThanTheLineIsCut() {
        XCTAssertEqual(TextWrapping.wrap("Wrote 8 files to /tmp/a-very-long-folder-name/handouts: index.html", width: 20),
                       "Wrote 8 files to\n/tmp/a-very-long-fol\nder-name/handouts:\nindex.html")
    }

    func testJoinStartsALineBeforeAnItemThatWouldNotFit() {
        let items = ["Katas: swift run lessons check 1", "Hint: swift run lessons hint 1",
                     "Example: swift run lessons run 1"]
        XCTAssertEqual(TextWrapping.join(items, width: 100), [items.joined(separator: " · ")])
        XCTAssertEqual(TextWrapping.join(items, width: 70), [items[0] + " · " + items[1], items[2]])
        XCTAssertEqual(TextWrapping.join(items, width: 40), items)
    }

    // MARK: Code

    private func codeLines(_ code: String, width: Int?) -> [String] {
        let renderer = TerminalRenderer(options: .init(width: 60, colors: false, codeWidth: width))
        return renderer.renderCode(code, language: "swift").split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    func testLongCodeLinesAreSoftWrappedUnderTheirIndentation() {
        let code = """
            func load() throws {
                container.persistentStoreDescriptions = [PersistentStoreDescription(url: Self.storeURL)]
            }
            """
        XCTAssertEqual(codeLines(code, width: 60), [
            "    func load() throws {",
            "        container.persistentStoreDescriptions =",
            "        ↪ [PersistentStoreDescription(url: Self.storeURL)]",
            "    }",
        ])
        XCTAssertEqual(codeLines(code, width: nil)[1],
                       "        container.persistentStoreDescriptions = [PersistentStoreDescription(url: Self.storeURL)]",
                       "without a terminal width code stays as written")
        XCTAssertEqual(codeLines(code, width: 100).count, 3, "a line that fits is left alone")
    }

    func testEveryPartFitsAndNoCharacterIsLost() {
        let code = "let path = \"Sources/Examples/03-modelling/main.swift\" + String(repeating: \"x\", count: 90)"
            + "// \(String(repeating: "y", count: 70))"
        for width in [20, 33, 47, 60] {
            let lines = codeLines(code, width: width)
            XCTAssertGreaterThan(lines.count, 1)
            for line in lines { XCTAssertLessThanOrEqual(TextWidth.of(line), width, "\(width): \(line)") }
            XCTAssertTrue(lines.dropFirst().allSatisfy { $0.hasPrefix("    ↪ ") }, "\(lines)")
            let rejoined = lines.enumerated().map { $0.offset == 0 ? $0.element.dropFirst(4) : $0.element.dropFirst(6) }
            XCTAssertEqual(rejoined.joined().filter { $0 != " " }, code.filter { $0 != " " }, "width \(width)")
        }
    }

    func testTheMarkIsDimOnATerminal() {
        let renderer = TerminalRenderer(options: .init(width: 40, colors: true, codeWidth: 30))
        let text = renderer.renderCode("let answer = compute(first: 1, second: 2, third: 3)", language: "swift")
        XCTAssertTrue(text.contains("\n    \u{1B}[0;2m↪ \u{1B}[0m"), text.debugDescription)
    }
}
