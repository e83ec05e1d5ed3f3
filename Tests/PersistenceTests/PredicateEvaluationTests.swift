import Foundation
import XCTest
@_spi(TestHarness) @_spi(PredicateCompounds) @_spi(PredicateParsing) @testable import Persistence

/// In-memory evaluation of comparisons on single values and objects: equality, ordering, BETWEEN, IN, nil, numbers,
/// dates, identities, and the errors for values that cannot be compared.
final class PredicateEvaluationTests: XCTestCase {
    private let date1979 = Date(timeIntervalSince1970: 296_000_000)
    private let date1986 = Date(timeIntervalSince1970: 521_000_000)
    private let uuid = UUID()

    private lazy var director = PredicateTestObject("Person", ["name": "Ridley", "age": 86, "manager": nil])
    private lazy var movie = PredicateTestObject("Movie", [
        "title": "Alien", "year": 1979, "rating": 8.5, "budget": Decimal(string: "11000000.50")!,
        "released": date1979, "isClassic": true, "code": uuid, "site": URL(string: "https://example.com/alien")!,
        "poster": Data([1, 2, 3]), "tagline": nil, "director": director, "sequel": nil,
    ])

    private func check(_ format: String, _ arguments: Any?..., on object: PredicateTestObject? = nil,
                       file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        try FetchPredicate(parsing: format, argumentArray: arguments).evaluate(checking: object ?? movie)
    }

    private func assertEvaluationError(_ format: String, _ arguments: Any?..., keyPath: String?, _ fragment: String,
                                       file: StaticString = #filePath, line: UInt = #line) {
        do {
            let predicate = try FetchPredicate(parsing: format, argumentArray: arguments)
            let result = try predicate.evaluate(checking: movie)
            XCTFail("\(format) evaluated to \(result)", file: file, line: line)
        } catch let error as FetchPredicateError {
            XCTAssertEqual(error.kind, .evaluation, "\(error)", file: file, line: line)
            XCTAssertEqual(error.keyPath, keyPath, "\(error)", file: file, line: line)
            XCTAssertTrue(error.message.contains(fragment), "'\(error.message)' lacks '\(fragment)'",
                          file: file, line: line)
        } catch {
            XCTFail("threw \(error)", file: file, line: line)
        }
    }

    func testEqualityOfEachKind() throws {
        XCTAssertTrue(try check("title == 'Alien'"))
        XCTAssertFalse(try check("title == 'alien'"))
        XCTAssertTrue(try check("title != 'Aliens'"))
        XCTAssertTrue(try check("year == 1979"))
        XCTAssertTrue(try check("rating == 8.5"))
        XCTAssertTrue(try check("budget == %@", Decimal(string: "11000000.50")!))
        XCTAssertTrue(try check("released == %@", date1979))
        XCTAssertFalse(try check("released == %@", date1986))
        XCTAssertTrue(try check("code == %@", uuid))
        XCTAssertTrue(try check("code != %@", UUID()))
        XCTAssertTrue(try check("site == %@", URL(string: "https://example.com/alien")!))
        XCTAssertTrue(try check("poster == %@", Data([1, 2, 3])))
        XCTAssertTrue(try check("isClassic == YES AND isClassic != NO"))
    }

    func testNumbersCompareAcrossKinds() throws {
        XCTAssertTrue(try check("year == 1979.0"))
        XCTAssertTrue(try check("year == %@", Decimal(1979)))
        XCTAssertTrue(try check("rating > 8 AND rating < 9"))
        XCTAssertTrue(try check("budget > 11000000 AND budget < 11000000.75"))
        XCTAssertTrue(try check("isClassic == 1 AND isClassic > 0"))
        XCTAssertTrue(try check("rating == %@", Decimal(string: "8.5")!))
        XCTAssertTrue(try check("year > %d AND year < %f", 1900, 1979.5))
        XCTAssertTrue(try check("year == %@", NSNumber(value: 1979)))
    }

    func testNaNIsUnorderedAndEqualToNothing() throws {
        let nan = PredicateTestObject("Sample", ["value": Double.nan, "values": [PredicateTestObject]()])
        for format in ["value == %@", "value < %@", "value <= %@", "value > %@", "value >= %@", "value IN {%@}"] {
            XCTAssertFalse(try FetchPredicate(parsing: format, NSNumber(value: Double.nan)).evaluate(checking: nan), format)
            XCTAssertFalse(try FetchPredicate(parsing: format, NSNumber(value: 1)).evaluate(checking: nan), format)
        }
        XCTAssertTrue(try FetchPredicate(parsing: "value != %@", NSNumber(value: Double.nan)).evaluate(checking: nan))
    }

    func testOrdering() throws {
        XCTAssertTrue(try check("year < 1980 AND year <= 1979 AND year > 1978 AND year >= 1979"))
        XCTAssertFalse(try check("year < 1979 OR year > 1979"))
        XCTAssertTrue(try check("released < %@", date1986))
        XCTAssertTrue(try check("title > 'Aardvark' AND title < 'Aliens'"))
        XCTAssertTrue(try check("title < 'a'"), "uppercase sorts before lowercase without [c]")
        XCTAssertFalse(try check("title <[c] 'a'"))
        XCTAssertTrue(try check("title >[c] 'ALIBI'"))
        XCTAssertTrue(try check("title ==[c] 'ALIEN' AND title <=[c] 'alien' AND title >=[c] 'aLiEn'"))
    }

