import Foundation
@_spi(TestHarness) @_spi(PredicateParsing) @testable import Persistence
import XCTest

/// Nil on both sides of a comparison between key paths, and NaN given as an argument, mean the same in SQL as in
/// memory, but for the difference Core Data's SQL makes under a NOT (``CoreDataSQLReading``); a predicate holding
/// NaN equals itself.
final class PredicateNilAndNaNTests: PersistenceTestCase {
    private func buildSamples(_ context: ManagedObjectContext) {
        let rows: [(String, Int16?, Int32?, Int64?, Double?, Bool?, Decimal?)] = [
            ("none", nil, nil, nil, nil, nil, nil),
            ("ones", 1, 1, 1, 1, true, 1),
            ("mixed", 2, nil, 3, 2.5, false, Decimal(string: "2.5")),
            ("zeros", 0, 0, nil, 0, nil, 0),
        ]
        for (label, small, medium, large, real, flag, amount) in rows {
            let sample = Sample(context: context)
            sample.text = label
            sample.small = small.map(NSNumber.init(value:))
            sample.medium = medium.map(NSNumber.init(value:))
            sample.large = large.map(NSNumber.init(value:))
            sample.real = real.map(NSNumber.init(value:))
            sample.flag = flag.map(NSNumber.init(value:))
            sample.amount = amount
        }
    }

    private func buildMovies(_ context: ManagedObjectContext) {
        let director = Director(context: context)
        director.name = "Ann"
        let studio = Studio(context: context)
        studio.name = "ANN"
        for (title, rating, withDirector, withStudio) in [("both", 8.0, true, true), ("neither", nil, false, false),
                                                          ("director", 1.5, true, false), ("studio", -1, false, true)] {
            let movie = Movie(context: context)
            movie.title = title
            movie.rating = rating.map(NSNumber.init(value:))
            movie.director = withDirector ? director : nil
            movie.studio = withStudio ? studio : nil
        }
    }

    /// Two nil key paths are equal (nil equals only nil, as NSPredicate evaluates in memory), in SQL too.
    func testKeyPathsThatAreBothNilAreEqual() throws {
        var predicates: [FetchPredicate] = []
        for op in ["==", "!=", "<", "<=", ">", ">="] {
            for pair in [("small", "medium"), ("large", "amount"), ("real", "flag"), ("medium", "real"), ("amount", "small")] {
                predicates.append(try FetchPredicate(parsing: "\(pair.0) \(op) \(pair.1)"))
                predicates.append(try FetchPredicate(parsing: "NOT (\(pair.0) \(op) \(pair.1))"))
            }
        }
        var lines = try predicateDisagreements(predicates, of: Sample.self, label: { $0.text ?? "?" }, build: buildSamples)
        XCTAssertTrue(lines.isEmpty, "\(lines.count) of \(predicates.count) disagree:\n" + lines.joined(separator: "\n"))

        predicates = []
        for op in ["==", "!=", "==[c]", "!=[c]", "!=[cd]", "<", ">=[c]", "BEGINSWITH[c]", "CONTAINS"] {
            predicates.append(try FetchPredicate(parsing: "director.name \(op) studio.name"))
            predicates.append(try FetchPredicate(parsing: "NOT director.name \(op) studio.name"))
        }
        predicates.append(try FetchPredicate(parsing: "director == studio.movies"))
        lines = try predicateDisagreements(predicates, build: buildMovies)
        XCTAssertTrue(lines.isEmpty, "\(lines.count) of \(predicates.count) disagree:\n" + lines.joined(separator: "\n"))

        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = try FetchPredicate(parsing: "director.name ==[c] studio.name")
        XCTAssertEqual(Set(try context.fetch(request).map(\.title)), ["both", "neither"])
        request.predicate = try FetchPredicate(parsing: "director.name !=[c] studio.name")
        XCTAssertEqual(Set(try context.fetch(request).map(\.title)), ["director", "studio"])
    }

    /// NaN equals nothing and orders with nothing; `!= NaN` holds for every value, nil included.
    func testNaNArgumentsMeanTheSameInSQLAsInMemory() throws {
        let formats = ["rating == %@", "rating != %@", "rating < %@", "rating >= %@", "NOT rating == %@",
                       "NOT rating != %@", "rating IN %@", "NOT rating IN %@", "rating BETWEEN %@", "NOT rating BETWEEN %@",
                       "director.movies.rating == %@", "ANY director.movies.rating != %@", "ALL director.movies.rating != %@"]
        let arguments: [Any] = [Double.nan, [Double.nan, 8.0], [Double.nan, 10.0], [-5.0, Double.nan], Float.nan]
        var predicates: [FetchPredicate] = []
        for format in formats {
            for argument in arguments {
                if let predicate = try? FetchPredicate(parsing: format, argumentArray: [argument]) { predicates.append(predicate) }
            }
        }
        XCTAssertGreaterThan(predicates.count, 20)
        let lines = try predicateDisagreements(predicates, build: buildMovies)
        XCTAssertTrue(lines.isEmpty, "\(lines.count) of \(predicates.count) disagree:\n" + lines.joined(separator: "\n"))
    }

    func testAPredicateHoldingNaNEqualsItself() throws {
        for format in ["rating == %@", "rating IN %@", "rating BETWEEN %@"] {
            let argument: Any = format.hasSuffix("== %@") ? NSNumber(value: Double.nan) : [Double.nan, 1.0]
            let predicate = try FetchPredicate(parsing: format, argument)
            XCTAssertEqual(predicate, predicate, format)
            XCTAssertEqual(predicate, try FetchPredicate(parsing: format, argument), format)
            XCTAssertEqual(Set([predicate, predicate, try FetchPredicate(parsing: format, argument)]).count, 1, format)
            XCTAssertEqual(try FetchPredicate(parsing: predicate.predicateFormat), predicate, "reparsed \(predicate)")
        }
        XCTAssertNotEqual(try FetchPredicate(parsing: "rating == %@", NSNumber(value: Double.nan)), try FetchPredicate(parsing: "rating == %@", NSNumber(value: 1.0)))
    }
}
