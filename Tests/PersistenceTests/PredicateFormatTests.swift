import Foundation
import XCTest
@_spi(TestHarness) @_spi(PredicateCompounds) @_spi(PredicateParsing) @testable import Persistence

/// The canonical format: what it looks like, and that it parses back to an equal predicate.
final class PredicateFormatTests: XCTestCase {
    private func assertRoundTrip(_ predicate: FetchPredicate, file: StaticString = #filePath, line: UInt = #line) {
        let text = predicate.predicateFormat
        do {
            let reparsed = try FetchPredicate(parsing: text)
            XCTAssertEqual(reparsed, predicate, "\(text) reparsed as \(reparsed.predicateFormat)",
                           file: file, line: line)
            XCTAssertEqual(reparsed.hashValue, predicate.hashValue, text, file: file, line: line)
            XCTAssertEqual(reparsed.predicateFormat, text, file: file, line: line)
        } catch {
            XCTFail("\(text) does not parse: \(error)", file: file, line: line)
        }
    }

    func testCanonicalSpelling() throws {
        let cases: [(String, String)] = [
            ("name = 'x'", #"name == "x""#),
            ("a <> 1 and b =< 2 or c => 3", "a != 1 AND b <= 2 OR c >= 3"),
            ("name contains[CD] 'x'", #"name CONTAINS[cd] "x""#),
            ("name beginswith[dc] 'x'", #"name BEGINSWITH[cd] "x""#),
            ("some actors.name like 'A*'", #"ANY actors.name LIKE "A*""#),
            ("none actors.age < 18", "NOT ANY actors.age < 18"),
            ("!(a == 1 || b == 2) && c == 3", "NOT (a == 1 OR b == 2) AND c == 3"),
            ("(a == 1 AND b == 2) OR c == 3", "a == 1 AND b == 2 OR c == 3"),
            ("a == 1 AND (b == 2 OR c == 3)", "a == 1 AND (b == 2 OR c == 3)"),
            ("flag == yes AND other == No AND x == null", "flag == TRUE AND other == FALSE AND x == nil"),
            ("self.name == 'x' AND SELF != nil", #"name == "x" AND SELF != nil"#),
            ("#in == 1 AND movie.in == 2 AND order == 3", "#in == 1 AND movie.#in == 2 AND order == 3"),
            ("n == 0x10 AND d == 1.50 AND e == 1e3", "n == 16 AND d == 1.5 AND e == 1000.0"),
            ("truepredicate", "TRUEPREDICATE"),
            ("items.@sum.price > 1 AND actors.@count == 0", "items.@sum.price > 1 AND actors.@count == 0"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(try FetchPredicate(parsing: input).predicateFormat, expected, input)
            XCTAssertEqual(try FetchPredicate(parsing: input).description, expected, input)
        }
    }

    func testStringsAreQuotedAndEscaped() throws {
        let predicate = try FetchPredicate(parsing: "name == %@", "say \"hi\"\\ 'there'\n\t\u{1}é")
        XCTAssertEqual(predicate.predicateFormat, #"name == "say \"hi\"\\ 'there'\n\t\u{1}é""#)
        assertRoundTrip(predicate)
    }

    func testConstantsWithoutLiteralsUseCast() throws {
        let date = Date(timeIntervalSinceReferenceDate: 123.5)
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let id = ManagedObjectID.permanent(entityName: "Movie", storeIdentifier: "S1", primaryKey: 7)
        let predicate = FetchPredicate(
            format: "d == %@ AND u == %@ AND url == %@ AND b == %@ AND p == %@ AND SELF == %@ AND n == %@",
            date, uuid, URL(string: "https://example.com/a")!, Data([0, 1, 2]), Decimal(string: "12.75")!, id,
            NSNumber(value: Double.infinity))
        XCTAssertEqual(predicate.predicateFormat, """
            d == CAST(123.5, "NSDate") AND u == CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID") \
            AND url == CAST("https://example.com/a", "NSURL") AND b == CAST("AAEC", "NSData") \
            AND p == CAST("12.75", "NSDecimalNumber") \
            AND SELF == CAST("x-coredata://S1/Movie/p7", "NSManagedObjectID") AND n == CAST("inf", "NSNumber")
            """)
        assertRoundTrip(predicate)
    }

    func testBroadSetOfPredicatesRoundTrips() throws {
        let director = ManagedObjectID.permanent(entityName: "Person", storeIdentifier: "STORE", primaryKey: 12)
        let draft = ManagedObjectID.temporary(entityName: "Person")
        let formats: [(String, [Any?])] = [
            ("name == %@", ["Alien"]),
            ("name ==[cd] %@ OR name !=[c] %@", ["é", "E"]),
            ("year < 1 OR year <= 2 OR year > 3 OR year >= 4", []),
            ("year BETWEEN {1990, 1999}", []),
            ("rating BETWEEN %@", [[2.5, 4.75]]),
            ("year IN {1, 2, 3} AND name IN[c] %@", [["a", "b"]]),
            ("name IN 'a long text'", []),
            ("%@ IN actors AND actors CONTAINS %@", [director, draft]),
            ("title CONTAINS[cd] 'star' AND title BEGINSWITH 'S' AND title ENDSWITH[n] 's'", []),
            ("title LIKE[c] '*wars?' AND code MATCHES '[A-Z]{3}\\\\d+'", []),
            ("ANY actors.name == 'Kim' AND ALL actors.age >= 18 AND NONE actors.age > 90", []),
            ("director.name == nil AND director == %@ AND SELF != %@", [director, director]),
            ("actors.@count > 2 AND items.@sum.price < 100.5 AND items.@avg.price > 1", []),
            ("items.@min.price == 0 OR items.@max.product.price == -1", []),
            ("NOT (a == 1 OR b == 2) AND NOT NOT c == 3", []),
            ("(a == 1 OR b == 2) AND (c == 3 OR d == 4)", []),
            ("a == 1 AND b == 2 OR c == 3 AND d == 4", []),
            ("TRUEPREDICATE AND NOT FALSEPREDICATE", []),
            ("flag == YES AND n == -5 AND x == -0.0 AND big == 9223372036854775807 AND small == %@", [Int64.min]),
            ("value == %@ AND value == %@", [1e-7, 6.02e23]),
            ("name == $NAME AND year IN $YEARS AND n BETWEEN {$LO, 10}", []),
            ("#in == 1 AND #ANY.#none.size == 2 AND movie.contains == 3 AND order == 4", []),
            ("%K == 1 AND %K.@count > 0", ["select", "SELF.order"]),
            ("{1, 2, 3} CONTAINS n", []),
            ("stamp > %@", [Date(timeIntervalSince1970: 1_700_000_000.123)]),
            ("n == %@", [Decimal(string: "-0.000001")!]),
            ("u != %@ AND link == %@", [UUID(), URL(string: "file:///tmp/a%20b.txt")!]),
            ("data == %@", [Data((0..<64).map { UInt8($0 * 3 % 256) })]),
            ("name == %@", ["tab\tnewline\nreturn\rnull\u{0}delete\u{7F}quote\"backslash\\"]),
            ("name == 'emoji 😀 and 名前'", []),
        ]
        for (format, arguments) in formats {
            let predicate = try FetchPredicate(parsing: format, argumentArray: arguments)
            assertRoundTrip(predicate)
        }
    }

    func testBuilders() throws {
        let a = try FetchPredicate(parsing: "a == 1")
        let b = try FetchPredicate(parsing: "b == 2")
        let c = try FetchPredicate(parsing: "c == 3")
        XCTAssertEqual(FetchPredicate.and([a, b]).predicateFormat, "a == 1 AND b == 2")
        XCTAssertEqual(FetchPredicate.and([.and([a, b]), c]),
                       try FetchPredicate(parsing: "a == 1 AND b == 2 AND c == 3"))
        XCTAssertEqual(FetchPredicate.or([.and([a, b]), c]).predicateFormat, "a == 1 AND b == 2 OR c == 3")
        XCTAssertEqual(FetchPredicate.and([.or([a, b]), c]).predicateFormat, "(a == 1 OR b == 2) AND c == 3")
        XCTAssertEqual(FetchPredicate.not(.or([a, b])).predicateFormat, "NOT (a == 1 OR b == 2)")
        XCTAssertEqual(FetchPredicate.and([a]), a)
        XCTAssertEqual(FetchPredicate.and([]), FetchPredicate(value: true))
        XCTAssertEqual(FetchPredicate.or([]), FetchPredicate(value: false))
        XCTAssertEqual(FetchPredicate(value: false).predicateFormat, "FALSEPREDICATE")
        for predicate in [FetchPredicate.and([.or([a, b]), .not(c)]), .or([.not(.and([a, b])), c]), .not(.not(a))] {
            assertRoundTrip(predicate)
        }
    }

    func testEqualityIsStructural() throws {
        XCTAssertEqual(try FetchPredicate(parsing: "name == 'x'"), try FetchPredicate(parsing: "name = %@", "x"))
        XCTAssertNotEqual(try FetchPredicate(parsing: "name == 'x'"), try FetchPredicate(parsing: "name ==[c] 'x'"))
        XCTAssertNotEqual(try FetchPredicate(parsing: "n == 1"), try FetchPredicate(parsing: "n == 1.0"))
        let set: Set<FetchPredicate> = [try FetchPredicate(parsing: "a == 1"), try FetchPredicate(parsing: "a = 1")]
        XCTAssertEqual(set.count, 1)
    }
}
