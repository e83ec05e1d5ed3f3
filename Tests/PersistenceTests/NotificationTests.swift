import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

final class NotificationTests: PersistenceTestCase {
    /// Observes `name` from `object` until the test ends; returns the notifications seen.
    private func observe(_ name: Notification.Name, from object: ManagedObjectContext) -> NotificationLog {
        let log = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { note in
            log.append(note, flag: Thread.isMainThread)
        }
        addTeardownBlock { NotificationCenter.default.removeObserver(token) }
        return log
    }

    func testDidSaveCarriesTheSavedObjectsAndTheirIDs() throws {
        let kept = makeMovie("Kept")
        let doomed = makeMovie("Doomed", year: 1)
        try context.save()
        let objects = observe(ManagedObjectContext.didSaveObjectsNotification, from: context)
        let ids = observe(ManagedObjectContext.didSaveObjectIDsNotification, from: context)

        let added = makeMovie("Added", year: 2)
        kept.rating = 5
        let doomedID = doomed.objectID
        context.delete(doomed)
        try context.save()

        let info = try XCTUnwrap(objects.notes.first?.userInfo)
        XCTAssertEqual(info["inserted"] as? Set<ManagedObject>, [added])
        XCTAssertEqual(info["updated"] as? Set<ManagedObject>, [kept])
        XCTAssertEqual((info["deleted"] as? Set<ManagedObject>)?.count, 1)
        let idInfo = try XCTUnwrap(ids.notes.first?.userInfo)
        XCTAssertEqual(idInfo["inserted_objectIDs"] as? Set<ManagedObjectID>, [added.objectID])
        XCTAssertFalse(added.objectID.isTemporaryID, "the notification names permanent IDs")
        XCTAssertEqual(idInfo["deleted_objectIDs"] as? Set<ManagedObjectID>, [doomedID])
        XCTAssertTrue(objects.notes.first?.object as? ManagedObjectContext === context)
    }

