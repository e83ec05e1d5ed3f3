import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// What ``ManagedObjectContext/didChangeObjectsNotification`` reports: every change since the last one, once —
/// a second change to a changed object, a change to a new object already reported, a refresh, a rollback, a reset.
/// A fetched results controller keeps its rows from these notifications alone, so a change left out is a row gone
/// stale.
final class ObjectsDidChangeTests: PersistenceTestCase {
    /// The did-change notifications `context` posts until the test ends.
    private func observeChanges() -> NotificationLog {
        let log = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didChangeObjectsNotification,
                                                           object: context, queue: nil) { note in
            log.append(note, flag: true)
        }
        addTeardownBlock { NotificationCenter.default.removeObserver(token) }
        return log
    }

    private func objects(_ key: ManagedObjectContext.NotificationKey, in note: Notification?) -> Set<ManagedObject> {
        note?.userInfo?[key.rawValue] as? Set<ManagedObject> ?? []
    }

    func testEachChangeToAChangedObjectIsReportedAgain() throws {
        let movie = makeMovie("Alien")
        try context.save()
        let log = observeChanges()

        movie.title = "Alien (1979)"
        context.processPendingChanges()
        XCTAssertEqual(objects(.updatedObjects, in: log.notes.last), [movie])

        movie.title = "Alien: director's cut"
        context.processPendingChanges()
        XCTAssertEqual(log.notes.count, 2, "the second change to the same property is a change too")
        XCTAssertEqual(objects(.updatedObjects, in: log.notes.last), [movie])

        movie.year = 1979
        context.processPendingChanges()
        XCTAssertEqual(log.notes.count, 3, "and so is a change to another property")
        XCTAssertEqual(objects(.updatedObjects, in: log.notes.last), [movie])

        context.processPendingChanges()
        XCTAssertEqual(log.notes.count, 3, "nothing changed since: nothing posted")
    }

    func testChangesToANewObjectAfterItsInsertionWasReportedAreUpdates() throws {
        let log = observeChanges()
        let movie = makeMovie("Heat")
        context.processPendingChanges()
        XCTAssertEqual(objects(.insertedObjects, in: log.notes.last), [movie])

        movie.year = 1995
        context.processPendingChanges()
        XCTAssertEqual(log.notes.count, 2)
        XCTAssertEqual(objects(.updatedObjects, in: log.notes.last), [movie])
        XCTAssertEqual(objects(.insertedObjects, in: log.notes.last), [], "its insertion was reported already")

        movie.title = "Heat (1995)"
        movie.rating = 4
        context.processPendingChanges()
        XCTAssertEqual(log.notes.count, 3)
        XCTAssertEqual(objects(.updatedObjects, in: log.notes.last), [movie])
    }

    func testANewObjectChangedBeforeItsInsertionIsReportedIsOnlyInserted() throws {
        let log = observeChanges()
        let movie = makeMovie("Ran")
        movie.year = 1985
        context.processPendingChanges()
        XCTAssertEqual(objects(.insertedObjects, in: log.notes.last), [movie])
        XCTAssertEqual(objects(.updatedObjects, in: log.notes.last), [])
    }

    func testAChangedObjectThatIsThenDeletedIsReportedDeletedOnly() throws {
        let movie = makeMovie("Brazil")
        try context.save()
        let log = observeChanges()
        movie.year = 1985
        context.delete(movie)
        context.processPendingChanges()
        XCTAssertEqual(objects(.deletedObjects, in: log.notes.last), [movie])
        XCTAssertEqual(objects(.updatedObjects, in: log.notes.last), [])
    }

    func testAnObjectInsertedAndDeletedBeforeAnyReportIsNotReported() throws {
        let log = observeChanges()
        let movie = makeMovie("Never")
        context.delete(movie)
        context.processPendingChanges()
        XCTAssertEqual(log.notes.count, 0, "observers never heard of it, so nothing is retracted")
    }

    func testReinsertingAReportedDeletionReportsTheObjectInsertedAgain() throws {
        let movie = makeMovie("Vertigo")
        try context.save()
        let log = observeChanges()
        context.delete(movie)
        context.processPendingChanges()
        XCTAssertEqual(objects(.deletedObjects, in: log.notes.last), [movie])

        context.insert(movie)
        context.processPendingChanges()
        XCTAssertEqual(log.notes.count, 2)
        XCTAssertEqual(objects(.insertedObjects, in: log.notes.last), [movie])
    }

    func testNewObjectsAreReportedOnceEvenAfterTheirListIsCompacted() throws {
        let log = observeChanges()
        let movies = (0..<100).map { makeMovie("Movie \($0)", year: $0) }
        context.processPendingChanges()
        XCTAssertEqual(objects(.insertedObjects, in: log.notes.last).count, 100)

        // Deleting most of them makes the list of new objects drop its holes.
        for movie in movies[20...] { context.delete(movie) }
        context.processPendingChanges()
        XCTAssertEqual(objects(.deletedObjects, in: log.notes.last).count, 80)
        XCTAssertEqual(objects(.insertedObjects, in: log.notes.last), [], "the 20 left were reported before")

        movies[3].year = 2003
        context.processPendingChanges()
        XCTAssertEqual(objects(.updatedObjects, in: log.notes.last), [movies[3]])
        XCTAssertEqual(objects(.insertedObjects, in: log.notes.last), [])
    }

    func testRefreshReportsTheObjectAsRefreshed() throws {
        let kept = makeMovie("Kept")
        let dropped = makeMovie("Dropped", year: 1)
        try context.save()
        kept.rating = 3
        dropped.rating = 2
        let log = observeChanges()
        context.processPendingChanges()
        XCTAssertEqual(log.notes.count, 1)

        context.refresh(kept, mergeChanges: true)
        context.refresh(dropped, mergeChanges: false)
        context.processPendingChanges()
        XCTAssertEqual(log.notes.count, 2)
        XCTAssertEqual(objects(.refreshedObjects, in: log.notes.last), [kept, dropped])
        XCTAssertNil(dropped.rating, "refreshed without merging: its change is gone")
        XCTAssertEqual(kept.rating, 3)
    }

    func testResetReportsThatEveryObjectWasInvalidated() throws {
        let movie = makeMovie("Solaris")
        try context.save()
        let id = movie.objectID
        _ = makeMovie("Unsaved")
        let log = observeChanges()
        context.reset()
        XCTAssertEqual(log.notes.count, 1)
        let info = try XCTUnwrap(log.notes.last?.userInfo)
        let invalidated = try XCTUnwrap(info[NSInvalidatedAllObjectsKey] as? [ManagedObjectID],
                                        "present, with the IDs of the objects the context forgot")
        XCTAssertTrue(invalidated.contains(id))
        XCTAssertEqual(invalidated.count, 2)
    }

    func testRollbackReportsWhatItUndoes() throws {
        let changed = makeMovie("Changed")
        let deleted = makeMovie("Deleted", year: 1)
        try context.save()
        let added = makeMovie("Added", year: 2)
        changed.year = 1999
        context.delete(deleted)
        context.processPendingChanges()
        let log = observeChanges()

        context.rollback()
        XCTAssertEqual(log.notes.count, 1)
        XCTAssertEqual(objects(.deletedObjects, in: log.notes.last), [added], "the new object is gone")
        XCTAssertEqual(objects(.insertedObjects, in: log.notes.last), [deleted], "the deleted one is back")
        XCTAssertEqual(objects(.updatedObjects, in: log.notes.last), [changed], "the changed one has its old values")
        XCTAssertEqual(changed.year, 2000)
    }

    func testAMergeReportsInsertionsRefreshesAndDeletionsOfTheOtherContext() throws {
        let changed = makeMovie("Changed")
        let doomed = makeMovie("Doomed", year: 1)
        try context.save()
        _ = changed.title
        let background = container.newBackgroundContext()
        let saves = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                           object: background, queue: nil) { saves.append($0, flag: true) }
        defer { NotificationCenter.default.removeObserver(token) }
        let newID = try background.performAndWait { () -> ManagedObjectID in
            (try background.existingObject(with: changed.objectID) as? Movie)?.year = 1980
            background.delete(try background.existingObject(with: doomed.objectID))
            let added = makeMovie("Added", year: 2, in: background)
            try background.save()
            return added.objectID
        }
        let log = observeChanges()
        context.mergeChanges(fromContextDidSave: try XCTUnwrap(saves.notes.first))
        XCTAssertEqual(log.notes.count, 1)
        XCTAssertEqual(objects(.insertedObjects, in: log.notes.last).map(\.objectID), [newID])
        XCTAssertEqual(objects(.refreshedObjects, in: log.notes.last), [changed])
        XCTAssertEqual(objects(.deletedObjects, in: log.notes.last), [doomed])
        context.processPendingChanges()
        XCTAssertEqual(log.notes.count, 1, "the merge's changes are reported once")
    }
}
