import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// Core Data's notification names and user-info keys, both spellings, and the will-save and did-merge
/// notifications.
final class NotificationNamesTests: PersistenceTestCase {
    /// The notifications among `names` posted while `body` runs, in order.
    private func posted(_ names: [Notification.Name], during body: () throws -> Void) rethrows -> [Notification] {
        let log = NotificationLog()
        let tokens = names.map { name in
            NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { log.append($0, flag: true) }
        }
        defer { tokens.forEach(NotificationCenter.default.removeObserver) }
        try body()
        return log.notes
    }

    func testTheNamesAndKeysAreCoreDatasStrings() {
        XCTAssertEqual(Notification.Name.NSManagedObjectContextDidSave.rawValue, "NSManagedObjectContextDidSaveNotification")
        XCTAssertEqual(Notification.Name.NSManagedObjectContextWillSave.rawValue, "NSManagedObjectContextWillSaveNotification")
        XCTAssertEqual(Notification.Name.NSManagedObjectContextObjectsDidChange.rawValue,
                       "NSManagedObjectContextObjectsDidChangeNotification")
        XCTAssertEqual(Notification.Name.NSManagedObjectContextDidSaveObjectIDs.rawValue,
                       "NSManagedObjectContextDidSaveObjectIDsNotification")
        XCTAssertEqual(Notification.Name.NSManagedObjectContextDidMergeChangesObjectIDs.rawValue,
                       "NSManagedObjectContextDidMergeChangesObjectIDsNotification")
        XCTAssertEqual(ManagedObjectContext.didSaveObjectsNotification, .NSManagedObjectContextDidSave)
        XCTAssertEqual([NSInsertedObjectsKey, NSUpdatedObjectsKey, NSDeletedObjectsKey, NSRefreshedObjectsKey,
                        NSInvalidatedObjectsKey, NSInvalidatedAllObjectsKey],
                       ["inserted", "updated", "deleted", "refreshed", "invalidated", "invalidatedAll"])
        XCTAssertEqual([NSInsertedObjectIDsKey, NSUpdatedObjectIDsKey, NSDeletedObjectIDsKey, NSRefreshedObjectIDsKey,
                        NSInvalidatedObjectIDsKey],
                       ["inserted_objectIDs", "updated_objectIDs", "deleted_objectIDs", "refreshed_objectIDs",
                        "invalidated_objectIDs"])
    }

    func testAnObserverWrittenTheOlderWayGetsTheSave() throws {
        let movie = makeMovie("Heat")
        let seen = try posted([.NSManagedObjectContextDidSave]) { try context.save() }
        XCTAssertEqual(seen.count, 1)
        let inserted = try XCTUnwrap(seen.first?.userInfo?[NSInsertedObjectsKey] as? Set<ManagedObject>)
        XCTAssertEqual(inserted, [movie])
    }

    func testWillSaveIsPostedOnceBeforeTheSaveAndOnlyWhenThereIsSomethingToSave() throws {
        makeMovie("Ran")
        let warned = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextWillSave, object: nil, queue: nil) { [context] note in
            // The observer runs where the save posts it: on the main thread, the view context's queue.
            let stillHeld = MainActor.assumeIsolated { context.insertedObjects.count == 1 }
            warned.append(note, flag: stillHeld)
        }
        defer { NotificationCenter.default.removeObserver(token) }
        let seen = try posted([.NSManagedObjectContextWillSave, .NSManagedObjectContextDidSave]) { try context.save() }
        XCTAssertEqual(seen.map(\.name), [.NSManagedObjectContextWillSave, .NSManagedObjectContextDidSave])
        XCTAssertTrue(seen[0].object as AnyObject === context)
        XCTAssertEqual(warned.recordedFlags, [true], "the context still holds its changes when it warns")
        XCTAssertNil(seen[0].userInfo)
        let idle = try posted([.NSManagedObjectContextWillSave]) { try context.save() }
        XCTAssertTrue(idle.isEmpty, "a save with nothing to save posts nothing")
    }

    func testAChildsSaveWarnsFromTheChild() throws {
        let child = ManagedObjectContext(.mainQueue)
        child.parent = context
        makeMovie("Stalker", in: child)
        let seen = try posted([.NSManagedObjectContextWillSave]) { try child.save() }
        XCTAssertEqual(seen.count, 1)
        XCTAssertTrue(seen.first?.object as AnyObject === child)
    }

    func testAMergeReportsWhatItMergedByID() throws {
        let kept = makeMovie("Kept")
        let gone = makeMovie("Gone")
        try context.save()
        let other = container.newBackgroundContext()
        let saves = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: other, queue: nil) { saves.append($0, flag: true) }
        defer { NotificationCenter.default.removeObserver(token) }
        var addedID: ManagedObjectID?
        try other.performAndWait {
            (try other.existingObject(with: kept.objectID) as? Movie)?.title = "Kept, renamed"
            other.delete(try other.existingObject(with: gone.objectID))
            let added = Movie(context: other)
            added.title = "Added"
            try other.save()
            addedID = added.objectID
        }
        let note = try XCTUnwrap(saves.notes.first)
        let merged = posted([.NSManagedObjectContextDidMergeChangesObjectIDs]) { context.mergeChanges(fromContextDidSave: note) }
        XCTAssertEqual(merged.count, 1)
        XCTAssertTrue(merged.first?.object as AnyObject === context)
        let info = try XCTUnwrap(merged.first?.userInfo)
        XCTAssertEqual(info[NSInsertedObjectIDsKey] as? Set<ManagedObjectID>, [try XCTUnwrap(addedID)])
        XCTAssertEqual(info[NSUpdatedObjectIDsKey] as? Set<ManagedObjectID>, [kept.objectID])
        XCTAssertEqual(info[NSDeletedObjectIDsKey] as? Set<ManagedObjectID>, [gone.objectID])
        let nothing = posted([.NSManagedObjectContextDidMergeChangesObjectIDs]) {
            context.mergeChanges(fromContextDidSave: Notification(name: .NSManagedObjectContextDidSave, object: other, userInfo: [:]))
        }
        XCTAssertTrue(nothing.isEmpty, "a merge that changed nothing here posts nothing")
    }
}