    func testNotificationsArePostedOnTheContextsQueue() throws {
        let background = container.newBackgroundContext()
        let onQueue = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                           object: background, queue: nil) { note in
            // performAndWait runs on the caller's thread while holding the queue, so ask the queue, not the thread.
            onQueue.append(note, flag: background.isOnQueue)
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try background.performAndWait {
            let movie = Movie(context: background)
            movie.title = "Queued"
            try background.save()
        }
        let done = expectation(description: "saved on the queue")
        background.perform {
            let movie = Movie(context: background)
            movie.title = "Queued again"
            try? background.save()
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(onQueue.recordedFlags, [true, true], "both posted while on the context's queue")
    }

    func testDidChangeReportsInsertsAndCascadedDeletes() throws {
        let movie = makeMovie("Rope")
        let scene = Scene(context: context)
        scene.number = 1
        scene.movie = movie
        try context.save()
        let log = observe(ManagedObjectContext.didChangeObjectsNotification, from: context)

        let added = makeMovie("Added", year: 2)
        context.processPendingChanges()
        XCTAssertEqual(log.notes.last?.userInfo?["inserted"] as? Set<ManagedObject>, [added])

        context.delete(movie)
        context.processPendingChanges()
        XCTAssertEqual(log.notes.last?.userInfo?["deleted"] as? Set<ManagedObject>, [movie, scene], "the cascade is reported too")
        context.processPendingChanges()
        XCTAssertEqual(log.notes.count, 2, "nothing new, nothing posted")
    }

    func testMergeChangesFromAnotherContextsSave() throws {
        let alien = makeMovie("Alien")
        let heat = makeMovie("Heat", year: 1995)
        try context.save()
        alien.rating = 1   // an unsaved change of our own, which the merge must keep

        let background = container.newBackgroundContext()
        let log = observe(ManagedObjectContext.didSaveObjectsNotification, from: background)
        try background.performAndWait {
            let copy = try XCTUnwrap(background.existingObject(with: alien.objectID) as? Movie)
            copy.title = "Alien (1979)"
            background.delete(try background.existingObject(with: heat.objectID))
            try background.save()
        }
        let note = try XCTUnwrap(log.notes.first)
        let changes = observe(ManagedObjectContext.didChangeObjectsNotification, from: context)

        context.mergeChanges(fromContextDidSave: note)
        XCTAssertEqual(alien.title, "Alien (1979)")
        XCTAssertEqual(alien.rating, 1, "our own unsaved change survives the merge")
        XCTAssertTrue(heat.isDeleted)
        XCTAssertNil(heat.managedObjectContext, "a merged deletion detaches the object")
        XCTAssertNil(context.registeredObject(for: heat.objectID))
        XCTAssertEqual(changes.notes.first?.userInfo?["refreshed"] as? Set<ManagedObject>, [alien])
        XCTAssertNoThrow(try context.save(), "after merging, saving our change does not conflict")
    }

    func testTheViewContextMergesBackgroundSavesAutomatically() throws {
        let alien = makeMovie("Alien")
        try context.save()
        _ = alien.title
        context.automaticallyMergesChangesFromParent = true
        let merged = expectation(forNotification: ManagedObjectContext.didChangeObjectsNotification, object: context)

        let id = alien.objectID   // only the ID may cross to the background queue
        container.performBackgroundTask { background in
            let copy = try? background.existingObject(with: id) as? Movie
            copy?.title = "Alien (1979)"
            try? background.save()
        }
        wait(for: [merged], timeout: 5)
        XCTAssertEqual(alien.title, "Alien (1979)")
    }

    func testWithoutAutomaticMergingTheViewContextKeepsItsSnapshot() throws {
        let alien = makeMovie("Alien")
        try context.save()
        _ = alien.title
        let background = container.newBackgroundContext()
        try background.performAndWait {
            (try background.existingObject(with: alien.objectID) as? Movie)?.title = "Alien (1979)"
            try background.save()
        }
        RunLoop.current.run(until: Date().addingTimeInterval(0.1))
        XCTAssertEqual(alien.title, "Alien", "not merged: the context still shows what it read")
    }

    func testMergeChangesFromRemoteContextSaveTakesIDsOrURIs() throws {
        let alien = makeMovie("Alien")
        try context.save()
        _ = alien.title
        let background = container.newBackgroundContext()
        try background.performAndWait {
            (try background.existingObject(with: alien.objectID) as? Movie)?.title = "Alien (1979)"
            try background.save()
        }
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: ["updated": [alien.objectID.uriRepresentation()]],
                                          into: [context])
        XCTAssertEqual(alien.title, "Alien (1979)")
    }

    func testMergingASaveOfAnotherStoreIsReported() throws {
        let other = try makeContainer()
        let log = observe(ManagedObjectContext.didSaveObjectsNotification, from: other.viewContext)
        makeMovie("Elsewhere", in: other.viewContext)
        try other.viewContext.save()
        context.mergeChanges(fromContextDidSave: try XCTUnwrap(log.notes.first))
        let error = assertPersistenceError(.coreData) { try context.save() }
        XCTAssertTrue(error?.message.contains("another store") == true, error?.message ?? "")
        context.rollback()
        XCTAssertNoThrow(try context.save())
    }

    func testSavesCanBeObservedAsAnAsyncSequence() async throws {
        let container = try makeContainer()
        let background = container.newBackgroundContext()
        let stream = background.saves()
        let task = Task { () -> ContextDidSave? in
            for await save in stream { return save }
            return nil
        }
        try await background.perform {
            let movie = Movie(context: background)
            movie.title = "Streamed"
            try background.save()
        }
        let save = await task.value
        XCTAssertEqual(save?.insertedObjectIDs.count, 1)
        XCTAssertEqual(save?.insertedObjectIDs.first?.entityName, "Movie")
    }
}

/// Notifications collected by an observer (which may run on another thread).
final class NotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [Notification] = []
    private var flags: [Bool] = []

    func append(_ note: Notification, flag: Bool) {
        lock.withLock {
            collected.append(note)
            flags.append(flag)
        }
    }

    var notes: [Notification] { lock.withLock { collected } }
    /// One flag per notification, as the observer recorded it.
    var recordedFlags: [Bool] { lock.withLock { flags } }
}