    func testBetween() throws {
        XCTAssertTrue(try check("year BETWEEN {1970, 1980}"))
        XCTAssertTrue(try check("year BETWEEN {1979, 1979}"), "bounds are inclusive")
        XCTAssertFalse(try check("year BETWEEN {1980, 1990}"))
        XCTAssertTrue(try check("year BETWEEN %@", [1979.0, 1979.5]))
        XCTAssertTrue(try check("released BETWEEN %@", [date1979, date1986]))
        XCTAssertTrue(try check("title BETWEEN[c] {'a', 'b'}"))
        XCTAssertFalse(try check("title BETWEEN {'a', 'b'}"))
        XCTAssertFalse(try check("tagline BETWEEN {'a', 'z'}"))
        XCTAssertFalse(try check("year BETWEEN {nil, 2000}"))
    }

    func testIn() throws {
        XCTAssertTrue(try check("year IN {1979, 1986}"))
        XCTAssertFalse(try check("year IN {}"))
        XCTAssertTrue(try check("year IN %@", [1986.0, 1979.0]))
        XCTAssertTrue(try check("year IN %@", Set([1979, 2000])))
        XCTAssertTrue(try check("title IN[c] {'ALIEN', 'Aliens'}"))
        XCTAssertFalse(try check("title IN {'ALIEN', 'Aliens'}"))
        XCTAssertTrue(try check("title IN 'Alien³ and Aliens'"), "IN with a string is a substring test")
        XCTAssertTrue(try check("'lie' IN title"))
        XCTAssertTrue(try check("tagline IN {nil, 'x'}"), "IN is a disjunction of ==, and nil == nil")
        XCTAssertFalse(try check("tagline IN {'x'}"))
    }

    func testNilRules() throws {
        XCTAssertTrue(try check("tagline == nil"))
        XCTAssertFalse(try check("tagline != nil"))
        XCTAssertTrue(try check("title != nil AND nil != title"))
        XCTAssertTrue(try check("tagline != 'x'"), "nil differs from every value")
        XCTAssertFalse(try check("tagline == 'x'"))
        for op in ["<", "<=", ">", ">="] {
            XCTAssertFalse(try check("tagline \(op) 'x'"), op)
            XCTAssertFalse(try check("year \(op) nil"), op)
            XCTAssertFalse(try check("tagline \(op) nil"), op)
        }
        for op in ["CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES"] {
            XCTAssertFalse(try check("tagline \(op) 'x'"), op)
            XCTAssertFalse(try check("title \(op) nil"), op)
        }
        XCTAssertTrue(try check("sequel == nil AND director != nil"))
    }

    func testToOneKeyPaths() throws {
        XCTAssertTrue(try check("director.name == 'Ridley'"))
        XCTAssertTrue(try check("director.age > 80"))
        XCTAssertTrue(try check("sequel.title == nil"), "nil propagates through a nil to-one")
        XCTAssertFalse(try check("sequel.title == 'Aliens'"))
        XCTAssertTrue(try check("director.manager.name == nil"))
        XCTAssertTrue(try check("SELF.director.name == 'Ridley'"))
    }

    func testObjectsCompareByID() throws {
        let sameID = PredicateTestObject("Person", id: director.predicateObjectID, ["name": "someone else"])
        XCTAssertTrue(try check("director == %@", director))
        XCTAssertTrue(try check("director == %@", sameID), "identity is the object ID, not the values")
        XCTAssertTrue(try check("director == %@", director.predicateObjectID))
        XCTAssertFalse(try check("director == %@", movie))
        XCTAssertTrue(try check("director != %@", movie))
        XCTAssertTrue(try check("SELF == %@", movie))
        XCTAssertTrue(try check("SELF != %@", director))
        XCTAssertTrue(try check("SELF IN %@", [director, movie]))
        XCTAssertFalse(try check("SELF IN %@", [director]))
        XCTAssertTrue(try check("director IN %@", [director]))
        XCTAssertFalse(try check("sequel == %@", director))
        XCTAssertTrue(try check("sequel != %@", director))
    }

    func testCompoundPredicates() throws {
        XCTAssertTrue(try check("year == 1979 AND (title == 'x' OR director.name == 'Ridley')"))
        XCTAssertFalse(try check("NOT year == 1979"))
        XCTAssertTrue(try check("TRUEPREDICATE"))
        XCTAssertFalse(try check("FALSEPREDICATE OR NOT TRUEPREDICATE"))
        XCTAssertTrue(try FetchPredicate.and([]).evaluate(checking: movie))
        XCTAssertFalse(try FetchPredicate.or([]).evaluate(checking: movie))
        // AND stops at the first false child, so the bad comparison after it is never reached.
        XCTAssertFalse(try check("year == 1 AND title > 3"))
        XCTAssertTrue(try check("year == 1979 OR title > 3"))
    }

