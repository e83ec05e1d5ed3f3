import Foundation
import XCTest
@_spi(TestHarness) @_spi(PredicateParsing) @testable import Persistence

/// To-many relationships: membership, implicit ANY, the ANY/SOME/ALL/NONE modifiers, and collection operators.
final class PredicateCollectionTests: XCTestCase {
    private lazy var kim = PredicateTestObject("Person", ["name": "Kim", "age": 34, "manager": agency])
    private lazy var lee = PredicateTestObject("Person", ["name": "Lee", "age": 71, "manager": nil])
    private lazy var ana = PredicateTestObject("Person", ["name": "Ána", "age": 19, "manager": agency])
    private let agency = PredicateTestObject("Agency", ["name": "Stars"])
    private let stranger = PredicateTestObject("Person", ["name": "Stranger", "age": 50, "manager": nil])

    private lazy var items = [
        PredicateTestObject("Item", ["price": 10, "weight": 1.5, "cost": Decimal(string: "0.10")!, "label": "b",
                                     "day": Date(timeIntervalSince1970: 200), "product": product]),
        PredicateTestObject("Item", ["price": 20, "weight": 2.5, "cost": Decimal(string: "0.20")!, "label": "a",
                                     "day": Date(timeIntervalSince1970: 100), "product": product]),
        PredicateTestObject("Item", ["price": nil, "weight": nil, "cost": nil, "label": "c", "day": nil,
                                     "product": nil]),
    ]
    private let product = PredicateTestObject("Product", ["price": 7])

    private lazy var movie = PredicateTestObject("Movie", [
        "title": "Heat", "actors": [kim, lee, ana], "extras": [PredicateTestObject](), "items": items,
        "director": PredicateTestObject("Person", ["name": "Mann", "movies": [PredicateTestObject]()]),
        "sequel": nil,
    ])

    private func check(_ format: String, _ arguments: Any?..., line: UInt = #line) throws -> Bool {
        try FetchPredicate(parsing: format, argumentArray: arguments).evaluate(checking: movie)
    }

    func testContainsIsMembershipOnAToMany() throws {
        XCTAssertTrue(try check("actors CONTAINS %@", kim))
        XCTAssertFalse(try check("actors CONTAINS %@", stranger))
        XCTAssertTrue(try check("%@ IN actors", lee))
        XCTAssertFalse(try check("%@ IN actors", stranger))
        XCTAssertFalse(try check("extras CONTAINS %@", kim))
        XCTAssertFalse(try check("actors CONTAINS nil"))
        XCTAssertTrue(try check("{1, 2, 3} CONTAINS 2"))
        XCTAssertTrue(try check("{'a', 'B'} CONTAINS[c] 'b'"))
    }

    func testAToManyWithoutModifierBehavesAsAny() throws {
        XCTAssertTrue(try check("actors.name == 'Lee'"))
        XCTAssertFalse(try check("actors.name == 'Stranger'"))
        XCTAssertTrue(try check("actors.age > 70"))
        XCTAssertTrue(try check("actors.name CONTAINS 'e'"), "CONTAINS through a to-many is a substring test per name")
        XCTAssertTrue(try check("actors.name BEGINSWITH[cd] 'an'"))
        XCTAssertTrue(try check("actors == %@", ana))
        XCTAssertTrue(try check("actors.name IN {'x', 'Kim'}"))
        XCTAssertFalse(try check("extras.name == 'Kim'"))
        XCTAssertTrue(try check("actors.manager.name == 'Stars'"))
        XCTAssertTrue(try check("actors.manager.name == nil"), "Lee has no manager")
    }

    func testModifiers() throws {
        XCTAssertTrue(try check("ANY actors.name == 'Kim'"))
        XCTAssertTrue(try check("SOME actors.age < 20"))
        XCTAssertFalse(try check("ANY actors.age > 80"))
        XCTAssertTrue(try check("ALL actors.age >= 19"))
        XCTAssertFalse(try check("ALL actors.age > 19"))
        XCTAssertTrue(try check("NONE actors.age > 80"))
        XCTAssertFalse(try check("NONE actors.name == 'Lee'"))
        XCTAssertTrue(try check("ANY actors == %@", kim))
        XCTAssertTrue(try check("ALL actors.name LIKE '?*'"))
        XCTAssertTrue(try check("ANY actors.name ==[cd] 'ana'"))
        XCTAssertTrue(try check("ANY actors.age BETWEEN {60, 80}"))
        XCTAssertTrue(try check("ANY actors.name IN {'Lee'}"))
        XCTAssertFalse(try check("ALL actors.manager.name == 'Stars'"), "Lee's nil manager fails ALL")
    }

