import Foundation
import XCTest
@_spi(TestHarness) @_spi(PredicateParsing) @testable import Persistence

/// String operators and the [c] [d] [n] options, through predicates and through ``StringComparison`` directly (the
/// SQL store calls the latter, so both must agree).
final class PredicateStringOptionTests: XCTestCase {
    private let cafe = PredicateTestObject("Place", ["name": "Café Crème", "city": "Zürich", "code": "AB-1234"])

    private func check(_ format: String, _ arguments: Any?..., line: UInt = #line) throws -> Bool {
        try FetchPredicate(parsing: format, argumentArray: arguments).evaluate(checking: cafe)
    }

    func testContainsBeginsWithEndsWith() throws {
        XCTAssertTrue(try check("name CONTAINS 'é C'"))
        XCTAssertFalse(try check("name CONTAINS 'cafe'"))
        XCTAssertFalse(try check("name CONTAINS[c] 'cafe'"))
        XCTAssertFalse(try check("name CONTAINS[d] 'cafe'"))
        XCTAssertTrue(try check("name CONTAINS[cd] 'cafe'"))
        XCTAssertTrue(try check("name CONTAINS[c] 'CAFÉ'"))
        XCTAssertTrue(try check("name CONTAINS[d] 'Cafe Creme'"))
        XCTAssertTrue(try check("name BEGINSWITH 'Caf'"))
        XCTAssertTrue(try check("name BEGINSWITH[cd] 'CAFE'"))
        XCTAssertFalse(try check("name BEGINSWITH 'Crème'"))
        XCTAssertTrue(try check("name ENDSWITH 'Crème'"))
        XCTAssertTrue(try check("name ENDSWITH[cd] 'CREME'"))
        XCTAssertFalse(try check("name ENDSWITH 'Café'"))
        XCTAssertTrue(try check("city ==[cd] 'zurich'"))
        XCTAssertTrue(try check("city ==[n] 'Zürich'"), "[n] compares literally")
    }

    func testEmptyNeedlesMatchNothing() throws {
        XCTAssertFalse(try check("name CONTAINS ''"))
        XCTAssertFalse(try check("name BEGINSWITH ''"))
        XCTAssertFalse(try check("name ENDSWITH[c] ''"))
    }

