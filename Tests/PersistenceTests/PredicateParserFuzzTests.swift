import Foundation
@_spi(TestHarness) @_spi(PredicateParsing) @testable import Persistence
import XCTest

/// The parser meets a bounded stream of generated formats (fixed seed, so a failure reproduces): it never crashes,
/// and whatever it accepts formats to text that parses back to the same predicate.
final class PredicateParserFuzzTests: XCTestCase {
    private static let fragments = [
        "name", "director.name", "actors", "actors.name", "SELF", "#in", "a.b.c", "@count", ".@sum.price", ".@avg.", "%K",
        "%@", "%d", "%f", "%s", "$VAR", "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "BETWEEN", "IN", "CONTAINS",
        "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "[c]", "[cd]", "[n]", "[x]", "[", "]", "AND", "&&", "OR", "||", "NOT",
        "!", "ANY", "SOME", "ALL", "NONE", "TRUEPREDICATE", "FALSEPREDICATE", "(", ")", "{", "}", ",", "'x'", "\"y\"",
        "'\\u{0}'", "\"\\\"\"", "'unterminated", "\"é日本\"", "1", "-2", "3.5", "1e308", "1e999", "0x10", "99999999999999999999",
        "YES", "NO", "TRUE", "FALSE", "nil", "NULL", "CAST(", "\"NSDate\"", "\"NSNumber\"", "\"NSUUID\"", "FUNCTION(",
        ".", "..", "@", "#", "\\", "\0", "\u{FEFF}", "\u{10FFFF}", "\n", "\t", "  ",
    ]

    private static func pick(_ options: [String], _ generator: inout SeededGenerator) -> String {
        options[Int(generator.next() % UInt64(options.count))]
    }

    /// A grammatical predicate, nested at most a few levels.
    private static func predicate(depth: Int, using generator: inout SeededGenerator) -> String {
        switch depth < 4 ? generator.next() % 6 : 5 {
        case 0: return "NOT " + predicate(depth: depth + 1, using: &generator)
        case 1: return "(" + predicate(depth: depth + 1, using: &generator) + " AND " + predicate(depth: depth + 1, using: &generator) + ")"
        case 2: return predicate(depth: depth + 1, using: &generator) + " OR " + predicate(depth: depth + 1, using: &generator)
        default:
            let modifier = pick(["", "", "ANY ", "ALL ", "NONE ", "SOME "], &generator)
            let left = pick(["name", "director.name", "actors.name", "SELF", "actors", "actors.@count", "items.@sum.price",
                             "#in", "%K", "a"], &generator)
            let op = pick(["==", "!=", "<", ">=", "IN", "BETWEEN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES"], &generator)
            let options = pick(["", "", "[c]", "[d]", "[cd]", "[n]"], &generator)
            let right = pick(["'x'", "\"é日本\"", "nil", "3", "-2.5", "YES", "{1, 'a', nil}", "{'a', 'b'}", "%@", "%d", "$V",
                              "CAST(0, \"NSDate\")", "CAST(\"1.5\", \"NSDecimalNumber\")", "name", "'a.*'", "'*?'",
                              "TRUEPREDICATE"], &generator)
            return "\(modifier)\(left) \(op)\(options) \(right)"
        }
    }

    private static func arguments(for format: String, using generator: inout SeededGenerator) -> [Any?] {
        let count = format.components(separatedBy: "%").count - 1
        let pool: [Any?] = [nil, "name", "x\0y", 3, 2.5, Double.nan, true, ["a", 1], Date(timeIntervalSince1970: 0), UUID(),
                            Data([0, 1]), NSNull(), [Double.nan], Set(["b"]), "actors.name", "@count"]
        return (0..<count).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }
    }

    func testGeneratedFormatsNeverCrashTheParser() throws {
        var generator = SeededGenerator(seed: 0x5EED_0011)
        var accepted = 0
        var rejected = 0
        var iterations = 0
        // As many formats as it takes to see more than a thousand accepted and a thousand rejected: the seed fixes
        // that number, so the run is the same on a busy machine (a time limit made it depend on the load).
        while iterations < 30_000 && (accepted <= 1_000 || rejected <= 1_000) {
            iterations += 1
            var format = ""
            if generator.next() % 2 == 0 {
                // A well-formed predicate, often damaged by one edit.
                format = Self.predicate(depth: 0, using: &generator)
                if generator.next() % 2 == 0, !format.isEmpty {
                    var scalars = Array(format.unicodeScalars)
                    let at = Int(generator.next() % UInt64(scalars.count))
                    switch generator.next() % 3 {
                    case 0: scalars.remove(at: at)
                    case 1: scalars.insert(UnicodeScalar(UInt8(32 + generator.next() % 95)), at: at)
                    default: scalars[at] = UnicodeScalar(UInt8(32 + generator.next() % 95))
                    }
                    format = String(String.UnicodeScalarView(scalars))
                }
            }
            for _ in 0..<(format.isEmpty ? 1 + Int(generator.next() % 12) : 0) {
                if generator.next() % 8 == 0 {
                    // A random scalar now and then, valid or not for the lexer.
                    format += String(UnicodeScalar(UInt8(generator.next() % 128)))
                } else {
                    format += Self.fragments[Int(generator.next() % UInt64(Self.fragments.count))]
                }
                if generator.next() % 3 != 0 { format += " " }
            }
            let arguments = Self.arguments(for: format, using: &generator)
            let predicate: FetchPredicate
            do {
                predicate = try FetchPredicate(parsing: format, argumentArray: arguments)
            } catch let error as FetchPredicateError {
                rejected += 1
                XCTAssertFalse(error.message.isEmpty, format)
                continue
            }
            accepted += 1
            let text = predicate.predicateFormat
            do {
                let reparsed = try FetchPredicate(parsing: text)
                XCTAssertEqual(reparsed, predicate, "\(format.debugDescription) formats as \(text.debugDescription)")
            } catch {
                XCTFail("\(format.debugDescription) formats as \(text.debugDescription), which does not parse: \(error)")
            }
            _ = try? predicate.evaluate(checking: PredicateTestObject("Thing", ["name": "x", "a": nil]))
        }
        let summary = "\(iterations) formats: \(accepted) accepted, \(rejected) rejected"
        XCTAssertGreaterThan(accepted, 1_000, "the generator should reach valid predicates too; \(summary)")
        XCTAssertGreaterThan(rejected, 1_000, summary)
    }
}
