import Foundation
@_spi(PredicateParsing) import Persistence
import XCTest

/// `evaluate(with:)` on every value NSPredicate evaluates — strings, numbers, dates and the other plain values for
/// `SELF`, nil and `NSNull`, arrays, sets and ordered sets, dictionaries and the key paths through them — with
/// NSPredicate's answers, and a clear error for a value whose keys cannot be read; and, on managed objects and on
/// dictionaries made of them, the same answers as the store's.
final class PredicateValueEvaluationTests: PersistenceTestCase {
    private func holds(_ format: String, _ arguments: Any?..., on value: Any?,
                       file: StaticString = #filePath, line: UInt = #line) throws -> Bool {
        try FetchPredicate(parsing: format, argumentArray: arguments).evaluate(checking: value)
    }

    private func assertHolds(_ format: String, _ arguments: Any?..., on value: Any?, _ expected: Bool = true,
                             file: StaticString = #filePath, line: UInt = #line) {
        do {
            let result = try FetchPredicate(parsing: format, argumentArray: arguments).evaluate(checking: value)
            XCTAssertEqual(result, expected, "\(format) on \(String(describing: value))", file: file, line: line)
        } catch {
            XCTFail("\(format) on \(String(describing: value)) threw \(error)", file: file, line: line)
        }
    }

    /// Asserts that evaluating fails with an evaluation error whose message has every fragment.
    private func assertFails(_ format: String, _ arguments: Any?..., on value: Any?, _ fragments: String...,
                             file: StaticString = #filePath, line: UInt = #line) {
        do {
            let result = try FetchPredicate(parsing: format, argumentArray: arguments).evaluate(checking: value)
            XCTFail("\(format) evaluated to \(result)", file: file, line: line)
        } catch let error as FetchPredicateError {
            XCTAssertEqual(error.kind, .evaluation, "\(error)", file: file, line: line)
            for fragment in fragments {
                XCTAssertTrue(error.message.contains(fragment), "'\(error.message)' lacks '\(fragment)'", file: file, line: line)
            }
        } catch {
            XCTFail("threw \(error)", file: file, line: line)
        }
    }

    // MARK: Plain values as SELF

    func testStrings() throws {
        assertHolds("SELF MATCHES %@", "[A-Z]{2}", on: "NO")
        assertHolds("SELF MATCHES %@", "[A-Z]{2}", on: "No", false)
        assertHolds("SELF MATCHES %@", "[A-Z]{2}", on: "NOR", false)  // the whole string must match
        assertHolds("SELF MATCHES %@", "[A-Z]{2}", on: NSString(string: "DK"))
        assertHolds("SELF BEGINSWITH[c] 'b'", on: "Ben")
        assertHolds("SELF ENDSWITH 'sa'", on: "Melissa")
        assertHolds("SELF LIKE[c] 'a*a'", on: "ABA")
        assertHolds("SELF LIKE[c] 'a*a'", on: "a", false)
        assertHolds("SELF == 'Ann'", on: "Ann Lee".prefix(3))  // a Substring is a string, as Apple bridges it
        // The Predicate Programming Guide's examples.
        assertHolds("SELF IN %@", ["Stig", "Shaffiq", "Chris"], on: "Shaffiq")
        let names = ["Nick", "Ben", "Adam", "Melissa"]
        XCTAssertEqual(names.filter { FetchPredicate(format: "SELF beginswith[c] 'b'").evaluate(with: $0) }, ["Ben"])
        XCTAssertEqual(names.filter { FetchPredicate(format: "SELF contains[c] 'e'").evaluate(with: $0) }, ["Ben", "Melissa"])
        assertHolds("SELF BETWEEN {'a', 'c'}", on: "b")
        assertHolds("SELF > 'b'", on: "a", false)
    }

