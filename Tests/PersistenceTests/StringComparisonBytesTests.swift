import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// The SQL store's string function reads SQLite's bytes in place; it must answer exactly as the string functions
/// the in-memory evaluator uses, for every operator and option, on ASCII and on everything else.
final class StringComparisonBytesTests: XCTestCase {
    private let samples: [[UInt8]] = [
        Array("".utf8), Array("a".utf8), Array("LaSErBeAmZ".utf8), Array("lasERbeamz".utf8), Array("la".utf8),
        Array("AM".utf8), Array("LáSÉrBèAmZ".utf8), Array("Crème Brûlée".utf8), Array("creme".utf8),
        Array("STRASSE".utf8), Array("Straße".utf8), Array("a\u{0}b".utf8), Array("*a?".utf8), Array("a*".utf8),
        Array("ÀÉÎÕÜ æøå".utf8), Array("àeiou ÆØÅ".utf8), Array("µ ÿ Ñandú".utf8), Array("MU Y nandu".utf8),
        Array("Łódź".utf8), Array("lodz".utf8),   // Ł and ź lie outside Latin-1: Foundation folds them
        Array(String(repeating: "LaSEr", count: 8).utf8), Array(("x" + String(repeating: "lAser", count: 8)).utf8),
        [0xFF, 0x61], [0x61, 0xC3],   // invalid UTF-8: repaired the same way on both paths
    ]
    private let optionSets: [StringComparison.Options] = [[], [.caseInsensitive], [.diacriticInsensitive],
                                                         [.caseInsensitive, .diacriticInsensitive]]

    func testBytesAnswerAsStringsDoForEveryOperatorAndOption() throws {
        let operations: [StringOperation] = [.equal, .less, .lessOrEqual, .greater, .greaterOrEqual,
                                                        .contains, .beginsWith, .endsWith, .like]
        var checked = 0
        for left in samples {
            for right in samples {
                for options in optionSets {
                    for operation in operations {
                        let asStrings = try StringComparison.evaluate(
                            operation, String(decoding: left, as: UTF8.self), String(decoding: right, as: UTF8.self),
                            options: options)
                        let asBytes = try left.withUnsafeBufferPointer { l in
                            try right.withUnsafeBufferPointer { r in
                                try StringComparison.evaluate(operation, utf8: l, r, options: options)
                            }
                        }
                        XCTAssertEqual(asBytes, asStrings, "\(operation) \(left) \(right) \(options.rawValue)")
                        checked += 1
                    }
                }
            }
        }
        XCTAssertEqual(checked, samples.count * samples.count * optionSets.count * operations.count)
    }

    func testTheSQLFunctionAnswersAsStringsDoForEveryOperatorAndOption() throws {
        // Through SQLite: ASCII text is answered in C for some operators, everything else in Swift.
        let connection = try SQLiteConnection(path: ":memory:")
        try StoreFunctions.register(on: connection)
        let operations: [StringOperation] = [.equal, .less, .lessOrEqual, .greater, .greaterOrEqual,
                                             .contains, .beginsWith, .endsWith, .like]
        for left in samples {
            for right in samples {
                for options in optionSets {
                    for operation in operations {
                        let expected = try StringComparison.evaluate(
                            operation, String(decoding: left, as: UTF8.self), String(decoding: right, as: UTF8.self),
                            options: options)
                        // Text made from the bytes as they are (invalid UTF-8 included), as a column would hold it.
                        let rows = try connection.query(
                            "SELECT \(StoreFunctions.stringFunction(operation, options))(CAST(? AS TEXT), CAST(? AS TEXT))",
                            [.blob(Data(left)), .blob(Data(right))])
                        XCTAssertEqual(rows.first?.first, .integer(expected ? 1 : 0), "\(operation) \(left) \(right) \(options.rawValue)")
                    }
                }
            }
        }
        let null = try connection.query("SELECT \(StoreFunctions.stringFunction(.contains, [.caseInsensitive]))(NULL, 'a')")
        XCTAssertEqual(null.first?.first, .null)
        let number = try connection.query("SELECT \(StoreFunctions.stringFunction(.equal, []))(1, '1')")
        XCTAssertEqual(number.first?.first, .null, "a number is not a string")
    }

    func testTheCFastPathUsesTheSameNumbersAsSwift() {
        // string_function.c answers these for ASCII text by number.
        XCTAssertEqual(StringOperation.equal.rawValue, 1)
        XCTAssertEqual(StringOperation.contains.rawValue, 6)
        XCTAssertEqual(StringOperation.beginsWith.rawValue, 7)
        XCTAssertEqual(StringOperation.endsWith.rawValue, 8)
        XCTAssertEqual(StringComparison.Options.caseInsensitive.rawValue, 1)
    }

    func testTheStoreFindsWhatMemoryFindsWithAccentsAndCase() throws {
        XCTAssertTrue(try StringComparison.evaluate(.contains, "LáSÉrBèAmZ", "la", options: [.caseInsensitive, .diacriticInsensitive]))
        let bytes = Array("LáSÉrBèAmZ".utf8), term = Array("la".utf8)
        XCTAssertTrue(try bytes.withUnsafeBufferPointer { b in
            try term.withUnsafeBufferPointer { t in
                try StringComparison.evaluate(.contains, utf8: b, t, options: [.caseInsensitive, .diacriticInsensitive])
            }
        })
        XCTAssertFalse(try bytes.withUnsafeBufferPointer { b in
            try term.withUnsafeBufferPointer { t in try StringComparison.evaluate(.contains, utf8: b, t, options: [.caseInsensitive]) }
        }, "without [d] the accent stays")
    }
}