    func testLike() throws {
        XCTAssertTrue(try check("name LIKE 'Caf* Cr*'"))
        XCTAssertTrue(try check("name LIKE 'Caf? Cr?me'"), "? matches one character, also a non-ASCII one")
        XCTAssertFalse(try check("name LIKE 'Caf?? Cr?me'"))
        XCTAssertFalse(try check("name LIKE 'Caf'"), "LIKE matches the whole string")
        XCTAssertTrue(try check("name LIKE '*'"))
        XCTAssertTrue(try check("name LIKE[cd] 'cafe*'"))
        XCTAssertFalse(try check("name LIKE 'cafe*'"))
        XCTAssertTrue(try check("code LIKE 'AB-????'"))
        XCTAssertTrue(try check("code LIKE[c] 'ab-*4'"))
        XCTAssertTrue(StringComparison.like("a*b", pattern: #"a\*b"#))
        XCTAssertFalse(StringComparison.like("axb", pattern: #"a\*b"#), "an escaped * is literal")
        XCTAssertTrue(StringComparison.like("a?", pattern: #"a\?"#))
        XCTAssertFalse(StringComparison.like("ab", pattern: #"a\?"#))
        XCTAssertTrue(StringComparison.like("", pattern: "*"))
        XCTAssertFalse(StringComparison.like("", pattern: "?"))
        XCTAssertTrue(StringComparison.like("aaab", pattern: "*a*b"))
        XCTAssertTrue(StringComparison.like("mississippi", pattern: "m*iss*ppi"))
        XCTAssertFalse(StringComparison.like("mississippi", pattern: "m*iss*ppx"))
        XCTAssertTrue(StringComparison.like("😀x😀", pattern: "?x?"))
        XCTAssertTrue(StringComparison.like("日本語テキスト", pattern: "*語*"))
        XCTAssertTrue(try check(#"code LIKE 'AB\-*'"#), "an escaped ordinary character is itself")
    }

    func testMatches() throws {
        XCTAssertTrue(try check(#"code MATCHES '[A-Z]{2}-\d{4}'"#))
        XCTAssertFalse(try check(#"code MATCHES '\d{4}'"#), "MATCHES needs the whole string to match")
        XCTAssertFalse(try check("code MATCHES 'AB|AB-1234X'"), "an alternation cannot match a prefix only")
        XCTAssertTrue(try check("code MATCHES 'AB|AB-1234'"))
        XCTAssertFalse(try check("code MATCHES 'ab-.*'"))
        XCTAssertTrue(try check("code MATCHES[c] 'ab-.*'"))
        XCTAssertTrue(try check("city MATCHES[d] 'Zurich'"))
        XCTAssertTrue(try check("city MATCHES[cd] 'zurich'"))
        XCTAssertTrue(try check("name MATCHES %@", "Caf. Cr.me"))
        XCTAssertThrowsError(try check("name MATCHES %@", "(unclosed")) { error in
            // Checked when the predicate is made, since the pattern is a constant.
            XCTAssertEqual((error as? FetchPredicateError)?.kind, .argument, "\(error)")
        }
        XCTAssertThrowsError(try StringComparison.matches("x", regex: "[")) { error in
            XCTAssertEqual((error as? FetchPredicateError)?.kind, .evaluation)
        }
    }

    func testInvalidRegularExpressionFromAKeyPathIsAnEvaluationError() {
        let object = PredicateTestObject("Rule", ["text": "abc", "pattern": "(x"])
        XCTAssertThrowsError(try FetchPredicate(parsing: "text MATCHES pattern").evaluate(checking: object)) { error in
            guard let error = error as? FetchPredicateError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .evaluation)
            XCTAssertEqual(error.keyPath, "pattern")
            XCTAssertTrue(error.message.contains("'(x' is not a valid regular expression"), error.message)
        }
    }

    func testRegularExpressionsAreUsableFromManyThreads() {
        let hits = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            let matched = (try? StringComparison.matches("item-\(i)", regex: #"item-\d+"#, options: [])) ?? false
            if matched { hits.increment() }
        }
        XCTAssertEqual(hits.value, 200)
    }

    func testFoldingFastPathAgreesWithFoundation() {
        let samples = ["", "abc", "ABC", "Hello, World! 123", "MiXeD_cAsE-@[`{", "Café", "ÉCOLE", "Straße",
                       "İstanbul", "ǅungla", "ﬁne", "Ωμέγα", "日本語", "naïve résumé", "\u{65}\u{301}"]
        let options: [StringComparison.Options] = [[], [.caseInsensitive], [.diacriticInsensitive],
                                                   [.caseInsensitive, .diacriticInsensitive], [.normalized]]
        for sample in samples {
            for option in options {
                var foundation: String.CompareOptions = []
                if option.contains(.caseInsensitive) { foundation.insert(.caseInsensitive) }
                if option.contains(.diacriticInsensitive) { foundation.insert(.diacriticInsensitive) }
                let expected = foundation.isEmpty ? sample : sample.folding(options: foundation, locale: nil)
                XCTAssertEqual(StringComparison.fold(sample, options: option), expected, "\(sample) \(option)")
            }
        }
    }

    func testComparisonEntryPoints() {
        let cd: StringComparison.Options = [.caseInsensitive, .diacriticInsensitive]
        XCTAssertTrue(StringComparison.equals("ABC", "abc", options: .caseInsensitive))
        XCTAssertFalse(StringComparison.equals("ABC", "abd", options: .caseInsensitive))
        XCTAssertFalse(StringComparison.equals("ABC", "abc"))
        XCTAssertTrue(StringComparison.equals("STRASSE", "straße", options: .caseInsensitive), "ß folds to ss")
        XCTAssertTrue(StringComparison.equals("Résumé", "RESUME", options: cd))
        XCTAssertFalse(StringComparison.equals("\u{E9}", "\u{65}\u{301}"), "comparison is literal, not normalized")
        XCTAssertTrue(StringComparison.equals("\u{E9}", "\u{65}\u{301}", options: .diacriticInsensitive))
        XCTAssertEqual(StringComparison.compare("a", "B"), .orderedDescending)
        XCTAssertEqual(StringComparison.compare("a", "B", options: .caseInsensitive), .orderedAscending)
        XCTAssertEqual(StringComparison.compare("abc", "abcd"), .orderedAscending)
        XCTAssertEqual(StringComparison.compare("Zürich", "ZURICH", options: cd), .orderedSame)
        XCTAssertEqual(StringComparison.compare("é", "f", options: .diacriticInsensitive), .orderedAscending)
        XCTAssertEqual(StringComparison.compare("é", "f"), .orderedDescending)
        XCTAssertTrue(StringComparison.contains("The Quick Brown Fox", "QUICK", options: .caseInsensitive))
        XCTAssertTrue(StringComparison.contains("abcabd", "abd"))
        XCTAssertFalse(StringComparison.contains("ab", "abc"))
        XCTAssertTrue(StringComparison.contains("Crème brûlée", "BRULEE", options: cd))
        XCTAssertTrue(StringComparison.beginsWith("Éclair", "ecl", options: cd))
        XCTAssertTrue(StringComparison.endsWith("Éclair", "AIR", options: .caseInsensitive))
        XCTAssertFalse(StringComparison.endsWith("air", "flair"))
        // Non-letters next to the ASCII letter range must not be case-folded.
        XCTAssertFalse(StringComparison.equals("@[`{", "`{@[", options: .caseInsensitive))
        XCTAssertFalse(StringComparison.equals("[", "{", options: .caseInsensitive))
    }
}

/// A counter several threads may bump.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