    func testNumbersOfEveryType() throws {
        let thirty: [Any] = [30, Int8(30), Int16(30), Int32(30), Int64(30), UInt(30), UInt8(30), UInt16(30), UInt32(30),
                             UInt64(30), 30.0, Float(30), CGFloat(30), Decimal(30), NSNumber(value: 30),
                             NSNumber(value: 30.0), NSDecimalNumber(string: "30")]
        for value in thirty {
            assertHolds("SELF > 20", on: value)
            assertHolds("SELF == 30", on: value)
            assertHolds("SELF BETWEEN {29.5, 30}", on: value)
            assertHolds("SELF IN {1, 30}", on: value)
        }
        assertHolds("SELF == YES", on: true)
        assertHolds("SELF == 1", on: true)  // Booleans are numbers, as NSNumber holds them
        assertHolds("SELF == NO", on: NSNumber(value: false))
        assertHolds("SELF BETWEEN {1, 5}", on: 6, false)
        assertFails("SELF > 1", on: UInt64.max, "does not fit in 64 bits")
    }

    func testDatesDataIdentifiersURLsAndDecimals() throws {
        let early = Date(timeIntervalSince1970: 0), middle = Date(timeIntervalSince1970: 50), late = Date(timeIntervalSince1970: 100)
        assertHolds("SELF > %@", early, on: late)
        assertHolds("SELF BETWEEN %@", [early, late], on: middle)
        assertHolds("SELF == %@", Data([1, 2]), on: Data([1, 2]))
        assertHolds("SELF == %@", Data([1, 2]), on: Data([2, 1]), false)
        let id = UUID()
        assertHolds("SELF == %@", id, on: id)
        assertHolds("SELF != %@", UUID(), on: id)
        let url = URL(string: "https://example.com/a")!
        assertHolds("SELF == %@", url, on: url)
        assertHolds("SELF > 1.5", on: Decimal(string: "2.25")!)
        assertHolds("SELF == %@", Decimal(string: "2.25")!, on: NSDecimalNumber(string: "2.25"))
        assertFails("SELF < %@", UUID(), on: id, "<", "UUID")
        // Foundation's classes are the same values.
        assertHolds("SELF > %@", early, on: NSDate(timeIntervalSince1970: 100))
        assertHolds("SELF == %@", Data([1, 2]), on: NSData(bytes: [1, 2] as [UInt8], length: 2))
        assertHolds("SELF == %@", id, on: NSUUID(uuidString: id.uuidString)!)
        assertHolds("SELF == %@", url, on: NSURL(string: "https://example.com/a")!)
    }

    func testNilAndNSNull() throws {
        for nothing in [nil, NSNull(), Optional<String>.none as Any] as [Any?] {
            assertHolds("SELF == nil", on: nothing)
            assertHolds("SELF != nil", on: nothing, false)
            assertHolds("name == nil", on: nothing)
            assertHolds("address.city == nil", on: nothing)
            assertHolds("SELF > 3", on: nothing, false)
            assertHolds("SELF BEGINSWITH 'a'", on: nothing, false)
        }
        assertHolds("SELF == nil", on: "", false)
    }

    func testMixedKindsAndStringOptions() throws {
        // A comparison between kinds that do not compare is an error, never a silent false.
        assertFails("SELF == 'x'", on: 1, "==", "integer", "string")
        assertFails("SELF > %@", Date(), on: 5, ">", "date")
        assertFails("SELF BEGINSWITH 'a'", on: 5, "BEGINSWITH")
        assertHolds("SELF == nil", on: 1, false)
        assertHolds("SELF != nil", on: 1)
        assertHolds("SELF ==[c] 'ann'", on: "ANN")
        assertHolds("SELF == 'ann'", on: "ANN", false)
        assertHolds("SELF ==[d] 'naive'", on: "naïve")
        assertHolds("SELF ==[cd] 'NAIVE'", on: "naïve")
        assertHolds("SELF CONTAINS[cd] 'E'", on: "café")
        assertHolds("SELF LIKE 'a?c'", on: "abc")
        assertHolds("SELF MATCHES 'b.'", on: "abc", false)
    }

    // MARK: Collections