    func testSubstitutedPredicatesEvaluate() throws {
        let template = try FetchPredicate(parsing: "year BETWEEN {$LO, $HI} AND director == $WHO")
        XCTAssertTrue(try template.withSubstitutionVariables(["LO": 1970, "HI": 1980, "WHO": director])
            .evaluate(checking: movie))
        XCTAssertFalse(try template.withSubstitutionVariables(["LO": 1980, "HI": 1990, "WHO": director])
            .evaluate(checking: movie))
        assertEvaluationError("year == $YEAR", keyPath: nil, "the variable $YEAR has no value")
    }

    func testTypeMismatchesAreErrors() {
        assertEvaluationError("title < 3", keyPath: "title", "< needs two numbers, two strings or two dates, but "
                              + "title is string and 3 is integer")
        assertEvaluationError("title == 3", keyPath: "title", "needs values of the same kind")
        assertEvaluationError("year == '1979'", keyPath: "year", "year is integer and \"1979\" is string")
        assertEvaluationError("year BEGINSWITH '19'", keyPath: "year", "BEGINSWITH needs two strings")
        assertEvaluationError("year CONTAINS '9'", keyPath: "year", "CONTAINS needs two strings")
        assertEvaluationError("released > 3", keyPath: "released", "date")
        assertEvaluationError("code < %@", UUID(), keyPath: "code", "UUID")
        assertEvaluationError("director == 'Ridley'", keyPath: "director", "director is object")
        assertEvaluationError("director < %@", director, keyPath: "director", "object")
        assertEvaluationError("year IN 'x'", keyPath: "year", "IN needs a collection")
        assertEvaluationError("title.length == 5", keyPath: "title.length",
                              "'title' is string \"Alien\", not an object")
        assertEvaluationError("ANY director.name == 'x'", keyPath: "director.name", "ANY needs a to-many key path")
        assertEvaluationError("ANY tagline == 'x'", keyPath: "tagline", "is a single value")
        assertEvaluationError("ALL sequel == nil", keyPath: "sequel", "ALL needs a to-many key path")
        assertEvaluationError("year.@count == 1", keyPath: "year.@count", "'year' is integer")
    }

    func testErrorDescriptionQuotesTheCanonicalFormat() {
        do {
            _ = try FetchPredicate(parsing: "year  >  'x'").evaluate(checking: movie)
            XCTFail("evaluated")
        } catch let error as FetchPredicateError {
            XCTAssertEqual(error.format, #"year > "x""#)
            XCTAssertEqual(error.description, """
                Predicate evaluation error: > needs two numbers, two strings or two dates, but year is integer \
                and "x" is string
                  year > "x"
                """)
        } catch {
            XCTFail("threw \(error)")
        }
    }

    func testUnknownKeysPropagateTheObjectsError() {
        XCTAssertThrowsError(try check("nope == 1")) { error in
            XCTAssertEqual(error as? PredicateTestObject.UnknownKey, PredicateTestObject.UnknownKey(key: "nope"))
        }
        XCTAssertThrowsError(try check("director.nope == 1")) { error in
            XCTAssertEqual(error as? PredicateTestObject.UnknownKey, PredicateTestObject.UnknownKey(key: "nope"))
        }
    }

    func testRowsWithoutIDs() throws {
        let row = PredicateTestObject("Movie", id: nil, ["title": "Alien"])
        XCTAssertTrue(try FetchPredicate(parsing: "title == 'Alien'").evaluate(checking: row))
        XCTAssertTrue(try FetchPredicate(parsing: "SELF != nil").evaluate(checking: row))
        XCTAssertThrowsError(try FetchPredicate(parsing: "SELF == %@", movie).evaluate(checking: row)) { error in
            XCTAssertEqual((error as? FetchPredicateError)?.kind, .evaluation)
            XCTAssertTrue("\(error)".contains("has no object ID"), "\(error)")
        }
    }
}

/// A dictionary-backed object for predicate tests: attribute values, another object for a to-one (nil for none),
/// an array of objects for a to-many. A key it does not have throws ``UnknownKey``.
final class PredicateTestObject: PredicateEvaluable {
    struct UnknownKey: Error, Equatable {
        var key: String
    }

    let predicateObjectID: ManagedObjectID?
    var values: [String: Any?]

    /// An object with a fresh (temporary) ID.
    init(_ entity: String, _ values: [String: Any?]) {
        self.predicateObjectID = .temporary(entityName: entity)
        self.values = values
    }

    /// An object with the given ID, or a row without one.
    init(_ entity: String, id: ManagedObjectID?, _ values: [String: Any?]) {
        self.predicateObjectID = id
        self.values = values
    }

    func predicateValue(forKey key: String) throws -> PredicateValue {
        guard let entry = values[key] else { throw UnknownKey(key: key) }
        switch entry {
        case nil: return .null
        case let object as PredicateTestObject: return .object(object)
        case let objects as [PredicateTestObject]: return .objects(objects)
        case let value:
            guard let stored = PersistentValue(any: value) else { throw UnknownKey(key: "\(key) (unsupported value)") }
            return .value(stored)
        }
    }
}
