import Foundation
@testable import Persistence
import XCTest

/// Each policy against the same conflict: this context changed the rating, another context changed the title (and,
/// in some tests, the rating too) and saved first.
final class MergePolicyTests: PersistenceTestCase {
    private var movie: Movie!

    override func setUpWithError() throws {
        try super.setUpWithError()
        movie = makeMovie("Alien", year: 1979)
        movie.rating = 7
        try context.save()
    }

    override func tearDownWithError() throws {
        movie = nil
        try super.tearDownWithError()
    }

    /// Another context saves `title` (and `rating` when given) over the stored row.
    private func changeElsewhere(title: String, rating: Double? = nil) throws {
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let copy = try XCTUnwrap(other.existingObject(with: movie.objectID) as? Movie)
            copy.title = title
            if let rating { copy.rating = rating }
            try other.save()
        }
    }

    /// The row as the store now holds it.
    private func stored() throws -> (title: String, rating: Double?, year: Int) {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let copy = try XCTUnwrap(reader.existingObject(with: movie.objectID) as? Movie)
            return (copy.title, copy.rating, copy.year)
        }
    }

    func testStoreTrumpKeepsTheStoresChangesAndTheObjectsOthers() throws {
        try changeElsewhere(title: "Alien (1979)")
        movie.rating = 8
        context.mergePolicy = .mergeByPropertyStoreTrump
        try context.save()
        let row = try stored()
        XCTAssertEqual(row.title, "Alien (1979)")
        XCTAssertEqual(row.rating, 8)
        XCTAssertEqual(movie.title, "Alien (1979)", "the object takes the store's value too")
        XCTAssertFalse(context.hasChanges)
    }

    func testStoreTrumpWinsWhenBothChangedTheSameProperty() throws {
        try changeElsewhere(title: "Alien", rating: 9)
        movie.rating = 8
        context.mergePolicy = .mergeByPropertyStoreTrump
        try context.save()
        XCTAssertEqual(try stored().rating, 9)
        XCTAssertEqual(movie.rating, 9)
    }

    func testObjectTrumpWinsWhenBothChangedTheSameProperty() throws {
        try changeElsewhere(title: "Alien (1979)", rating: 9)
        movie.rating = 8
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        let row = try stored()
        XCTAssertEqual(row.rating, 8, "the object's change wins")
        XCTAssertEqual(row.title, "Alien (1979)", "what only the store changed is kept")
        XCTAssertEqual(movie.title, "Alien (1979)")
    }

    func testOverwriteWritesTheObjectsWholeState() throws {
        try changeElsewhere(title: "Alien (1979)")
        movie.rating = 8
        context.mergePolicy = .overwrite
        try context.save()
        let row = try stored()
        XCTAssertEqual(row.title, "Alien", "overwrite replaces even what the object did not change")
        XCTAssertEqual(row.rating, 8)
    }

    func testRollbackDropsTheObjectsChanges() throws {
        try changeElsewhere(title: "Alien (1979)")
        movie.rating = 8
        context.mergePolicy = .rollback
        try context.save()
        let row = try stored()
        XCTAssertEqual(row.title, "Alien (1979)")
        XCTAssertEqual(row.rating, 7)
        XCTAssertEqual(movie.rating, 7)
        XCTAssertEqual(movie.title, "Alien (1979)")
        XCTAssertFalse(context.hasChanges)
    }

    func testAResolvedObjectSavesAgainWithoutConflict() throws {
        try changeElsewhere(title: "Alien (1979)")
        movie.rating = 8
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        movie.year = 1980
        context.mergePolicy = .error
        XCTAssertNoThrow(try context.save(), "resolution adopted the store's row version")
        XCTAssertEqual(try stored().year, 1980)
    }

    func testARowDeletedElsewhereIsDroppedOrWrittenAgain() throws {
        let id = movie.objectID
        func deleteElsewhere() throws {
            let other = container.newBackgroundContext()
            try other.performAndWait {
                other.delete(try other.existingObject(with: id))
                try other.save()
            }
        }
        try deleteElsewhere()
        movie.rating = 8
        context.mergePolicy = .mergeByPropertyStoreTrump
        try context.save()
        XCTAssertNil(movie.managedObjectContext, "the store's deletion wins: the object leaves the context")
        XCTAssertEqual(try storedCount("Movie"), 0)

        let second = makeMovie("Heat", year: 1995)
        try context.save()
        let secondID = second.objectID
        let other = container.newBackgroundContext()
        try other.performAndWait {
            other.delete(try other.existingObject(with: secondID))
            try other.save()
        }
        second.rating = 9
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        XCTAssertEqual(second.objectID, secondID)
        XCTAssertEqual(try storedCount("Movie", "title == 'Heat' AND rating == 9"), 1, "written again under the same ID")
    }

    func testADeletionGoesAheadOverAChangeElsewhere() throws {
        try changeElsewhere(title: "Alien (1979)")
        context.delete(movie)
        context.mergePolicy = .rollback
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 0)
    }

    func testObjectTrumpNewObjectTakesOverTheStoredRowOnAUniquenessClash() throws {
        let storedID = movie.objectID
        let newcomer = makeMovie("Alien", year: 1979)
        newcomer.rating = 9.5
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 1)
        XCTAssertEqual(newcomer.objectID, storedID, "the newcomer takes the stored row's identity")
        XCTAssertTrue(context.registeredObject(for: storedID) === newcomer)
        XCTAssertNil(movie.managedObjectContext, "the object this context had for the row gives way")
        XCTAssertEqual(try storedCount("Movie", "rating == 9.5"), 1)
    }

    func testStoreTrumpDiscardsTheNewObjectOnAUniquenessClash() throws {
        let newcomer = makeMovie("Alien", year: 1979)
        newcomer.rating = 9.5
        makeMovie("Heat", year: 1995)
        context.mergePolicy = .mergeByPropertyStoreTrump
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 2, "Alien as stored, and Heat")
        XCTAssertEqual(try storedCount("Movie", "rating == 7"), 1)
        XCTAssertNil(newcomer.managedObjectContext, "the newcomer is discarded")
    }

    func testAFailedSaveAfterResolutionPutsTheObjectsBack() throws {
        let heat = makeMovie("Heat", year: 1995)
        try context.save()
        try changeElsewhere(title: "Alien (1979)")
        // A conflict the policy resolves (movie), and a clash it does not: an updated object taking the constraint
        // values the store now has for another row.
        movie.rating = 8
        heat.title = "Alien (1979)"
        heat.year = 1979
        context.mergePolicy = .mergeByPropertyStoreTrump
        assertPersistenceError(.managedObjectConstraintMerge) { try context.save() }
        XCTAssertEqual(movie.title, "Alien", "resolution was undone with the transaction")
        XCTAssertEqual(movie.rating, 8)
        XCTAssertTrue(movie.isUpdated)
        XCTAssertEqual(try stored().rating, 7)
        XCTAssertEqual(try stored().title, "Alien (1979)")
    }
}