    func testArrays() throws {
        for numbers in [[1, 2, 3], NSArray(array: [1, 2, 3]), NSOrderedSet(array: [1, 2, 3])] as [Any] {
            assertHolds("SELF CONTAINS 2", on: numbers)
            assertHolds("SELF CONTAINS 5", on: numbers, false)
            assertHolds("2 IN SELF", on: numbers)
            assertHolds("ANY SELF > 2", on: numbers)
            assertHolds("ALL SELF > 0", on: numbers)
            assertHolds("ALL SELF > 1", on: numbers, false)
            assertHolds("NONE SELF == 4", on: numbers)
            assertHolds("SELF.@count == 3", on: numbers)
            assertHolds("SELF.@sum.self == 6", on: numbers)
            assertHolds("SELF.@avg.self == 2", on: numbers)
            assertHolds("SELF.@min.self == 1 AND SELF.@max.self == 3", on: numbers)
        }
        // An array is one value without ANY or ALL: it equals no number (NSPredicate answers false; this says why).
        assertFails("SELF == 1", on: [1], "is a collection", "ANY or ALL")
        assertHolds("SUBQUERY(SELF, $x, $x BEGINSWITH 'a').@count == 2", on: ["apple", "avocado", "banana"])
        // Arrays of arrays: each element is a collection.
        assertHolds("SUBQUERY(SELF, $a, $a.@count > 1).@count == 1", on: [[1, 2], [3]])
        assertHolds("ANY SELF CONTAINS 3", on: [[1, 2], [3]])
        assertHolds("SELF.@count == 2", on: ["a", nil] as [String?])  // nil elements count, as NSNull in an NSArray
    }

    func testSets() throws {
        for letters in [Set(["a", "b"]), NSSet(array: ["a", "b"])] as [Any] {
            assertHolds("SELF CONTAINS 'a'", on: letters)
            assertHolds("'b' IN SELF", on: letters)
            assertHolds("SELF.@count == 2", on: letters)
            assertHolds("ANY SELF == 'b'", on: letters)
            assertHolds("ALL SELF < 'c'", on: letters)
            assertHolds("SELF.@max.self == 'b'", on: letters)
        }
    }

    func testInWithArraysSetsAndDictionaries() throws {
        assertHolds("SELF IN %@", ["Oslo", "Bergen"], on: "Oslo")
        assertHolds("SELF IN %@", Set(["Oslo"]), on: "Oslo")
        assertHolds("SELF IN %@", NSArray(array: ["Oslo"]), on: "Oslo")
        // A dictionary on the right of IN stands for its values (Apple's format syntax).
        let cities = ["no": "Oslo", "se": "Stockholm"]
        assertHolds("SELF IN %@", cities, on: "Oslo")
        assertHolds("SELF IN %@", cities, on: "no", false)
        assertHolds("SELF IN[c] %@", NSDictionary(dictionary: cities), on: "STOCKHOLM")
        assertHolds("'Oslo' IN address", on: ["address": ["city": "Oslo"]])
        assertHolds("city IN SELF", on: ["city": "Oslo", "capital": "Oslo"])
    }

    // MARK: Dictionaries

    private let ann: [String: Any] = [
        "name": "Ann", "age": 34, "address": ["city": "Oslo", "zip": "0150"], "tags": ["admin", "ops"],
        "scores": [3, 4, 5], "nickname": NSNull(), "joined": Date(timeIntervalSince1970: 0),
    ]

    func testDictionaries() throws {
        for person in [ann, NSDictionary(dictionary: ann)] as [Any] {
            assertHolds("name == 'Ann' AND age > 30", on: person)
            assertHolds("address.city == 'Oslo'", on: person)
            assertHolds("address.country == nil", on: person)  // a missing key reads nil
            assertHolds("missing == nil AND missing.deeper == nil", on: person)
            assertHolds("nickname == nil", on: person)
            assertHolds("joined < %@", Date(), on: person)
            assertHolds("tags CONTAINS 'ops'", on: person)
            assertHolds("tags CONTAINS 'op'", on: person, false)  // membership, not a substring
            assertHolds("ANY tags BEGINSWITH 'ad'", on: person)
            assertHolds("tags.@count == 2 AND scores.@sum.self == 12 AND scores.@avg.self == 4", on: person)
            assertHolds("ALL scores >= 3", on: person)
            assertHolds("SUBQUERY(tags, $t, $t LIKE '*o*').@count == 1", on: person)
        }
        assertFails("tags == 'admin'", on: ann, "is a collection")
        assertFails("name.first == 'A'", on: ann, "'name'", "string", "'first'")
        assertFails("SELF == %@", UUID(), on: ann, "==")
        let people: [[String: Any]] = [ann, ["name": "Bob", "age": 17, "address": ["city": "Oslo"]], ["name": "Cy", "age": 40]]
        let adults = people.filter { FetchPredicate(format: "age >= 18 AND address.city == %@", "Oslo").evaluate(with: $0) }
        XCTAssertEqual(adults.map { $0["name"] as? String }, ["Ann"])
    }

