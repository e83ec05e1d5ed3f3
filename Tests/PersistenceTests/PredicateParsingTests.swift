import Foundation
import XCTest
@_spi(TestHarness) @_spi(PredicateParsing) @testable import Persistence

/// The trees the parser builds from well-formed format strings.
final class PredicateParsingTests: XCTestCase {
    private func tree(_ format: String, _ arguments: Any?...) throws -> PredicateNode {
        try FetchPredicate(parsing: format, argumentArray: arguments).expression
    }

    private func comparison(_ format: String, _ arguments: Any?...) throws -> PredicateComparison {
        let expression = try FetchPredicate(parsing: format, argumentArray: arguments).expression
        guard case .comparison(let comparison) = expression else {
            XCTFail("\(format) did not parse to a comparison: \(expression)")
            throw FetchPredicateError(.syntax, "not a comparison")
        }
        return comparison
    }

    private func key(_ keys: String...) -> PredicateOperand { .keyPath(keys) }

    func testSimpleComparison() throws {
        XCTAssertEqual(try tree("name == 'Alien'"),
                       .comparison(PredicateComparison(key("name"), .equalTo, .constant(.string("Alien")))))
    }

    func testEveryOperatorSpelling() throws {
        let spellings: [(String, PredicateComparison.Operator)] = [
            ("==", .equalTo), ("=", .equalTo), ("!=", .notEqualTo), ("<>", .notEqualTo),
            ("<", .lessThan), ("<=", .lessThanOrEqualTo), ("=<", .lessThanOrEqualTo),
            (">", .greaterThan), (">=", .greaterThanOrEqualTo), ("=>", .greaterThanOrEqualTo),
            ("CONTAINS", .contains), ("contains", .contains), ("BeginsWith", .beginsWith),
            ("ENDSWITH", .endsWith), ("like", .like), ("MATCHES", .matches),
        ]
        for (spelling, op) in spellings {
            let c = try comparison("name \(spelling) 'x'")
            XCTAssertEqual(c.operator, op, spelling)
            XCTAssertEqual(c.right, .constant(.string("x")), spelling)
        }
        XCTAssertEqual(try comparison("year in {1, 2}").operator, .in)
        XCTAssertEqual(try comparison("year between {1, 2}").operator, .between)
    }

    func testOperatorsNeedNoSpaces() throws {
        let c = try comparison("year>=3")
        XCTAssertEqual(c, PredicateComparison(key("year"), .greaterThanOrEqualTo, .constant(.integer(3))))
    }

    func testComparisonOptions() throws {
        XCTAssertEqual(try comparison("name ==[c] 'x'").options, [.caseInsensitive])
        XCTAssertEqual(try comparison("name CONTAINS[d] 'x'").options, [.diacriticInsensitive])
        XCTAssertEqual(try comparison("name LIKE[cd] 'x'").options, [.caseInsensitive, .diacriticInsensitive])
        XCTAssertEqual(try comparison("name BEGINSWITH[CD] 'x'").options, [.caseInsensitive, .diacriticInsensitive])
        XCTAssertEqual(try comparison("name ENDSWITH [dc] 'x'").options, [.caseInsensitive, .diacriticInsensitive])
        XCTAssertEqual(try comparison("name ==[n] 'x'").options, [.normalized])
        XCTAssertEqual(try comparison("name IN[c] {'a'}").options, [.caseInsensitive])
    }

    func testPrecedenceIsNotThenAndThenOr() throws {
        let a = PredicateNode.comparison(PredicateComparison(key("a"), .equalTo, .constant(.integer(1))))
        let b = PredicateNode.comparison(PredicateComparison(key("b"), .equalTo, .constant(.integer(2))))
        let c = PredicateNode.comparison(PredicateComparison(key("c"), .equalTo, .constant(.integer(3))))
        XCTAssertEqual(try tree("a == 1 OR b == 2 AND NOT c == 3"), .or([a, .and([b, .not(c)])]))
        XCTAssertEqual(try tree("a == 1 || b == 2 && !c == 3"), .or([a, .and([b, .not(c)])]))
        XCTAssertEqual(try tree("(a == 1 OR b == 2) AND c == 3"), .and([.or([a, b]), c]))
        XCTAssertEqual(try tree("NOT (a == 1 AND b == 2)"), .not(.and([a, b])))
        XCTAssertEqual(try tree("not not a == 1"), .not(.not(a)))
    }

    func testCompoundsAreFlattened() throws {
        let a = PredicateNode.comparison(PredicateComparison(key("a"), .equalTo, .constant(.integer(1))))
        let b = PredicateNode.comparison(PredicateComparison(key("b"), .equalTo, .constant(.integer(2))))
        let c = PredicateNode.comparison(PredicateComparison(key("c"), .equalTo, .constant(.integer(3))))
        XCTAssertEqual(try tree("a == 1 AND b == 2 AND c == 3"), .and([a, b, c]))
        XCTAssertEqual(try tree("(a == 1 AND b == 2) AND c == 3"), .and([a, b, c]))
        XCTAssertEqual(try tree("a == 1 OR (b == 2 OR c == 3)"), .or([a, b, c]))
        XCTAssertEqual(try tree("((a == 1))"), a)
    }

