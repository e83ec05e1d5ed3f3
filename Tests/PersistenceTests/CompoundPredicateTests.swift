import Foundation
@_spi(TestHarness) @_spi(PredicateCompounds) @_spi(PredicateParsing) @testable import Persistence
import XCTest

/// `AND`, `OR` and `NOT` built with Core Data's compound-predicate initialisers, fetched by the store and evaluated
/// in memory alike.
final class CompoundPredicateTests: PersistenceTestCase {
    private func titles(_ predicate: FetchPredicate) throws -> [String] {
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = predicate
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Movie.title, ascending: true)]
        return try context.fetch(request).map(\.title)
    }

    func testTheCompoundInitialisersFetchWhatTheirFormatsWould() throws {
        for (title, year) in [("Alien", 1979), ("Aliens", 1986), ("Heat", 1995), ("Ran", 1985)] { makeMovie(title, year: year) }
        try context.save()
        let eighties = FetchPredicate(format: "year >= 1980 AND year < 1990")
        let startsWithA = FetchPredicate(format: "title BEGINSWITH 'A'")
        let both = CompoundPredicate(andPredicateWithSubpredicates: [eighties, startsWithA])
        let either = CompoundPredicate(orPredicateWithSubpredicates: [eighties, startsWithA])
        let neither = CompoundPredicate(notPredicateWithSubpredicate: either)
        XCTAssertEqual(try titles(both), ["Aliens"])
        XCTAssertEqual(try titles(either), ["Alien", "Aliens", "Ran"])
        XCTAssertEqual(try titles(neither), ["Heat"])
        XCTAssertEqual(both, .and([eighties, startsWithA]))
        XCTAssertEqual(neither.predicateFormat, FetchPredicate(format: "NOT (\(either.predicateFormat))").predicateFormat)
        let heat = try XCTUnwrap(context.fetch(Movie.fetchRequest()).first { $0.title == "Heat" })
        XCTAssertTrue(try neither.evaluate(checking: heat))
        XCTAssertFalse(try both.evaluate(checking: heat))
    }

    func testEmptyCompoundsAreTheConstants() throws {
        makeMovie("Heat")
        try context.save()
        XCTAssertEqual(try titles(CompoundPredicate(andPredicateWithSubpredicates: [])), ["Heat"])
        XCTAssertEqual(try titles(CompoundPredicate(orPredicateWithSubpredicates: [])), [])
    }
}