    func testKeyPathsThroughArraysOfDictionaries() throws {
        let order: [String: Any] = ["items": [["name": "pen", "price": 2.5], ["name": "ink", "price": 7.0, "extra": ["size": 3]]]]
        assertHolds("items.@sum.price == 9.5 AND items.@max.price == 7 AND items.@count == 2", on: order)
        assertHolds("ANY items.name == 'ink'", on: order)
        assertHolds("ALL items.price > 2", on: order)
        assertHolds("items.name CONTAINS 'pen'", on: order)  // the array of names holds "pen"
        assertHolds("items.name CONTAINS 'pe'", on: order, false)
        assertHolds("'ink' IN items.name", on: order)
        assertHolds("SUBQUERY(items, $i, $i.price > 5).@count == 1", on: order)
        assertHolds("ANY SELF.name == 'pen'", on: order["items"])
        // An element without the key in the middle of a path has nothing to read it from, as NSNull has no keys.
        assertFails("ANY items.extra.size == 3", on: order, "'items.extra' is nil for an element")
    }

    func testDictionariesHoldingManagedObjects() throws {
        let ridley = Director(context: context)
        ridley.name = "Ridley"
        let alien = makeMovie("Alien", year: 1979)
        alien.director = ridley
        let sigourney = Actor(context: context), john = Actor(context: context)
        sigourney.name = "Sigourney"
        john.name = "John"
        alien.actors = [sigourney, john]
        try context.save()
        let row: [String: Any] = ["movie": alien, "cast": [sigourney, john], "note": "sequel"]
        assertHolds("movie.title == 'Alien' AND movie.director.name == 'Ridley'", on: row)
        assertHolds("movie.actors.@count == 2 AND ANY movie.actors.name == 'John'", on: row)
        assertHolds("ANY cast.name == 'Sigourney' AND cast.@count == 2", on: row)
        assertHolds("movie == %@ AND cast CONTAINS %@", alien, john, on: row)
        assertHolds("%@ IN cast", ridley, on: row, false)
        assertFails("SELF == %@", alien, on: row, "dictionary has no object ID")
        XCTAssertEqual([alien, ridley].map { FetchPredicate(format: "SELF == %@", alien).evaluate(with: $0) }, [true, false])
    }

    // MARK: Values with no keys

    private struct Point {
        var x = 1
    }

    func testValuesWithoutKeysFailNamingTheTypeAndKey() throws {
        assertHolds("TRUEPREDICATE", on: Point())
        assertHolds("SELF != nil", on: Point())
        assertHolds("SELF == nil", on: Point(), false)
        assertFails("x == 1", on: Point(), "Point", "'x'", "key-value coding")
        assertFails("p.x == 1", on: ["p": Point()], "Point", "'x'")
        assertHolds("p != nil", on: ["p": Point()])
        assertFails("SELF == 1", on: Point(), "Point")
        // Strings, numbers and dates have no keys here either (key-value coding's `length` of an NSString included).
        assertFails("SELF.length > 2", on: "abc", "string", "'length'")
        assertFails("year == 2000", on: 2000, "integer", "'year'")
    }

    // MARK: Forms for collections

