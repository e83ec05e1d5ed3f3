import Foundation
@testable import Persistence
import XCTest

final class OptimisticLockingTests: PersistenceTestCase {
    func testSavingAStaleObjectFailsWith133020AndDescribesTheConflict() throws {
        let movie = makeMovie("Alien", year: 1979)
        try context.save()
        try changeElsewhere(movie.objectID) { $0.rating = 8.5 }
        movie.rating = 7
        let error = assertPersistenceError(.managedObjectMerge) { try context.save() }
        XCTAssertEqual(error?.message, "Could not merge changes.")
        let conflict = try XCTUnwrap(error?.conflicts.first)
        XCTAssertEqual(conflict.objectID, movie.objectID)
        XCTAssertEqual(conflict.oldVersion, 1)
        XCTAssertEqual(conflict.newVersion, 2)
        XCTAssertEqual(conflict.objectSnapshot["rating"], .double(7))
        XCTAssertEqual(conflict.cachedSnapshot["rating"], .null)
        XCTAssertEqual(conflict.persistedSnapshot["rating"], .double(8.5))
        XCTAssertEqual(try storedCount("Movie", "rating == 8.5"), 1, "the other save stands")
    }

    func testDeletingARowChangedElsewhereConflictsToo() throws {
        let movie = makeMovie("Alien")
        try context.save()
        try changeElsewhere(movie.objectID) { $0.title = "Alien³" }
        context.delete(movie)
        assertPersistenceError(.managedObjectMerge) { try context.save() }
        XCTAssertEqual(try storedCount("Movie"), 1)
    }

    func testARowDeletedElsewhereConflictsWithVersionZero() throws {
        let movie = makeMovie("Alien")
        try context.save()
        let other = container.newBackgroundContext()
        try other.performAndWait {
            other.delete(try other.existingObject(with: movie.objectID))
            try other.save()
        }
        movie.year = 1
        let conflict = assertPersistenceError(.managedObjectMerge) { try context.save() }?.conflicts.first
        XCTAssertEqual(conflict?.newVersion, 0)
        XCTAssertEqual(conflict?.persistedSnapshot.isEmpty, true)
    }

    func testSequentialSavesFromOneContextNeverConflict() throws {
        let movie = makeMovie("Alien")
        for year in 1979...1989 {
            movie.year = year
            try context.save()
        }
        XCTAssertEqual(try storedCount("Movie", "year == 1989"), 1)
    }
}
