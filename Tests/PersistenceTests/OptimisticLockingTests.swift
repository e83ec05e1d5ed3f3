import Foundation
@_spi(TestHarness) @testable import Persistence
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
        XCTAssertEqual(conflict.sourceObject.objectID, movie.objectID)
        XCTAssertEqual(conflict.oldVersionNumber, 1)
        XCTAssertEqual(conflict.newVersionNumber, 2)
        XCTAssertEqual(conflict.objectSnapshot?["rating"] as? Double, 7)
        XCTAssertTrue(conflict.cachedSnapshot?["rating"] is NSNull, "nil is NSNull, as in committedValues(forKeys:)")
        XCTAssertEqual(conflict.persistedSnapshot?["rating"] as? Double, 8.5)
        XCTAssertEqual(try storedCount("Movie", "rating == 8.5"), 1, "the other save stands")
    }

    /// Apple: "Snapshot dictionaries include values for all attributes and to-one relationships, but not to-many
    /// relationships. Relationship values are NSManagedObjectID references."
    func testSnapshotsHoldToOneRelationshipsAsObjectIDsAndNoToMany() throws {
        let movie = makeMovie("Alien", year: 1979)
        let scott = Director(context: context)
        scott.name = "Ridley Scott"
        let cameron = Director(context: context)
        cameron.name = "James Cameron"
        movie.director = scott
        try context.save()
        try changeElsewhere(movie.objectID) { $0.director = $0.managedObjectContext?.object(with: cameron.objectID) as? Director }
        movie.rating = 8
        movie.studio = nil

        let conflict = try XCTUnwrap(assertPersistenceError(.managedObjectMerge) { try context.save() }?.conflicts.first)
        let snapshots = try [conflict.objectSnapshot, conflict.cachedSnapshot, conflict.persistedSnapshot].map { try XCTUnwrap($0) }
        XCTAssertEqual(snapshots.map { $0["director"] as? ManagedObjectID }, [scott.objectID, scott.objectID, cameron.objectID])
        for snapshot in snapshots {
            XCTAssertTrue(snapshot["studio"] is NSNull, "a nil to-one is NSNull")
            XCTAssertNil(snapshot["actors"], "no to-many relationship")
            XCTAssertNil(snapshot["scenes"])
            XCTAssertEqual(snapshot["year"] as? Int, 1979, "an integer attribute reads as its Swift type")
        }
    }

    func testCoreDataInitializerSnapshotsTheSourceObject() throws {
        let movie = makeMovie("Alien", year: 1979)
        try context.save()
        context.refresh(movie, mergeChanges: false)
        let conflict = MergeConflict(source: movie, newVersion: 0, oldVersion: 1, cachedSnapshot: ["title": "Alien"],
                                     persistedSnapshot: nil)
        XCTAssertEqual(conflict.objectSnapshot?["title"] as? String, "Alien", "the fault fired for its values")
        XCTAssertEqual(conflict.cachedSnapshot?["title"] as? String, "Alien")
        XCTAssertNil(conflict.persistedSnapshot)
        XCTAssertEqual(conflict.newVersionNumber, 0)
        XCTAssertTrue(conflict.sourceObject === movie)
    }

    func testAConflictKeepsItsSourceObjectAlive() throws {
        // Core Data's sourceObject is never nil: the conflict holds the object, whatever its context does.
        weak var released: Movie?
        let conflict: MergeConflict
        do {
            let movie = makeMovie("Alien", year: 1979)
            try context.save()
            released = movie
            conflict = MergeConflict(source: movie, newVersion: 2, oldVersion: 1, cachedSnapshot: nil,
                                     persistedSnapshot: nil)
        }
        context.reset()
        XCTAssertNotNil(released, "the conflict holds its object")
        XCTAssertTrue(conflict.sourceObject === released)
        XCTAssertEqual(conflict.oldVersionNumber, 1)
        XCTAssertEqual(conflict.newVersionNumber, 2)
    }

    func testAConstraintConflictTakesCoreDatasUntypedSnapshots() throws {
        let first = makeMovie("Alien")
        let second = makeMovie("Alien")
        let conflict = ConstraintConflict(constraint: ["title"], database: nil, databaseSnapshot: nil,
                                          conflicting: [first, second],
                                          conflictingSnapshots: [["title": "Alien"] as [String: Any], "not a dictionary"])
        XCTAssertEqual(conflict.constraintValues["title"] as? String, "Alien")
        XCTAssertEqual(conflict.conflictingSnapshots.count, 2)
        XCTAssertEqual(conflict.conflictingSnapshots[0]["title"] as? String, "Alien")
        XCTAssertTrue(conflict.conflictingSnapshots[1].isEmpty, "what is not a dictionary counts as empty")
        XCTAssertNil(conflict.databaseSnapshot)
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
        XCTAssertEqual(conflict?.newVersionNumber, 0)
        XCTAssertNotNil(conflict?.objectSnapshot)
        XCTAssertNil(conflict?.persistedSnapshot, "Apple: a deleted row (version 0) has no persisted snapshot")
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
