import Foundation
@_spi(TestHarness) @_spi(PredicateCompounds) @_spi(PredicateParsing) @testable import Persistence
import XCTest

/// Core Data's SQLite store answers a fetch's predicate in SQL, where a comparison with a missing value is neither
/// true nor false but unknown, and so is its `NOT`: the row is left out. In memory (`evaluate(with:)`, and a fetch's
/// unsaved objects) the same comparison is false and its `NOT` true. The store here answers as Core Data's does.
final class PredicateNegationOverNilTests: PersistenceTestCase {
    /// Alien and Casablanca have a rating and Brazil and Dune none; Brazil and Dune have no director either.
    private func saveFilms() throws {
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            let ridley = Director(context: writer)
            ridley.name = "Ridley"
            let ann = Actor(context: writer)
            ann.name = "Ann"
            let bob = Actor(context: writer)
            bob.name = "Bob"
            let films: [(String, Double?, Director?, Set<Actor>, [String?])] = [
                ("Alien", 8, ridley, [ann], ["x"]), ("Brazil", nil, nil, [], []),
                ("Casablanca", 2, ridley, [bob], [nil]), ("Dune", nil, nil, [ann], ["y", nil]),
            ]
            for (title, rating, director, actors, summaries) in films {
                let movie = makeMovie(title, in: writer)
                movie.rating = rating.map(NSNumber.init(value:))
                movie.director = director
                movie.actors = actors
                movie.sceneList = summaries.enumerated().map { number, summary in
                    let scene = Scene(context: writer)
                    scene.number = number
                    scene.summary = summary
                    return scene
                }
            }
            try writer.save()
        }
    }

    /// The titles a fresh context's fetch returns: the store's answer.
    private func stored(_ predicate: FetchPredicate) throws -> Set<String> {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let request: FetchRequest<Movie> = Movie.fetchRequest()
            request.predicate = predicate
            return Set(try reader.fetch(request).map(\.title))
        }
    }

    private func stored(_ format: String, _ arguments: Any...) throws -> Set<String> {
        try stored(FetchPredicate(format: format, argumentArray: arguments))
    }

    /// The titles `evaluate(with:)` accepts among every film: memory's answer.
    private func inMemory(_ format: String, _ arguments: Any...) throws -> Set<String> {
        let predicate = FetchPredicate(format: format, argumentArray: arguments)
        let films = try context.fetch(Movie.fetchRequest())
        return Set(films.filter { predicate.evaluate(with: $0) }.map(\.title))
    }

    func testANegatedComparisonLeavesOutTheObjectsWithoutAValue() throws {
        try saveFilms()
        let ridley = try XCTUnwrap(context.fetch(FetchRequest<Director>(entityName: "Director")).first)
        let cases: [(String, [Any], Set<String>)] = [
            ("NOT (rating >= 5)", [], ["Casablanca"]),
            ("NOT (rating < 5)", [], ["Alien"]),
            ("NOT (rating == 8)", [], ["Casablanca"]),
            ("NOT (rating IN {8, 9})", [], ["Casablanca"]),
            ("NOT (rating BETWEEN {1, 5})", [], ["Alien"]),
            ("NOT (director.name BEGINSWITH 'X')", [], ["Alien", "Casablanca"]),
            ("NOT (director.name CONTAINS[cd] 'x')", [], ["Alien", "Casablanca"]),
            ("NOT (director.name IN %@)", [["Zoe"]], ["Alien", "Casablanca"]),
            ("NOT (director == %@)", [ridley], []),
            ("NOT (rating > director.movies.@count)", [], ["Casablanca"]),
        ]
        for (format, arguments, expected) in cases {
            let predicate = FetchPredicate(format: format, argumentArray: arguments)
            XCTAssertEqual(try stored(predicate), expected, format)
            let films = try context.fetch(Movie.fetchRequest())
            XCTAssertEqual(Set(films.filter { predicate.evaluate(with: $0) }.map(\.title)), expected.union(["Brazil", "Dune"]),
                           "in memory a comparison with nil is false and its NOT true: \(format)")
        }
    }

    /// `!=` is not `NOT ==`: Core Data's SQL for it keeps the objects without a value, as memory does.
    func testNotEqualAndNilTestsKeepTheirAnswers() throws {
        try saveFilms()
        XCTAssertEqual(try stored("rating != 8"), ["Brazil", "Casablanca", "Dune"])
        XCTAssertEqual(try stored("NOT (rating != 8)"), ["Alien"])
        XCTAssertEqual(try stored("director.name !=[c] 'RIDLEY'"), ["Brazil", "Dune"])
        XCTAssertEqual(try stored("rating != nil"), ["Alien", "Casablanca"])
        XCTAssertEqual(try stored("NOT (rating == nil)"), ["Alien", "Casablanca"])
        XCTAssertEqual(try stored("NOT (rating != nil)"), ["Brazil", "Dune"])
        XCTAssertEqual(try stored("rating == nil OR NOT (rating >= 5)"), ["Brazil", "Casablanca", "Dune"],
                       "a case of its own for nil finds the objects without a value")
        for format in ["rating != 8", "NOT (rating != 8)", "rating != nil", "NOT (rating == nil)", "rating == nil OR NOT (rating >= 5)"] {
            XCTAssertEqual(try stored(format), try inMemory(format), format)
        }
    }

    /// `ANY` asks whether some related object matches, which SQL answers true or false (`EXISTS`), never unknown:
    /// its `NOT` holds for an object with no related objects, or with only nil values among them.
    func testANegatedAnyIsTrueOrFalse() throws {
        try saveFilms()
        XCTAssertEqual(try stored("NOT (ANY actors.name == 'Ann')"), ["Brazil", "Casablanca"])
        XCTAssertEqual(try stored("NOT (ANY scenes.summary == 'x')"), ["Brazil", "Casablanca", "Dune"])
        XCTAssertEqual(try stored("NONE scenes.summary == 'y'"), ["Alien", "Brazil", "Casablanca"])
        for format in ["NOT (ANY actors.name == 'Ann')", "NOT (ANY scenes.summary == 'x')", "NONE scenes.summary == 'y'"] {
            XCTAssertEqual(try stored(format), try inMemory(format), format)
        }
    }

    /// `NOT` over AND and OR, as SQL's three-valued logic reads it: unknown AND false is false, unknown OR true is true.
    func testNOTThroughANDAndORFollowsSQL() throws {
        try saveFilms()
        XCTAssertEqual(try stored("NOT (rating >= 5 OR title == 'Brazil')"), ["Casablanca"])
        XCTAssertEqual(try stored("NOT (rating >= 5 AND title == 'Brazil')"), ["Alien", "Casablanca", "Dune"])
        XCTAssertEqual(try stored("NOT (NOT (rating >= 5))"), ["Alien"])
        XCTAssertEqual(try stored("NOT (NOT (rating >= 5) AND title != 'Casablanca')"), ["Alien", "Casablanca"])
        XCTAssertEqual(try inMemory("NOT (rating >= 5 OR title == 'Brazil')"), ["Casablanca", "Dune"])
    }

    /// A compound too deep or too long for plain SQL (compiled as a flat `CASE`) answers as the short one.
    func testDeepAndLongNegatedCompoundsAnswerAsShortOnes() throws {
        try saveFilms()
        // Each level holds whatever its inner part does: `title != 'Xn'` is true and `title == 'Xn'` false for all.
        var deep = try FetchPredicate(parsing: "rating >= 5")
        for level in 0..<12 {
            let other = try FetchPredicate(parsing: "title \(level.isMultiple(of: 2) ? "!=" : "==") %@", "X\(level)")
            deep = level.isMultiple(of: 2) ? .and([other, deep]) : .or([other, deep])
        }
        XCTAssertEqual(try stored(deep), ["Alien"])
        XCTAssertEqual(try stored(.not(deep)), ["Casablanca"])
        XCTAssertEqual(try stored(.not(.not(.not(deep)))), ["Casablanca"])
        let long = try (0..<40).map { try FetchPredicate(parsing: "title == %@", "X\($0)") } + [FetchPredicate(parsing: "rating >= 5")]
        XCTAssertEqual(try stored(.not(.or(long))), ["Casablanca"])
        XCTAssertEqual(try stored(.or(long.map { .not($0) })), ["Alien", "Brazil", "Casablanca", "Dune"])
        XCTAssertEqual(try stored(.and(long.map { .not($0) })), ["Casablanca"])
    }

    /// A fetch still evaluates the context's unsaved objects in memory, as Core Data does: an inserted film without
    /// a rating matches `NOT (rating >= 5)`, a saved one does not.
    func testUnsavedObjectsAreEvaluatedInMemory() throws {
        try saveFilms()
        makeMovie("Eraserhead").rating = nil
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = FetchPredicate(format: "NOT (rating >= 5)")
        XCTAssertEqual(Set(try context.fetch(request).map(\.title)), ["Casablanca", "Eraserhead"])
    }

    /// The SQL debug log shows the `NOT` over the comparison, as Core Data's does (`WHERE  NOT ( t0.ZRATING >= ?)`).
    func testTheSQLLogShowsTheNOT() throws {
        try saveFilms()
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = FetchPredicate(format: "NOT (rating >= %d) OR rating == nil", 5)
        let (films, lines) = try PersistenceDebugLog.capture { try context.fetch(request) }
        XCTAssertEqual(Set(films.map(\.title)), ["Brazil", "Casablanca", "Dune"])
        let sql = try XCTUnwrap(lines.first { $0.hasPrefix("CoreData: sql: SELECT ") })
        XCTAssertTrue(sql.contains(" WHERE (NOT (t0.ZRATING >= ?) OR t0.ZRATING IS NULL) "), sql)
    }
}
