import XCTest
@testable import LessonsKit

final class SwiftHighlighterTests: XCTestCase {
    private func kinds(_ source: String) -> [String: SwiftHighlighter.Token.Kind] {
        Dictionary(SwiftHighlighter.tokens(source).map { ($0.text, $0.kind) }, uniquingKeysWith: { first, _ in first })
    }

    func testClassifiesTokens() {
        let found = kinds("@MainActor func f(x: Int) -> String { return \"a\" } // c\n#if DEBUG\nlet n = 0x1F")
        XCTAssertEqual(found["@MainActor"], .attribute)
        XCTAssertEqual(found["func"], .keyword)
        XCTAssertEqual(found["Int"], .type)
        XCTAssertEqual(found["\"a\""], .string)
        XCTAssertEqual(found["// c"], .comment)
        XCTAssertEqual(found["#if"], .directive)
        XCTAssertEqual(found["0x1F"], .number)
    }

    func testStringsWithInterpolationRawAndMultiline() {
        let interpolated = #"let a = "x \(f("y")) z"; "#
        let raw = ##"let b = #"raw "q" \(no)"#; "##
        let multiline = "let c = \"\"\"\n  m \"\n  \"\"\"\n"
        let source = interpolated + raw + multiline
        let strings = SwiftHighlighter.tokens(source).filter { $0.kind == .string }.map(\.text)
        XCTAssertEqual(strings, [#""x \(f("y")) z""#, ##"#"raw "q" \(no)"#"##, "\"\"\"\n  m \"\n  \"\"\""])
    }

    func testMemberNamesAfterADotAreNotKeywords() {
        let tokens = SwiftHighlighter.tokens("x.default; .init; self.in")
        XCTAssertFalse(tokens.contains { $0.text == "default" && $0.kind == .keyword })
        XCTAssertTrue(tokens.contains { $0.text == "init" && $0.kind == .keyword })
    }

    func testNestedBlockComments() {
        XCTAssertEqual(SwiftHighlighter.tokens("/* a /* b */ c */x").map(\.kind), [.comment, .plain])
    }

    /// No text is ever lost: joining the tokens gives back every source file of the package's lessons part.
    func testTokensReproduceEverySourceFile() throws {
        let folder = TestPaths.packageRoot.appendingPathComponent("Sources/LessonsKit")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        XCTAssertGreaterThan(files.count, 20)
        for file in files {
            let source = try String(contentsOf: file, encoding: .utf8)
            XCTAssertEqual(SwiftHighlighter.tokens(source).map(\.text).joined(), source, file.lastPathComponent)
        }
    }
}
