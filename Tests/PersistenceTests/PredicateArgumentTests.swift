import Foundation
import XCTest
@_spi(TestHarness) @_spi(PredicateParsing) @testable import Persistence

/// Placeholders and substitution variables: what each argument becomes, and the errors for bad ones.
final class PredicateArgumentTests: XCTestCase {
    /// The right side of `value == %@` (or another operator and placeholder) with one argument, given in an array
    /// (where a Swift number may stand for `%@`, as it does bridged to `NSNumber` on Apple).
    private func converted(_ argument: Any?, placeholder: String = "%@",
                           operator: String = "==") throws -> PredicateOperand {
        let predicate = try FetchPredicate(parsing: "value \(`operator`) \(placeholder)", argumentArray: [argument])
        guard case .comparison(let comparison) = predicate.expression else {
            throw FetchPredicateError(.syntax, "not a comparison")
        }
        return comparison.right
    }

    private func assertArgumentError(_ format: String, _ arguments: [Any?], index: Int?, offset: Int?,
                                     _ fragment: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let predicate = try FetchPredicate(parsing: format, argumentArray: arguments)
            XCTFail("\(format) parsed as \(predicate)", file: file, line: line)
        } catch let error as FetchPredicateError {
            XCTAssertEqual(error.kind, .argument, "\(error)", file: file, line: line)
            XCTAssertEqual(error.argumentIndex, index, "\(error)", file: file, line: line)
            XCTAssertEqual(error.offset, offset, "\(error)", file: file, line: line)
            XCTAssertTrue(error.message.contains(fragment), "'\(error.message)' lacks '\(fragment)'",
                          file: file, line: line)
        } catch {
            XCTFail("threw \(error)", file: file, line: line)
        }
    }

    func testScalarArguments() throws {
        let date = Date(timeIntervalSince1970: 1_000_000)
        let uuid = UUID()
        let url = URL(string: "https://example.com/x")!
        XCTAssertEqual(try converted("Alien"), .constant(.string("Alien")))
        XCTAssertEqual(try converted(Substring("sub")), .constant(.string("sub")))
        XCTAssertEqual(try converted(42), .constant(.integer(42)))
        XCTAssertEqual(try converted(Int8(-3)), .constant(.integer(-3)))
        XCTAssertEqual(try converted(UInt32(7)), .constant(.integer(7)))
        XCTAssertEqual(try converted(Int64.max), .constant(.integer(.max)))
        XCTAssertEqual(try converted(2.5), .constant(.double(2.5)))
        XCTAssertEqual(try converted(Float(0.5)), .constant(.double(0.5)))
        XCTAssertEqual(try converted(true), .constant(.bool(true)))
        XCTAssertEqual(try converted(date), .constant(.date(date)))
        XCTAssertEqual(try converted(uuid), .constant(.uuid(uuid)))
        XCTAssertEqual(try converted(url), .constant(.uri(url)))
        XCTAssertEqual(try converted(Data([1, 2])), .constant(.data(Data([1, 2]))))
        XCTAssertEqual(try converted(Decimal(string: "1.25")!), .constant(.decimal(Decimal(string: "1.25")!)))
        XCTAssertEqual(try converted(PersistentValue.integer(9)), .constant(.integer(9)))
    }

    func testNilArguments() throws {
        XCTAssertEqual(try converted(nil), .constant(.null))
        XCTAssertEqual(try converted(NSNull()), .constant(.null))
        let missing: String? = nil
        XCTAssertEqual(try converted(missing), .constant(.null))
        let present: Int?? = 5
        XCTAssertEqual(try converted(present as Any?), .constant(.integer(5)))
    }

    func testNSNumberArguments() throws {
        XCTAssertEqual(try converted(NSNumber(value: 5)), .constant(.integer(5)))
        XCTAssertEqual(try converted(NSNumber(value: 1)), .constant(.integer(1)))
        XCTAssertEqual(try converted(NSNumber(value: 2.5)), .constant(.double(2.5)))
        XCTAssertEqual(try converted(NSNumber(value: true)), .constant(.bool(true)))
        XCTAssertEqual(try converted(NSDecimalNumber(string: "2.75")), .constant(.decimal(Decimal(string: "2.75")!)))
    }

    func testCollectionArguments() throws {
        XCTAssertEqual(try FetchPredicate(parsing: "year IN %@", [1, 2]).expression,
                       .comparison(PredicateComparison(.keyPath(["year"]), .in,
                                                       .aggregate([.constant(.integer(1)), .constant(.integer(2))]))))
        let mixed: [Any?] = ["a", nil, 3]
        XCTAssertEqual(PredicateFormatter.format(try converted(mixed, operator: "IN")), "{\"a\", nil, 3}")
        let optionals: [String?] = ["a", nil]
        XCTAssertEqual(try converted(optionals, operator: "IN"),
                       .aggregate([.constant(.string("a")), .constant(.null)]))
        guard case .aggregate(let members) = try converted(Set([1, 2, 3]), operator: "IN") else {
            return XCTFail("not a list")
        }
        XCTAssertEqual(Set(members), [.constant(.integer(1)), .constant(.integer(2)), .constant(.integer(3))])
        XCTAssertEqual(try FetchPredicate(parsing: "year BETWEEN %@", [1990, 1999]).predicateFormat,
                       "year BETWEEN {1990, 1999}")
        XCTAssertEqual(try converted([String](), operator: "IN"), .aggregate([]))
    }

    func testObjectArguments() throws {
        let id = ManagedObjectID.permanent(entityName: "Movie", storeIdentifier: "S", primaryKey: 3)
        XCTAssertEqual(try converted(id), .object(id))
        XCTAssertEqual(try converted(ObjectStandIn(predicateObjectID: id)), .object(id))
        let other = ManagedObjectID.temporary(entityName: "Movie")
        XCTAssertEqual(try converted([ObjectStandIn(predicateObjectID: id), ObjectStandIn(predicateObjectID: other)],
                                     operator: "IN"),
                       .aggregate([.object(id), .object(other)]))
        assertArgumentError("SELF == %@", [ObjectStandIn(predicateObjectID: nil)], index: 0, offset: 8,
                            "has no object ID")
    }

    func testKeyPathArguments() throws {
        func left(_ format: String, _ arguments: Any?...) throws -> PredicateOperand {
            let expression = try FetchPredicate(parsing: format, argumentArray: arguments).expression
            guard case .comparison(let c) = expression else { throw FetchPredicateError(.syntax, "not a comparison") }
            return c.left
        }
        XCTAssertEqual(try left("%K == %@", "name", "x"), .keyPath(["name"]))
        XCTAssertEqual(try left("%K == 1", "director.name"), .keyPath(["director", "name"]))
        XCTAssertEqual(try left("%K == 1", "order"), .keyPath(["order"]))
        XCTAssertEqual(try left("%K == 1", "in"), .keyPath(["in"]))
        XCTAssertEqual(try left("%K > 1", "actors.@count"),
                       .collectionOperation(.count, collection: ["actors"], key: []))
        XCTAssertEqual(try left("%K.name == 1", "director"), .keyPath(["director", "name"]))
        XCTAssertEqual(try left("%K.@sum.price > 1", "items"),
                       .collectionOperation(.sum, collection: ["items"], key: ["price"]))
        XCTAssertEqual(try left("%K == nil", "SELF"), .evaluatedObject)
        XCTAssertEqual(try left("ANY %K == 1", "actors.age"), .keyPath(["actors", "age"]))
        XCTAssertEqual(try FetchPredicate(parsing: "%K == 1", "in").predicateFormat, "#in == 1")
    }

    /// "%K is a var arg substitution for a key path", also after a dot: `%K.%K`, `director.%K`, `%K.%K.%K`.
    func testKeyPathArgumentsAfterADot() throws {
        func left(_ format: String, _ arguments: Any?...) throws -> PredicateOperand {
            let expression = try FetchPredicate(parsing: format, argumentArray: arguments).expression
            guard case .comparison(let c) = expression else { throw FetchPredicateError(.syntax, "not a comparison") }
            return c.left
        }
        XCTAssertEqual(try left("%K.%K == %@", "director", "name", "x"), .keyPath(["director", "name"]))
        XCTAssertEqual(try left("director.%K == 1", "name"), .keyPath(["director", "name"]))
        XCTAssertEqual(try left("%K.%K.%K == 1", "director", "movies", "title"), .keyPath(["director", "movies", "title"]))
        XCTAssertEqual(try left("%K.%K > 1", "director.movies", "@count"),
                       .collectionOperation(.count, collection: ["director", "movies"], key: []))
        XCTAssertEqual(try left("%K.@sum.%K > 1", "items", "price"),
                       .collectionOperation(.sum, collection: ["items"], key: ["price"]))
        XCTAssertEqual(try FetchPredicate(parsing: "%K.%K == %@", "director", "name", "x").predicateFormat,
                       #"director.name == "x""#)
        assertArgumentError("director.%K == 1", [3], index: 0, offset: 9, "%K expects a key path string, got Int")
        assertArgumentError("director.%K == 1", ["a b"], index: 0, offset: 9, "is not a key path")
        assertArgumentError("director.%K == %@", [], index: 0, offset: 9, "no argument for %K")
    }

    func testKeyPathArgumentErrors() {
        assertArgumentError("%K == 1", [3], index: 0, offset: 0, "%K expects a key path string, got Int")
        assertArgumentError("%K == 1", [nil], index: 0, offset: 0, "got nil")
        assertArgumentError("name == 1 AND %K == 1", ["first name"], index: 0, offset: 14, "is not a key path")
        assertArgumentError("%K == 1", ["a..b"], index: 0, offset: 0, "is not a key path")
        assertArgumentError("%K == 1", [""], index: 0, offset: 0, "is not a key path")
        assertArgumentError("%K == 1", ["actors.@sum"], index: 0, offset: 0, "@sum needs a key after it")
        assertArgumentError("%K == 1", ["actors.@nope"], index: 0, offset: 0, "unknown collection operator")
    }

    func testPrintfStylePlaceholders() throws {
        XCTAssertEqual(try converted(5, placeholder: "%d"), .constant(.integer(5)))
        XCTAssertEqual(try converted(-5, placeholder: "%i"), .constant(.integer(-5)))
        XCTAssertEqual(try converted(Int64(1) << 40, placeholder: "%ld"), .constant(.integer(1 << 40)))
        XCTAssertEqual(try converted(Int64(7), placeholder: "%lld"), .constant(.integer(7)))
        XCTAssertEqual(try converted(UInt(8), placeholder: "%u"), .constant(.integer(8)))
        XCTAssertEqual(try converted(UInt64(9), placeholder: "%lu"), .constant(.integer(9)))
        XCTAssertEqual(try converted(NSNumber(value: 4), placeholder: "%d"), .constant(.integer(4)))
        XCTAssertEqual(try converted(2.5, placeholder: "%f"), .constant(.double(2.5)))
        XCTAssertEqual(try converted(Float(1.5), placeholder: "%lf"), .constant(.double(1.5)))
        XCTAssertEqual(try converted(3, placeholder: "%f"), .constant(.double(3)))
        XCTAssertEqual(try converted("text", placeholder: "%s"), .constant(.string("text")))
        // What the conversion prints does not matter to a predicate, only what the argument is.
        XCTAssertEqual(try converted(2.5, placeholder: "%a"), .constant(.double(2.5)))
        XCTAssertEqual(try converted(2.5, placeholder: "%la"), .constant(.double(2.5)))
        XCTAssertEqual(try converted(0.25, placeholder: "%A"), .constant(.double(0.25)))
        XCTAssertEqual(try converted(1e10, placeholder: "%e"), .constant(.double(1e10)))
        XCTAssertEqual(try converted(1e10, placeholder: "%lE"), .constant(.double(1e10)))
        XCTAssertEqual(try converted(3.5, placeholder: "%G"), .constant(.double(3.5)))
        XCTAssertEqual(try converted(255, placeholder: "%x"), .constant(.integer(255)))
        XCTAssertEqual(try converted(255, placeholder: "%lX"), .constant(.integer(255)))
        XCTAssertEqual(try converted(8, placeholder: "%o"), .constant(.integer(8)))
        assertArgumentError("n == %la", ["x"], index: 0, offset: 5, "expects a floating-point number, got String")
        assertArgumentError("n == %x", [2.5], index: 0, offset: 5, "expects an integer, got Double")
        assertArgumentError("n == %d", [2.5], index: 0, offset: 5, "expects an integer, got Double")
        assertArgumentError("n == %d", [UInt64.max], index: 0, offset: 5, "does not fit in 64 bits")
        assertArgumentError("n == %f", ["x"], index: 0, offset: 5, "expects a floating-point number, got String")
        assertArgumentError("n == %s", [1], index: 0, offset: 5, "expects a string, got Int")
    }

    func testArgumentCountMismatch() {
        assertArgumentError("a == %@ AND b == %@", ["x"], index: 1, offset: 17, "no argument for %@ at index 1")
        assertArgumentError("a == %@", [], index: 0, offset: 5, "only 0 given")
        assertArgumentError("a == %@", ["x", "y", "z"], index: 1, offset: nil,
                            "3 arguments were given but the format uses 1")
        assertArgumentError("a == 1", [nil], index: 0, offset: nil, "the first unused one is at index 0")
    }

    func testUnsupportedArgumentTypes() {
        struct Opaque {}
        assertArgumentError("a == 1 OR b == %@", [Opaque()], index: 0, offset: 15, "Opaque is not a type")
        assertArgumentError("a IN %@", [[1, [2]] as [Any]], index: 0, offset: 5, "a collection inside a collection")
        assertArgumentError("a IN %@", [["k": [1]]], index: 0, offset: 5, "a collection inside a collection")
        assertArgumentError("a == %@", [[1, 2]], index: 0, offset: 5, "use IN or BETWEEN")
        assertArgumentError("a BETWEEN %@", [[1, 2, 3]], index: 0, offset: 10, "this list has 3")
        assertArgumentError("a IN {1, %@}", [[1, 2]], index: 0, offset: 9, "a list may hold only constants")
        assertArgumentError("a BEGINSWITH %@", [3], index: 0, offset: 13, "BEGINSWITH needs a string")
        assertArgumentError("a IN %@", [3], index: 0, offset: 5, "IN needs a list")
    }

    /// Core Data's variadic `NSPredicate(format:_:)` passes a Swift number or Bool as a C vararg, and `%@` reads it
    /// as an object pointer: a crash. Given one by one, such a value is refused for `%@`; an NSNumber, a number in an
    /// array, and the same number for `%d` or `%f` are what to write instead, and are accepted.
    func testASwiftNumberOrBoolGivenOneByOneForAnObjectPlaceholderIsRefused() throws {
        let maybe: Int? = 4
        let refused: [(value: Any?, type: String, instead: String)] = [
            (1, "Int", "NSNumber(value: 1)"), (Int16(3), "Int16", "%d"), (UInt8(2), "UInt8", "%d"),
            (maybe, "Int", "NSNumber(value: 4)"), (2.5, "Double", "%f"), (Float(0.5), "Float", "NSNumber(value: 0.5)"),
            (CGFloat(1.5), "CGFloat", "%f"), (true, "Bool", "NSNumber(value: true)"), (false, "Bool", "NSNumber(value: false)"),
        ]
        for (value, type, instead) in refused {
            XCTAssertThrowsError(try FetchPredicate(parsing: "name == 'x' AND box == %@", value), type) { error in
                let failure = error as? FetchPredicateError
                XCTAssertEqual(failure?.kind, .argument, "\(error)")
                XCTAssertEqual(failure?.argumentIndex, 0, "\(error)")
                XCTAssertEqual(failure?.offset, 23, "\(error)")
                let message = failure?.message ?? ""
                XCTAssertTrue(message.contains("a Swift \(type) ("), message)
                XCTAssertTrue(message.contains("object pointer") && message.contains(instead), message)
            }
        }
        // The second argument is the culprit: the first, a string, is an object on Apple too.
        XCTAssertThrowsError(try FetchPredicate(parsing: "name == %@ AND box == %@", "Ann", 7)) { error in
            XCTAssertEqual((error as? FetchPredicateError)?.argumentIndex, 1, "\(error)")
        }
        // What to write instead.
        let box = try FetchPredicate(parsing: "box == 1")
        XCTAssertEqual(try FetchPredicate(parsing: "box == %@", NSNumber(value: 1)), box)
        XCTAssertEqual(try FetchPredicate(parsing: "box == %d", 1), box)
        XCTAssertEqual(try FetchPredicate(parsing: "box == %@", argumentArray: [1]), box)
        XCTAssertEqual(FetchPredicate(format: "box == %@", argumentArray: [1]), box)
        XCTAssertEqual(try FetchPredicate(parsing: "done == %@", NSNumber(value: true)).predicateFormat, "done == TRUE")
        XCTAssertEqual(try FetchPredicate(parsing: "celsius < %f", -0.5).predicateFormat, "celsius < -0.5")
        XCTAssertEqual(try FetchPredicate(parsing: "box IN %@", [1, 2]).predicateFormat, "box IN {1, 2}")
        XCTAssertEqual(try FetchPredicate(parsing: "price == %@", Decimal(2)).predicateFormat,
                       try FetchPredicate(parsing: "price == %@", NSDecimalNumber(value: 2)).predicateFormat)
        // Variables are given in a dictionary, which bridges on Apple as an array does.
        XCTAssertEqual(try FetchPredicate(parsing: "box == $BOX").withSubstitutionVariables(checking: ["BOX": 1]), box)
    }

    func testArgumentErrorDescriptionShowsThePlaceholder() {
        do {
            _ = try FetchPredicate(parsing: "year > %d", "1999")
            XCTFail("parsed")
        } catch let error as FetchPredicateError {
            XCTAssertEqual(error.description, """
                Predicate argument error at column 8: argument at index 0 for %d: expects an integer, got String
                  year > %d
                         ^
                """)
        } catch {
            XCTFail("threw \(error)")
        }
    }

    // MARK: Substitution variables

    func testSubstitutionReplacesVariables() throws {
        let template = try FetchPredicate(parsing: "name == $NAME AND year IN $YEARS AND director == $WHO")
        let id = ManagedObjectID.permanent(entityName: "Person", storeIdentifier: "S", primaryKey: 1)
        let filled = template.withSubstitutionVariables(
            ["NAME": "Alien", "YEARS": [1979, 1986], "WHO": ObjectStandIn(predicateObjectID: id), "UNUSED": 1])
        XCTAssertEqual(filled, try FetchPredicate(parsing: "name == %@ AND year IN %@ AND director == %@",
                                                  "Alien", [1979, 1986], id))
        XCTAssertEqual(try template.withSubstitutionVariables(checking: ["NAME": nil, "YEARS": [], "WHO": nil]).predicateFormat,
                       "name == nil AND year IN {} AND director == nil")
        // Core Data's form takes [String: Any]: nil is NSNull there.
        XCTAssertEqual(template.withSubstitutionVariables(["NAME": NSNull(), "YEARS": [Int](), "WHO": NSNull()]).predicateFormat,
                       "name == nil AND year IN {} AND director == nil")
        // The template is unchanged: predicates are values.
        XCTAssertEqual(template.predicateFormat, "name == $NAME AND year IN $YEARS AND director == $WHO")
    }

    func testSubstitutionInsideListsAndModifiers() throws {
        let template = try FetchPredicate(parsing: "NOT ANY actors.age BETWEEN {$LOW, $HIGH} OR name IN {'a', $B}")
        let filled = template.withSubstitutionVariables(["LOW": 18, "HIGH": 30, "B": "b"])
        XCTAssertEqual(filled.predicateFormat, "NOT ANY actors.age BETWEEN {18, 30} OR name IN {\"a\", \"b\"}")
        let range = try FetchPredicate(parsing: "age BETWEEN $R").withSubstitutionVariables(["R": [1, 5]])
        XCTAssertEqual(range.predicateFormat, "age BETWEEN {1, 5}")
    }

    func testSubstitutionErrors() throws {
        let template = try FetchPredicate(parsing: "name == $NAME AND year BETWEEN $R AND tag IN {1, $T}")
        func assertFails(_ variables: [String: Any?], _ fragment: String, line: UInt = #line) {
            XCTAssertThrowsError(try template.withSubstitutionVariables(checking: variables), line: line) { error in
                guard let error = error as? FetchPredicateError else { return XCTFail("\(error)", line: line) }
                XCTAssertEqual(error.kind, .argument, line: line)
                XCTAssertTrue(error.message.contains(fragment), "'\(error.message)' lacks '\(fragment)'", line: line)
                XCTAssertEqual(error.format, template.predicateFormat, line: line)
            }
        }
        assertFails(["R": [1, 2], "T": 1], "no value for the variable $NAME")
        assertFails(["NAME": Date.self, "R": [1, 2], "T": 1], "the value for $NAME")
        assertFails(["NAME": ["a"], "R": [1, 2], "T": 1], "use IN or BETWEEN")
        assertFails(["NAME": "a", "R": [1, 2, 3], "T": 1], "this list has 3")
        assertFails(["NAME": "a", "R": 5, "T": 1], "BETWEEN needs a list")
        assertFails(["NAME": "a", "R": [1, 2], "T": [1]], "a list may not contain a collection")
    }
}

/// Stands in for a managed object passed as an argument.
private struct ObjectStandIn: PredicateObjectConvertible {
    var predicateObjectID: ManagedObjectID?
}
