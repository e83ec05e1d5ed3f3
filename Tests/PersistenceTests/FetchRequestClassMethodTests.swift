import Foundation
@_spi(TestHarness) import Persistence
import XCTest

/// `fetchRequest()` as Core Data has it: `ManagedObject`'s class method is the untyped request for the class's entity;
/// the typed one is the class's own (here `Movie`'s, as Xcode's code generation writes it), chosen by the type the
/// caller spells out.
final class FetchRequestClassMethodTests: PersistenceTestCase {
    private func makeFilms() throws {
        makeMovie("Heat", year: 1995)
        makeMovie("Alien", year: 1979)
        Director(context: context).name = "Mann"
        try context.save()
    }

    func testTheUntypedRequestNamesTheClassEntityAndFetchesItsObjects() throws {
        try makeFilms()
        let request: FetchRequest<any FetchRequestResult> = Movie.fetchRequest()
        XCTAssertEqual(request.entityName, "Movie")
        request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
        let results = try context.fetch(request)
        XCTAssertEqual(results.count, 2, "the movies only, not the director")
        XCTAssertEqual(results.compactMap { ($0 as? Movie)?.title }, ["Alien", "Heat"])
    }

    func testTheUntypedRequestOfAnotherClassIsItsOwnEntity() throws {
        try makeFilms()
        let request: FetchRequest<any FetchRequestResult> = Director.fetchRequest()
        XCTAssertEqual(request.entityName, "Director")
        XCTAssertEqual(try context.count(for: request), 1)
    }

    func testTheTypedRequestIsTheClassMethodTheClassDeclares() throws {
        try makeFilms()
        let request: FetchRequest<Movie> = Movie.fetchRequest()
        request.predicate = FetchPredicate(format: "year > %d", 1990)
        XCTAssertEqual(try context.fetch(request).map(\.title), ["Heat"])
    }

    func testAFetchGivenTheRequestDirectlyTakesTheTypedOne() throws {
        try makeFilms()
        // The generic parameter of `fetch(_:)` prefers the more specific request, so no annotation is needed.
        let titles: [String] = try context.fetch(Movie.fetchRequest()).map(\.title).sorted()
        XCTAssertEqual(titles, ["Alien", "Heat"])
    }
}