    /// The forms that take the value evaluated as a collection write back to themselves, and on a managed object —
    /// in memory and in a fetch — they are errors, as an object is not a collection.
    func testCollectionFormsRoundTripAndFailOnObjects() throws {
        let forms = ["SELF.@count > 1", "SELF.@sum.self == 6", "ANY SELF == 1", "NONE SELF == 1", "1 IN SELF",
                     "SUBQUERY(SELF, $x, $x.@count > 0).@count > 0"]
        let movie = makeMovie("Alien", year: 1979)
        try context.save()
        for form in forms {
            let predicate = try FetchPredicate(parsing: form)
            XCTAssertEqual(try FetchPredicate(parsing: predicate.predicateFormat), predicate, predicate.predicateFormat)
            XCTAssertThrowsError(try predicate.evaluate(checking: movie), form)
            let request = FetchRequest<Movie>(entityName: "Movie")
            request.predicate = predicate
            XCTAssertThrowsError(try context.fetch(request), form)
        }
        XCTAssertEqual(try FetchPredicate(parsing: "SUBQUERY(items, $i, $i.@count > 0).@count > 0").predicateFormat,
                       "SUBQUERY(items, $i, $i.@count > 0).@count > 0")
    }

    // MARK: Agreement with the store

    /// Each predicate selects the same movies in memory (on the objects, and on a dictionary of each movie's values
    /// holding its related objects) as in SQL.
    func testManagedObjectsAndTheirDictionariesAgreeWithTheStore() throws {
        func build(_ context: ManagedObjectContext) {
            func actor(_ name: String) -> Actor {
                let actor = Actor(context: context)
                actor.name = name
                return actor
            }
            let ann = actor("Ann"), bo = actor("Bo"), kim = actor("Kim")
            let kurosawa = Director(context: context)
            kurosawa.name = "Kurosawa"
            let rows: [(String, Int, Double?, Director?, Set<Actor>)] = [
                ("Alien", 1979, 8.5, nil, [ann, bo]), ("Ran", 1985, 8.2, kurosawa, [kim]),
                ("Heat", 1995, nil, nil, []), ("Ikiru", 1952, 8.3, kurosawa, [ann, bo, kim]),
            ]
            for (title, year, rating, director, actors) in rows {
                let movie = Movie(context: context)
                movie.title = title
                movie.year = year
                movie.rating = rating.map { NSNumber(value: $0) }
                movie.director = director
                movie.actors = actors
            }
        }
        let predicates: [FetchPredicate] = [
            FetchPredicate(format: "title IN %@", ["Alien", "Heat"]),
            FetchPredicate(format: "title IN %@", Set(["Ran"])),
            FetchPredicate(format: "title IN %@", ["first": "Ikiru", "second": "Heat"]),
            FetchPredicate(format: "year BETWEEN %@", [1979, 1990]),
            FetchPredicate(format: "ANY actors.name IN %@", Set(["Kim"])),
            FetchPredicate(format: "actors.@count >= 2"),
            FetchPredicate(format: "title MATCHES %@", "[A-R].*"),
            FetchPredicate(format: "title LIKE[c] '*a*'"),
            FetchPredicate(format: "director.name BEGINSWITH[cd] 'k'"),
            FetchPredicate(format: "rating > 8.25 OR rating == nil"),
            FetchPredicate(format: "NONE actors.name == 'Ann'"),
            FetchPredicate(format: "ALL actors.name != 'Bo'"),
            FetchPredicate(format: "SUBQUERY(actors, $a, $a.name CONTAINS 'o').@count > 0"),
            FetchPredicate(format: "director == nil AND year < 1990"),
        ]
        let lines = try predicateDisagreements(predicates, build: build)
        XCTAssertTrue(lines.isEmpty, lines.joined(separator: "\n"))

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let movies = try reader.fetch(FetchRequest<Movie>(entityName: "Movie"))
            XCTAssertEqual(movies.count, 4)
            let rows: [[String: Any]] = movies.map { movie in
                ["title": movie.title, "year": movie.year, "rating": movie.rating as Any,
                 "director": movie.director as Any, "actors": movie.actors]
            }
            for predicate in predicates {
                let request = FetchRequest<Movie>(entityName: "Movie")
                request.predicate = predicate
                let stored = Set(try reader.fetch(request).map(\.title))
                let viaRows = Set(try rows.filter { try predicate.evaluate(checking: $0) }.map { $0["title"] as! String })
                XCTAssertEqual(viaRows, stored, predicate.predicateFormat)
            }
        }
    }
}
