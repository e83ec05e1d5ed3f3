import XCTest
@testable import LessonsKit

/// The one lexer under the highlighter and the tokenizer.
final class SwiftLexerTests: XCTestCase {
    func testLinesCountEveryBreakInsideStringsAndComments() {
        let source = "let a = \"\"\"\n    one \\\n    two\n    \"\"\"\n/* x\n y */ let b = \"\"\"\n\\(f(1,\n 2))\n\"\"\"\nc"
        let pieces = SwiftLexer.pieces(in: source)
        XCTAssertEqual(pieces.map(\.text).joined(), source)
        XCTAssertEqual(pieces.first { $0.text == "b" }?.line, 6, "after a string with a line continuation and a comment")
        XCTAssertEqual(pieces.last?.line, 10, "after an interpolation that spans a line")
        XCTAssertEqual(SwiftTokenizer.tokens(in: source).last?.line, 10)
    }

    func testAttributesNamesAndEscapedNames() {
        let pieces = SwiftLexer.pieces(in: "@_spi(X) @MainActor $0 `default` #if #Predicate #\"raw\"# ` ")
            .filter { $0.kind != .whitespace }
        XCTAssertEqual(pieces.map(\.kind), [.attribute, .punctuation, .identifier, .punctuation, .attribute, .identifier,
                                            .escapedIdentifier, .directive, .directive, .string, .punctuation])
        XCTAssertEqual(SwiftHighlighter.tokens("@_spi(x) $0").map(\.kind), [.attribute, .plain])
    }

    /// The highlighter colours as strings and comments exactly what the tokenizer keeps as strings and drops as
    /// comments: both read the same pieces.
    func testHighlighterAndTokenizerAgreeOnStrings() {
        let source = #"""
            let s = "a \(b("c)")) d" /* "not a string" */ + #"e "f" \(g)"# // "h"
            #if DEBUG
            let t = """
                i "j"
                """
            #endif
            """#
        let coloured = SwiftHighlighter.tokens(source).filter { $0.kind == .string }.map(\.text)
        let kept = SwiftTokenizer.tokens(in: source).filter { $0.kind == .string }.map(\.text)
        XCTAssertEqual(coloured, kept)
        XCTAssertEqual(kept.count, 3)
        XCTAssertFalse(SwiftTokenizer.tokens(in: source).contains { $0.text == "DEBUG" }, "#if lines are for the compiler")
    }
}