    func testModifiersOnEmptyCollections() throws {
        XCTAssertFalse(try check("ANY extras.name == 'x'"))
        XCTAssertTrue(try check("ALL extras.name == 'x'"))
        XCTAssertTrue(try check("NONE extras.name == 'x'"))
        XCTAssertFalse(try check("ANY director.movies.title == 'x'"))
        XCTAssertTrue(try check("ALL sequel.actors.name == 'x'"), "a nil to-one on the way is an empty collection")
    }

    func testCount() throws {
        XCTAssertTrue(try check("actors.@count == 3"))
        XCTAssertTrue(try check("actors.@count > 2 AND extras.@count == 0"))
        XCTAssertTrue(try check("director.movies.@count == 0"))
        XCTAssertTrue(try check("sequel.actors.@count == 0"), "a nil to-one on the way counts as none")
        XCTAssertTrue(try check("%K == %d", "actors.@count", 3))
        XCTAssertTrue(try check("actors.@count BETWEEN {1, 5} AND actors.@count IN {3}"))
    }

    func testSumAverageMinimumMaximum() throws {
        XCTAssertTrue(try check("items.@sum.price == 30"))
        XCTAssertFalse(try check("items.@sum.price == 31"))
        XCTAssertTrue(try check("items.@avg.price == 15"), "nil prices are skipped, not counted as zero")
        XCTAssertTrue(try check("items.@min.price == 10 AND items.@max.price == 20"))
        XCTAssertTrue(try check("items.@sum.weight == 4.0 AND items.@avg.weight == 2.0"))
        XCTAssertTrue(try check("items.@sum.cost == %@", Decimal(string: "0.30")!))
        XCTAssertTrue(try check("items.@avg.cost == %@", Decimal(string: "0.15")!))
        XCTAssertTrue(try check("items.@min.label == 'a' AND items.@max.label == 'c'"))
        XCTAssertTrue(try check("items.@max.day == %@", Date(timeIntervalSince1970: 200)))
        XCTAssertTrue(try check("items.@sum.product.price == 14"), "through a to-one after the operator")
    }

    func testCollectionOperatorsOnEmptyCollections() throws {
        XCTAssertTrue(try check("extras.@sum.price == 0"))
        XCTAssertTrue(try check("extras.@avg.price == nil"))
        XCTAssertTrue(try check("extras.@min.price == nil AND extras.@max.price == nil"))
        XCTAssertFalse(try check("extras.@max.price > 0"))
    }

    func testCollectionErrors() {
        func assertError(_ format: String, _ fragment: String, keyPath: String, line: UInt = #line) {
            XCTAssertThrowsError(try check(format), line: line) { error in
                guard let error = error as? FetchPredicateError else { return XCTFail("\(error)", line: line) }
                XCTAssertEqual(error.kind, .evaluation, line: line)
                XCTAssertEqual(error.keyPath, keyPath, line: line)
                XCTAssertTrue(error.message.contains(fragment), "'\(error.message)' lacks '\(fragment)'", line: line)
            }
        }
        assertError("title.@count == 1", "needs a to-many key path before it, but 'title' is string",
                    keyPath: "title.@count")
        assertError("director.@count == 1", "'director' is a to-one", keyPath: "director.@count")
        assertError("items.@sum.label == 1", "@sum needs numbers, but found string", keyPath: "items.@sum.label")
        assertError("items.@avg.product == 1", "@avg needs values", keyPath: "items.@avg.product")
        assertError("actors == 'Kim'", "needs values of the same kind", keyPath: "actors")
        assertError("title == actors.name", "on the right of == is a collection", keyPath: "actors.name")
        assertError("ANY title == 'x'", "ANY needs a to-many key path", keyPath: "title")
    }
}
