import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

final class RollbackAndResetTests: PersistenceTestCase {
    func testRollbackDiscardsInsertsDeletesAndUpdates() throws {
        let kept = makeMovie("Kept", year: 1)
        let doomed = makeMovie("Doomed", year: 2)
        try context.save()

        let added = makeMovie("Added", year: 3)
        context.delete(doomed)
        kept.title = "Renamed"
        kept.rating = 9
        XCTAssertTrue(context.hasChanges)

        context.rollback()
        XCTAssertFalse(context.hasChanges)
        XCTAssertEqual(kept.title, "Kept")
        XCTAssertNil(kept.rating)
        XCTAssertFalse(doomed.isDeleted)
        XCTAssertNil(added.managedObjectContext, "a rolled-back insert leaves the context")
        XCTAssertEqual(try context.fetch(Movie.fetchRequest()).map(\.title).sorted(), ["Doomed", "Kept"])
    }

    func testRollbackRestoresRelationshipsOnBothSides() throws {
        let scott = Director(context: context)
        scott.name = "Ridley Scott"
        let alien = makeMovie("Alien")
        alien.director = scott
        try context.save()

        let cameron = Director(context: context)
        cameron.name = "James Cameron"
        alien.director = cameron
        context.rollback()
        XCTAssertTrue(alien.director === scott)
        XCTAssertEqual(scott.movies, [alien])
    }

    func testAFailedSavePoisonsTheContextUntilRollback() throws {
        _ = Movie(context: context)   // no title
        assertPersistenceError(.validationMissingMandatoryProperty) { try context.save() }
        makeMovie("Fine")
        assertPersistenceError(.validationMissingMandatoryProperty) { try context.save() }
        context.rollback()
        makeMovie("Fine")
        XCTAssertNoThrow(try context.save())
        XCTAssertEqual(try storedCount("Movie"), 1)
    }

    func testResetForgetsEveryObject() throws {
        let movie = makeMovie("Alien")
        try context.save()
        makeMovie("Pending")
        context.reset()
        XCTAssertFalse(context.hasChanges)
        XCTAssertTrue(context.registeredObjects.isEmpty)
        XCTAssertNil(movie.managedObjectContext)
        let fetched = try context.fetch(Movie.fetchRequest())
        XCTAssertEqual(fetched.map(\.title), ["Alien"])
        XCTAssertFalse(fetched[0] === movie, "after reset a fetch makes new objects")
    }

    func testRefreshWithoutMergeDropsChangesAndRereads() throws {
        let movie = makeMovie("Alien")
        try context.save()
        movie.title = "Changed"
        context.refresh(movie, mergeChanges: false)
        XCTAssertTrue(movie.isFault)
        XCTAssertFalse(context.hasChanges)
        XCTAssertEqual(movie.title, "Alien")
    }

    func testRefreshWithMergeKeepsLocalChangesOverTheStoresValues() throws {
        let movie = makeMovie("Alien", year: 1979)
        try context.save()
        try changeElsewhere(movie.objectID) { $0.rating = 8.5 }
        movie.title = "Alien (director's cut)"
        context.refresh(movie, mergeChanges: true)
        XCTAssertEqual(movie.title, "Alien (director's cut)", "the unsaved change stays")
        XCTAssertEqual(movie.rating, 8.5, "the store's newer value comes in")
        XCTAssertNoThrow(try context.save(), "having merged, the save no longer conflicts")
        XCTAssertEqual(try storedCount("Movie", "rating == 8.5 AND title BEGINSWITH 'Alien ('"), 1)
    }

    /// Merging re-applies the context's change to a to-many relationship — the objects it added and removed — over
    /// the objects the store now relates, rather than putting the context's whole list back: Apple's "changes … are
    /// re-applied over those (now newly updated) values". objc.io's Moody counts a country's moods this way in its
    /// merge policy (refresh, then `moods.count`), and its tests expect the store's new mood to be counted.
    func testRefreshWithMergeReappliesAToManyChangeOverTheStoresObjects() throws {
        let director = Director(context: context)
        director.name = "Scott"
        let alien = makeMovie("Alien")
        alien.director = director
        let blade = makeMovie("Blade Runner")
        blade.director = director
        try context.save()
        XCTAssertEqual(director.movies.count, 2)
        try addMovieElsewhere("Gladiator", directedBy: director.objectID)
        let prometheus = makeMovie("Prometheus")
        prometheus.director = director
        blade.director = nil

        context.refresh(director, mergeChanges: true)
        XCTAssertEqual(Set(director.movies.map(\.title)), ["Alien", "Gladiator", "Prometheus"],
                       "the store's new film comes in; the one added here stays, the one removed here stays out")
        XCTAssertTrue(director.hasChanges)
        XCTAssertNoThrow(try context.save())
        XCTAssertEqual(try storedCount("Movie", "director.name == 'Scott'"), 3)
    }

    func testRefreshAllObjectsFaultsUnchangedOnes() throws {
        let a = makeMovie("A")
        let b = makeMovie("B")
        try context.save()
        b.rating = 1
        context.refreshAllObjects()
        XCTAssertTrue(a.isFault)
        XCTAssertEqual(b.rating, 1)
        XCTAssertTrue(b.hasChanges)
    }
}
