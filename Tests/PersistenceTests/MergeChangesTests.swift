import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// Merging another context's save: inserted objects are faulted in, updated ones refreshed, deleted ones removed —
/// the same through `mergeChanges(fromContextDidSave:)`, `automaticallyMergesChangesFromParent` and
/// `mergeChanges(fromRemoteContextSave:into:)`.
final class MergeChangesTests: PersistenceTestCase {
    /// Saves a new movie in a background context; returns its ID and the did-save notification.
    private func saveNewMovieInBackground(_ title: String) throws -> (id: ManagedObjectID, note: Notification) {
        let background = container.newBackgroundContext()
        let log = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                           object: background, queue: nil) { log.append($0, flag: true) }
        defer { NotificationCenter.default.removeObserver(token) }
        let id = try background.performAndWait { () -> ManagedObjectID in
            let movie = Movie(context: background)
            movie.title = title
            movie.year = 1982
            try background.save()
            return movie.objectID
        }
        return (id, try XCTUnwrap(log.notes.first))
    }

    /// Observes the did-change notifications of `context` until the test ends.
    private func observeChanges(of context: ManagedObjectContext) -> NotificationLog {
        let log = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didChangeObjectsNotification,
                                                           object: context, queue: nil) { log.append($0, flag: true) }
        addTeardownBlock { NotificationCenter.default.removeObserver(token) }
        return log
    }

    /// What Core Data guarantees for a merged insertion: the object is registered, as a fault, is not a pending
    /// insert of this context, reads the saved values, and is reported as inserted by the did-change notification.
    private func assertFaultedIn(_ id: ManagedObjectID, title: String, in context: ManagedObjectContext,
                                 changes: NotificationLog, file: StaticString = #filePath, line: UInt = #line) throws {
        try context.performAndWait {
            let object = try XCTUnwrap(context.registeredObject(for: id) as? Movie,
                                       "the merged insertion is registered in the receiving context", file: file, line: line)
            XCTAssertTrue(object.isFault, "a merged insertion arrives as a fault", file: file, line: line)
            XCTAssertFalse(object.isInserted, "it is saved already, not an insertion of this context", file: file, line: line)
            XCTAssertFalse(context.hasChanges, "merging leaves nothing to save", file: file, line: line)
            let inserted = changes.notes.compactMap { $0.userInfo?["inserted"] as? Set<ManagedObject> }.reduce(into: Set()) { $0.formUnion($1) }
            XCTAssertTrue(inserted.contains(object), "did-change reports the merged insertion", file: file, line: line)
            XCTAssertEqual(object.title, title, file: file, line: line)
            XCTAssertEqual(object.year, 1982, file: file, line: line)
            XCTAssertFalse(object.isFault, file: file, line: line)
        }
    }

    func testMergeChangesFromContextDidSaveFaultsInInsertedObjects() throws {
        let (id, note) = try saveNewMovieInBackground("Blade Runner")
        XCTAssertNil(context.registeredObject(for: id))
        let changes = observeChanges(of: context)
        context.mergeChanges(fromContextDidSave: note)
        try assertFaultedIn(id, title: "Blade Runner", in: context, changes: changes)
    }

    func testAutomaticMergingFaultsInInsertedObjects() throws {
        context.automaticallyMergesChangesFromParent = true
        let changes = observeChanges(of: context)
        let merged = expectation(forNotification: ManagedObjectContext.didChangeObjectsNotification, object: context)
        let (id, _) = try saveNewMovieInBackground("Tron")
        wait(for: [merged], timeout: 5)
        try assertFaultedIn(id, title: "Tron", in: context, changes: changes)
    }

    func testAChildThatMergesAutomaticallyFaultsInItsParentsInsertions() throws {
        let child = ManagedObjectContext(.privateQueue)
        child.parent = context
        child.automaticallyMergesChangesFromParent = true
        let changes = observeChanges(of: child)
        let merged = expectation(forNotification: ManagedObjectContext.didChangeObjectsNotification, object: child)
        let movie = makeMovie("Tron", year: 1982)
        try context.save()
        wait(for: [merged], timeout: 5)
        try assertFaultedIn(movie.objectID, title: "Tron", in: child, changes: changes)
    }

    func testAGrandchildFaultsInWhatItsParentSavedUpUnderTemporaryIDs() throws {
        let child = ManagedObjectContext(.privateQueue)
        child.parent = context
        let grandchild = ManagedObjectContext(.privateQueue)
        grandchild.parent = child
        grandchild.automaticallyMergesChangesFromParent = true
        let changes = observeChanges(of: grandchild)
        let merged = expectation(forNotification: ManagedObjectContext.didChangeObjectsNotification, object: grandchild)
        let id = try child.performAndWait { () -> ManagedObjectID in
            let movie = Movie(context: child)
            movie.title = "Tron"
            movie.year = 1982
            try child.save()
            return movie.objectID
        }
        XCTAssertTrue(id.isTemporaryID, "a child's save keeps temporary IDs")
        wait(for: [merged], timeout: 5)
        try assertFaultedIn(id, title: "Tron", in: grandchild, changes: changes)
    }

    func testMergeChangesFromRemoteContextSaveFaultsInInsertedObjects() throws {
        let (id, _) = try saveNewMovieInBackground("Brazil")
        let changes = observeChanges(of: context)
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: ["inserted": [id.uriRepresentation()]], into: [context])
        try assertFaultedIn(id, title: "Brazil", in: context, changes: changes)
    }

    /// Apple documents the three did-change keys with arrays of IDs or URIs; anything else is undocumented, so it
    /// is not merged and the mistake reaches the context's next save.
    func testARemoteSaveOutsideWhatAppleDocumentsIsNotMergedAndIsReported() throws {
        let (id, note) = try saveNewMovieInBackground("Brazil")
        let wrong: [(String, [AnyHashable: Any], String)] = [
            ("the object-IDs key", ["inserted_objectIDs": [id]], "\"inserted_objectIDs\""),
            ("a set of IDs", ["inserted": Set([id])], "a set"),
            ("the did-save notification as posted", note.userInfo ?? [:], "a set"),
            ("an unknown key", ["refreshed": [id]], "\"refreshed\""),
            ("a URL that names no object", ["inserted": [URL(string: "https://example.com/Movie/p1")!]], "no object ID's URI"),
        ]
        for (what, data, said) in wrong {
            let receiver = container.newBackgroundContext()
            let changes = observeChanges(of: receiver)
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: data, into: [receiver])
            receiver.performAndWait {
                XCTAssertTrue(changes.notes.isEmpty, "\(what): nothing merged")
                makeMovie("Mine", in: receiver)
                let error = assertPersistenceError(.coreData) { try receiver.save() }
                XCTAssertTrue(error?.message.contains(said) == true, "\(what): \(error?.message ?? "no error")")
                XCTAssertTrue(error?.message.contains("undocumented") == true, "\(what): \(error?.message ?? "")")
            }
        }
        // The documented spellings, NSArray included, merge without a mistake.
        let receiver = container.newBackgroundContext()
        let changes = observeChanges(of: receiver)
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSInsertedObjectsKey: NSArray(array: [id]),
                                                                  NSUpdatedObjectsKey: [ManagedObjectID](),
                                                                  NSDeletedObjectsKey: [URL]()],
                                          into: [receiver])
        try receiver.performAndWait {
            let inserted = changes.notes.compactMap { $0.userInfo?["inserted"] as? Set<ManagedObject> }.flatMap { $0 }
            XCTAssertEqual(inserted.map(\.objectID), [id], "merged")
            makeMovie("Mine", in: receiver)
            XCTAssertNoThrow(try receiver.save())
        }
    }

    func testAMergedInsertionIsFoundByFetchesAsTheSameObject() throws {
        let (id, note) = try saveNewMovieInBackground("Alien")
        context.mergeChanges(fromContextDidSave: note)
        let fetched = try context.fetch(FetchRequest<Movie>(entityName: "Movie"))
        XCTAssertEqual(fetched.count, 1)
        XCTAssertTrue(fetched.first === context.registeredObject(for: id), "one object per ID per context")
    }

    func testMergingAnInsertionTwiceRegistersOneObject() throws {
        let (id, note) = try saveNewMovieInBackground("Alien")
        context.mergeChanges(fromContextDidSave: note)
        // Held here: a context keeps an unchanged object only while something does.
        let first = context.object(with: id)
        context.mergeChanges(fromContextDidSave: note)
        XCTAssertTrue(first === context.registeredObject(for: id))
        XCTAssertEqual(context.registeredObjects.count, 1)
    }

    func testAMergedInsertionRevivesAnObjectReadBeforeItsRowExisted() throws {
        let background = container.newBackgroundContext()
        let log = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                           object: background, queue: nil) { log.append($0, flag: true) }
        defer { NotificationCenter.default.removeObserver(token) }
        let (movie, id) = try background.performAndWait { () -> (Movie, ManagedObjectID) in
            let movie = Movie(context: background)
            movie.title = "Early"
            try background.obtainPermanentIDs(for: [movie])
            return (movie, movie.objectID)
        }
        let early = context.object(with: id)
        XCTAssertNil(early.value(forKey: "title"))
        XCTAssertTrue(early.isDeleted, "no row yet: the fault reads as deleted")
        try background.performAndWait {
            _ = movie
            try background.save()
        }
        context.mergeChanges(fromContextDidSave: try XCTUnwrap(log.notes.first))
        XCTAssertTrue(context.registeredObject(for: id) === early)
        XCTAssertFalse(early.isDeleted)
        XCTAssertEqual((early as? Movie)?.title, "Early")
    }

    func testUpdatedObjectsNotRegisteredStayUnregistered() throws {
        // Core Data refreshes only the updated objects the context already holds; it does not fault in the rest.
        let movie = makeMovie("Heat", year: 1995)
        try context.save()
        let id = movie.objectID
        context.reset()
        let background = container.newBackgroundContext()
        let log = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                           object: background, queue: nil) { log.append($0, flag: true) }
        defer { NotificationCenter.default.removeObserver(token) }
        try background.performAndWait {
            (try background.existingObject(with: id) as? Movie)?.rating = 4
            try background.save()
        }
        context.mergeChanges(fromContextDidSave: try XCTUnwrap(log.notes.first))
        XCTAssertNil(context.registeredObject(for: id))
    }

    func testAMergedInsertionOfAnotherStoreIsNotRegistered() throws {
        let other = try makeContainer()
        let log = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                           object: other.viewContext, queue: nil) { log.append($0, flag: true) }
        defer { NotificationCenter.default.removeObserver(token) }
        let movie = makeMovie("Elsewhere", in: other.viewContext)
        try other.viewContext.save()
        context.mergeChanges(fromContextDidSave: try XCTUnwrap(log.notes.first))
        XCTAssertNil(context.registeredObject(for: movie.objectID))
        context.rollback()
    }
}