    func testTrueAndFalsePredicates() throws {
        XCTAssertEqual(try tree("TRUEPREDICATE"), .constant(true))
        XCTAssertEqual(try tree("falsepredicate"), .constant(false))
        XCTAssertEqual(try tree("TRUEPREDICATE AND NOT FALSEPREDICATE"),
                       .and([.constant(true), .not(.constant(false))]))
    }

    func testStringLiterals() throws {
        XCTAssertEqual(try comparison(#"name == "double""#).right, .constant(.string("double")))
        XCTAssertEqual(try comparison(#"name == 'it\'s'"#).right, .constant(.string("it's")))
        XCTAssertEqual(try comparison(#"name == "say \"hi\"""#).right, .constant(.string(#"say "hi""#)))
        XCTAssertEqual(try comparison(#"name == 'a\nb\tc\\d'"#).right, .constant(.string("a\nb\tc\\d")))
        XCTAssertEqual(try comparison(#"name == '\u00e9\u{1F600}'"#).right, .constant(.string("é😀")))
        XCTAssertEqual(try comparison(#"name == 'it"s'"#).right, .constant(.string(#"it"s"#)))
        XCTAssertEqual(try comparison("name == ''").right, .constant(.string("")))
        // Unknown escapes keep their backslash, so regular expressions read naturally.
        XCTAssertEqual(try comparison(#"name MATCHES '\d+'"#).right, .constant(.string(#"\d+"#)))
        XCTAssertEqual(try comparison("name == 'Crème brûlée'").right, .constant(.string("Crème brûlée")))
    }

    func testNumberLiterals() throws {
        XCTAssertEqual(try comparison("n == 42").right, .constant(.integer(42)))
        XCTAssertEqual(try comparison("n == -42").right, .constant(.integer(-42)))
        XCTAssertEqual(try comparison("n == - 7").right, .constant(.integer(-7)))
        XCTAssertEqual(try comparison("n == 2.5").right, .constant(.double(2.5)))
        XCTAssertEqual(try comparison("n == -0.25").right, .constant(.double(-0.25)))
        XCTAssertEqual(try comparison("n == 1e3").right, .constant(.double(1000)))
        XCTAssertEqual(try comparison("n == 1.5E-2").right, .constant(.double(0.015)))
        XCTAssertEqual(try comparison("n == 0x1F").right, .constant(.integer(31)))
        XCTAssertEqual(try comparison("n == 0b101").right, .constant(.integer(5)))
        XCTAssertEqual(try comparison("n == 0o17").right, .constant(.integer(15)))
        XCTAssertEqual(try comparison("n == -9223372036854775808").right, .constant(.integer(.min)))
        XCTAssertEqual(try comparison("n == 9223372036854775807").right, .constant(.integer(.max)))
    }

    func testBooleanAndNilLiterals() throws {
        for word in ["TRUE", "true", "YES", "yes"] {
            XCTAssertEqual(try comparison("flag == \(word)").right, .constant(.bool(true)), word)
        }
        for word in ["FALSE", "False", "NO", "no"] {
            XCTAssertEqual(try comparison("flag == \(word)").right, .constant(.bool(false)), word)
        }
        XCTAssertEqual(try comparison("name == nil").right, .constant(.null))
        XCTAssertEqual(try comparison("name == NULL").right, .constant(.null))
        XCTAssertEqual(try comparison("nil == name").left, .constant(.null))
    }

    func testAggregatesAndVariables() throws {
        XCTAssertEqual(try comparison("year IN {1, 'two', 3.5, nil, $X}").right,
                       .aggregate([.constant(.integer(1)), .constant(.string("two")), .constant(.double(3.5)),
                                   .constant(.null), .variable("X")]))
        XCTAssertEqual(try comparison("year IN {}").right, .aggregate([]))
        XCTAssertEqual(try comparison("year BETWEEN {-1, 10}").right,
                       .aggregate([.constant(.integer(-1)), .constant(.integer(10))]))
        XCTAssertEqual(try comparison("name == $NAME").right, .variable("NAME"))
        XCTAssertEqual(try comparison("{1, 2} CONTAINS year").left, .aggregate([.constant(.integer(1)),
                                                                                 .constant(.integer(2))]))
    }

    func testKeyPaths() throws {
        XCTAssertEqual(try comparison("director.name == 'x'").left, key("director", "name"))
        XCTAssertEqual(try comparison("a.b.c.d == 1").left, key("a", "b", "c", "d"))
        XCTAssertEqual(try comparison("SELF == nil").left, .evaluatedObject)
        XCTAssertEqual(try comparison("self.name == 'x'").left, key("name"))
        XCTAssertEqual(try comparison("_private1 == 1").left, key("_private1"))
        XCTAssertEqual(try comparison("名前 == 1").left, key("名前"))
        XCTAssertEqual(try comparison("name == director.name").right, key("director", "name"))
    }

    func testCollectionOperators() throws {
        XCTAssertEqual(try comparison("actors.@count > 2").left,
                       .collectionOperation(.count, collection: ["actors"], key: []))
        XCTAssertEqual(try comparison("director.movies.@count == 0").left,
                       .collectionOperation(.count, collection: ["director", "movies"], key: []))
        XCTAssertEqual(try comparison("items.@sum.price > 10").left,
                       .collectionOperation(.sum, collection: ["items"], key: ["price"]))
        XCTAssertEqual(try comparison("items.@avg.product.price > 10").left,
                       .collectionOperation(.avg, collection: ["items"], key: ["product", "price"]))
        XCTAssertEqual(try comparison("items.@min.price > 10").left,
                       .collectionOperation(.min, collection: ["items"], key: ["price"]))
        XCTAssertEqual(try comparison("items.@MAX.price > 10").left,
                       .collectionOperation(.max, collection: ["items"], key: ["price"]))
        XCTAssertEqual(try comparison("3 < actors.@count").right,
                       .collectionOperation(.count, collection: ["actors"], key: []))
    }

    func testModifiers() throws {
        let name = PredicateComparison(key("actors", "name"), .equalTo, .constant(.string("x")), modifier: .any)
        XCTAssertEqual(try tree("ANY actors.name == 'x'"), .comparison(name))
        XCTAssertEqual(try tree("some actors.name == 'x'"), .comparison(name))
        XCTAssertEqual(try tree("NONE actors.name == 'x'"), .not(.comparison(name)))
        var all = name
        all.modifier = .all
        XCTAssertEqual(try tree("ALL actors.name == 'x'"), .comparison(all))
        XCTAssertEqual(try comparison("actors.name == 'x'").modifier, .direct)
    }

    func testReservedWordsAsKeys() throws {
        // Words the grammar does not use are ordinary keys, even though NSPredicate reserves some of them.
        for word in ["order", "size", "first", "last", "from", "select", "desc", "cast", "count", "index"] {
            XCTAssertEqual(try comparison("\(word) == 1").left, key(word), word)
        }
        // Grammar words need '#' at the start of a key path, but not after a dot.
        XCTAssertEqual(try comparison("#in == 1").left, key("in"))
        XCTAssertEqual(try comparison("#ANY == 1").left, key("ANY"))
        XCTAssertEqual(try comparison("#from == 1").left, key("from"))
        XCTAssertEqual(try comparison("#self.name == 1").left, key("self", "name"))
        XCTAssertEqual(try comparison("movie.in == 1").left, key("movie", "in"))
        XCTAssertEqual(try comparison("movie.#contains == 1").left, key("movie", "contains"))
        XCTAssertEqual(try comparison("owner.order.size == 1").left, key("owner", "order", "size"))
    }

    func testCastMakesConstantsWithoutLiterals() throws {
        XCTAssertEqual(try comparison("d == CAST(0, 'NSDate')").right,
                       .constant(.date(Date(timeIntervalSinceReferenceDate: 0))))
        XCTAssertEqual(try comparison("d == CAST(-12.5, \"Date\")").right,
                       .constant(.date(Date(timeIntervalSinceReferenceDate: -12.5))))
        let uuid = UUID()
        XCTAssertEqual(try comparison("u == CAST('\(uuid.uuidString)', 'NSUUID')").right, .constant(.uuid(uuid)))
        XCTAssertEqual(try comparison("u == cast('https://example.com/a?b=1', 'NSURL')").right,
                       .constant(.uri(URL(string: "https://example.com/a?b=1")!)))
        XCTAssertEqual(try comparison("b == CAST('AAEC', 'NSData')").right, .constant(.data(Data([0, 1, 2]))))
        XCTAssertEqual(try comparison("p == CAST('12.75', 'NSDecimalNumber')").right,
                       .constant(.decimal(Decimal(string: "12.75")!)))
        XCTAssertEqual(try comparison("n == CAST('inf', 'NSNumber')").right, .constant(.double(.infinity)))
        XCTAssertEqual(try comparison("n == CAST('12', 'NSNumber')").right, .constant(.integer(12)))
        XCTAssertEqual(try comparison("n == CAST(12, 'NSString')").right, .constant(.string("12")))
        let id = ManagedObjectID.permanent(entityName: "Movie", storeIdentifier: "S1", primaryKey: 7)
        XCTAssertEqual(try comparison("SELF == CAST('x-coredata://S1/Movie/p7', 'NSManagedObjectID')").right,
                       .object(id))
        XCTAssertEqual(try comparison("d == CAST(%@, 'NSDate')", 10).right,
                       .constant(.date(Date(timeIntervalSinceReferenceDate: 10))))
    }

    func testWhitespaceIsFree() throws {
        XCTAssertEqual(try tree("  name\t==\n'x'  "), try tree("name == 'x'"))
        XCTAssertEqual(try tree("(name=='x')AND(year>1)"), try tree("name == 'x' AND year > 1"))
    }
}
