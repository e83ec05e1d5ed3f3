import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// Persistent history: what a store with `NSPersistentHistoryTrackingKey` records for saves and batch requests,
/// and what a history request reads back.
final class PersistentHistoryTests: HistoryTestCase {
    @discardableResult
    private func makeNote(_ title: String, score: Int = 0, in context: ManagedObjectContext? = nil) -> Note {
        let note = Note(context: context ?? view)
        note.title = title
        note.score = score
        note.uuid = UUID()
        return note
    }

    // MARK: - Saves

    func testASaveIsRecordedWithItsAuthorContextProcessAndChanges() throws {
        view.transactionAuthor = "app"
        let alpha = makeNote("Alpha")
        let beta = makeNote("Beta")
        let before = Date()
        try view.save()

        let transactions = try view.history()
        XCTAssertEqual(transactions.count, 1)
        let transaction = try XCTUnwrap(transactions.first)
        XCTAssertEqual(transaction.author, "app")
        XCTAssertEqual(transaction.contextName, "viewContext")
        XCTAssertEqual(transaction.processID, String(ProcessInfo.processInfo.processIdentifier))
        XCTAssertFalse(transaction.bundleID.isEmpty)
        XCTAssertEqual(transaction.storeID, history.persistentStoreCoordinator.storeIdentifier)
        XCTAssertEqual(transaction.timestamp.timeIntervalSince(before), 0, accuracy: 5)
        XCTAssertEqual(transaction.token, PersistentHistoryToken(storeIdentifier: transaction.storeID, transactionNumber: transaction.transactionNumber))
        let changes = try XCTUnwrap(transaction.changes)
        XCTAssertEqual(changes.map(\.changeType), [.insert, .insert])
        XCTAssertEqual(Set(changes.map(\.changedObjectID)), [alpha.objectID, beta.objectID])
        XCTAssertTrue(changes.allSatisfy { $0.updatedProperties == nil && $0.tombstone == nil && $0.transaction === transaction })
    }

    func testUpdatesNameTheirChangedPropertiesAndDeletionsKeepTheirTombstones() throws {
        let note = makeNote("Draft", score: 1)
        let checklist = Checklist(context: view)
        checklist.title = "Groceries"
        try view.save()
        let saved = try XCTUnwrap(view.history().last?.token)
        let uuid = try XCTUnwrap(note.uuid)

        note.score = 2
        checklist.done = true
        try view.save()
        view.delete(note)
        view.delete(checklist)
        try view.save()

        let transactions = try view.history(after: saved)
        XCTAssertEqual(transactions.count, 2)
        let updates = try XCTUnwrap(transactions[0].changes)
        XCTAssertEqual(updates.map(\.changeType), [.update, .update])
        let noteUpdate = try XCTUnwrap(updates.first { $0.changedObjectID == note.objectID })
        XCTAssertEqual(noteUpdate.updatedProperties?.map(\.name), ["score"])
        let checklistUpdate = try XCTUnwrap(updates.first { $0.changedObjectID == checklist.objectID })
        XCTAssertEqual(checklistUpdate.updatedProperties?.map(\.name), ["done"])

        let deletions = try XCTUnwrap(transactions[1].changes)
        XCTAssertEqual(deletions.map(\.changeType), [.delete, .delete])
        let noteTombstone = try XCTUnwrap(deletions.first { $0.changedObjectID.entityName == "Note" }?.tombstone)
        XCTAssertEqual(noteTombstone["title"] as? String, "Draft")
        XCTAssertEqual(noteTombstone["uuid"] as? UUID, uuid)
        XCTAssertNil(noteTombstone["score"], "only preserved attributes are kept")
        let checklistTombstone = try XCTUnwrap(deletions.first { $0.changedObjectID.entityName == "Checklist" }?.tombstone)
        XCTAssertEqual(checklistTombstone["title"] as? String, "Groceries")
        XCTAssertEqual(checklistTombstone["done"] as? Bool, true)
        XCTAssertEqual(checklistTombstone.count, 2, "a nil value is left out")
    }

    func testASaveThatChangesNothingStoredLeavesNoTransaction() throws {
        makeNote("Kept")
        try view.save()
        let count = try view.history().count
        // Permanent IDs reserve keys in a transaction of their own, which changes no object.
        let note = makeNote("Pending")
        try view.obtainPermanentIDs(for: [note])
        XCTAssertEqual(try view.history().count, count)
    }

    func testARolledBackSaveLeavesNoHistory() throws {
        let note = makeNote("Original")
        try view.save()
        let other = history.newBackgroundContext()
        try other.performAndWait {
            let copy = try XCTUnwrap(other.existingObject(with: note.objectID) as? Note)
            copy.title = "Theirs"
            try other.save()
        }
        note.title = "Mine"
        assertPersistenceError(.managedObjectMerge) { try view.save() }
        XCTAssertEqual(try view.history().count, 2, "the failed save wrote neither rows nor history")
    }

    func testEachContextRecordsItsOwnAuthorAndName() throws {
        let importer = history.newBackgroundContext()
        importer.name = "import"
        importer.transactionAuthor = "importer"
        try importer.performAndWait {
            makeNote("Imported", in: importer)
            try importer.save()
        }
        view.transactionAuthor = "app"
        makeNote("Typed")
        try view.save()
        let transactions = try view.history()
        XCTAssertEqual(transactions.map(\.author), ["importer", "app"])
        XCTAssertEqual(transactions.map(\.contextName), ["import", "viewContext"])
        XCTAssertLessThan(transactions[0].token.transactionNumber, transactions[1].token.transactionNumber)
    }

    func testEachObjectIsOneChangePerTransactionWithItsToManyRelationships() throws {
        let (films, movie) = try savedFilmWithScenes()
        let view = films.viewContext
        // Each scene's row is inserted, then given its place: still one insertion each.
        let inserted = try XCTUnwrap(view.history().last?.changes)
        XCTAssertEqual(inserted.count, 4)
        XCTAssertTrue(inserted.allSatisfy { $0.changeType == .insert })

        let actor = Actor(context: view)
        actor.name = "Tatsuya Nakadai"
        movie.actors = [actor]
        movie.sceneList = movie.sceneList.reversed()
        movie.rating = 8.2
        try view.save()
        let changes = try XCTUnwrap(view.history().last?.changes)
        XCTAssertEqual(Set(changes.map(\.changedObjectID)).count, changes.count, "one change per object")
        let movieChange = try XCTUnwrap(changes.first { $0.changedObjectID == movie.objectID })
        XCTAssertEqual(movieChange.changeType, .update)
        XCTAssertEqual(Set(movieChange.updatedProperties?.map(\.name) ?? []), ["actors", "scenes", "rating"])
        XCTAssertEqual(changes.first { $0.changedObjectID == actor.objectID }?.changeType, .insert)
        // The first and last scenes changed places: updated, with no property of their own.
        let moved = changes.filter { $0.changedObjectID.entityName == "Scene" }
        XCTAssertTrue(moved.contains { $0.changedObjectID == movie.sceneList.first?.objectID })
        XCTAssertTrue(moved.allSatisfy { $0.changeType == .update && $0.updatedProperties == [] })
    }

    // MARK: - Batch requests

    func testBatchRequestsAreRecordedWithTheirContextsAuthor() throws {
        view.transactionAuthor = "batch"
        let folder = Folder(context: view)
        folder.name = "Inbox"
        for title in ["A", "B", "C"] { makeNote(title).folder = folder }
        try view.save()
        let start = try XCTUnwrap(view.history().last?.token)

        let insert = BatchInsertRequest(entityName: "Note", objects: [["title": "D"], ["title": "E"]])
        insert.resultType = .objectIDs
        let inserted = try XCTUnwrap(view.execute(insert).objectIDs)
        let update = BatchUpdateRequest(entityName: "Note")
        update.predicate = FetchPredicate(format: "title IN %@", ["A", "D"])
        update.propertiesToUpdate = ["score": 7]
        try view.execute(update)
        // Deleting the folder cascades to its notes, in SQL.
        try view.execute(BatchDeleteRequest(objectIDs: [folder.objectID]))

        let transactions = try view.history(after: start)
        XCTAssertEqual(transactions.count, 3)
        XCTAssertTrue(transactions.allSatisfy { $0.author == "batch" && $0.contextName == "viewContext" })
        XCTAssertEqual(Set(transactions[0].changes?.map(\.changedObjectID) ?? []), Set(inserted))
        XCTAssertEqual(transactions[0].changes?.map(\.changeType), [.insert, .insert])
        let updates = try XCTUnwrap(transactions[1].changes)
        XCTAssertEqual(updates.count, 2)
        XCTAssertTrue(updates.allSatisfy { $0.changeType == .update && $0.updatedProperties?.map(\.name) == ["score"] })
        let deletions = try XCTUnwrap(transactions[2].changes)
        XCTAssertEqual(deletions.count, 4, "the folder and, by cascade, its three notes")
        XCTAssertTrue(deletions.allSatisfy { $0.changeType == .delete })
        XCTAssertEqual(Set(deletions.compactMap { $0.tombstone?["title"] as? String }), ["A", "B", "C"])
    }

    func testABatchUpsertRecordsTheRowsItInsertedAndTheRowsItUpdated() throws {
        let inbox = Folder(context: view)
        inbox.name = "Inbox"
        try view.save()
        let start = try XCTUnwrap(view.history().last?.token)
        let upsert = BatchInsertRequest(entityName: "Folder", objects: [["name": "Inbox"], ["name": "Archive"]])
        view.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        try view.execute(upsert)
        let changes = try XCTUnwrap(view.history(after: start).first?.changes)
        XCTAssertEqual(changes.count, 2)
        XCTAssertEqual(changes.first { $0.changedObjectID == inbox.objectID }?.changeType, .update)
        let archive = try XCTUnwrap(changes.first { $0.changedObjectID != inbox.objectID })
        XCTAssertEqual(archive.changeType, .insert)
        XCTAssertEqual((try view.existingObject(with: archive.changedObjectID) as? Folder)?.name, "Archive")
    }

    func testABatchRequestThatChangesNoRowLeavesNoTransaction() throws {
        makeNote("Only")
        try view.save()
        let update = BatchUpdateRequest(entityName: "Note")
        update.predicate = FetchPredicate(format: "title == %@", "Nobody")
        update.propertiesToUpdate = ["score": 1]
        try view.execute(update)
        XCTAssertEqual(try view.history().count, 1)
    }

    // MARK: - Reading

    func testHistoryIsReadAfterATokenAfterADateOrWithAFetchRequest() throws {
        let importer = history.newBackgroundContext()
        importer.transactionAuthor = "importer"
        importer.name = "import"
        view.transactionAuthor = "app"
        makeNote("One")
        try view.save()
        Thread.sleep(forTimeInterval: 0.05)
        let middle = Date()
        Thread.sleep(forTimeInterval: 0.05)
        try importer.performAndWait {
            makeNote("Two", in: importer)
            try importer.save()
        }
        makeNote("Three")
        try view.save()
        let all = try view.history()
        XCTAssertEqual(all.map(\.author), ["app", "importer", "app"])

        XCTAssertEqual(try view.history(after: all[0].token).map(\.transactionNumber), all.dropFirst().map(\.transactionNumber))
        let afterDate = try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: middle)).transactions ?? []
        XCTAssertEqual(afterDate.map(\.transactionNumber), all.dropFirst().map(\.transactionNumber))
        let afterTransaction = try view.execute(PersistentHistoryChangeRequest.fetchHistory(after: all[1])).transactions ?? []
        XCTAssertEqual(afterTransaction.map(\.transactionNumber), [all[2].transactionNumber])

        let notMine = try XCTUnwrap(PersistentHistoryTransaction.fetchRequest)
        notMine.predicate = FetchPredicate(format: "author != %@", "app")
        XCTAssertEqual(try view.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: notMine)).transactions?.map(\.author),
                       ["importer"])
        let recentByName = try XCTUnwrap(PersistentHistoryTransaction.fetchRequest)
        recentByName.predicate = FetchPredicate(format: "timestamp > %@ AND contextName == %@", middle as NSDate, "viewContext")
        XCTAssertEqual(try view.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: recentByName)).transactions?
            .map(\.transactionNumber), [all[2].transactionNumber])
        let newestFirst = try XCTUnwrap(PersistentHistoryTransaction.fetchRequest)
        newestFirst.predicate = FetchPredicate(format: "transactionNumber > %@", NSNumber(value: all[0].transactionNumber))
        newestFirst.sortDescriptors = [FetchSortDescriptor(key: "timestamp", ascending: false)]
        newestFirst.fetchLimit = 1
        XCTAssertEqual(try view.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: newestFirst)).transactions?
            .map(\.transactionNumber), [all[2].transactionNumber])

        let wrongEntity = FetchRequest<any FetchRequestResult>(entityName: "Note")
        assertPersistenceError(.coreData) { try view.execute(PersistentHistoryChangeRequest.fetchHistory(withFetch: wrongEntity)) }
    }

    func testEveryResultTypeAnswersAsCoreDataDocumentsIt() throws {
        let first = makeNote("First")
        try view.save()
        first.score = 3
        let second = makeNote("Second")
        try view.save()

        func run(_ type: PersistentHistoryResultType) throws -> PersistentHistoryResult {
            let request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            request.resultType = type
            XCTAssertEqual(request.requestType, .historyChangeRequestType)
            return try view.execute(request)
        }
        XCTAssertEqual(try run(.statusOnly).result as? Bool, true)
        XCTAssertEqual(try run(.count).count, 3, "three changes")
        XCTAssertEqual(try run(.objectIDs).objectIDs, [first.objectID, second.objectID])
        let transactionsOnly = try XCTUnwrap(run(.transactionsOnly).transactions)
        XCTAssertEqual(transactionsOnly.count, 2)
        XCTAssertTrue(transactionsOnly.allSatisfy { $0.changes == nil })
        let changesOnly = try XCTUnwrap(run(.changesOnly).changes)
        // In the order they were written: a save writes its new rows before its changed ones.
        XCTAssertEqual(changesOnly.map(\.changeType), [.insert, .insert, .update])
        XCTAssertTrue(changesOnly.allSatisfy { $0.transaction == nil })
        XCTAssertEqual(try run(.transactionsAndChanges).transactions?.map { $0.changes?.count }, [1, 2])
        XCTAssertEqual(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?).resultType,
                       .transactionsAndChanges, "Core Data's default")

        // Typed only as a store request, it runs through the untyped execute, as in Core Data.
        let untyped: any PersistentStoreRequest = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        XCTAssertEqual((try view.execute(untyped) as? PersistentHistoryResult)?.transactions?.count, 2)
    }

    func testAStoreWithoutHistoryRefusesHistoryRequests() throws {
        assertPersistenceError(.coreData) {
            try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?))
        }
    }

    // MARK: - Merging

    func testATransactionsNotificationMergesBatchChangesIntoTheViewContext() throws {
        view.transactionAuthor = "app"
        let kept = makeNote("Kept", score: 1)
        let gone = makeNote("Gone")
        try view.save()
        let start = try XCTUnwrap(view.history().last?.token)

        let importer = history.newBackgroundContext()
        importer.transactionAuthor = "importer"
        try importer.performAndWait {
            let update = BatchUpdateRequest(entityName: "Note")
            update.predicate = FetchPredicate(format: "title == %@", "Kept")
            update.propertiesToUpdate = ["score": 10]
            try importer.execute(update)
            try importer.execute(BatchDeleteRequest(objectIDs: [gone.objectID]))
            try importer.execute(BatchInsertRequest(entityName: "Note", objects: [["title": "New"]]))
        }
        XCTAssertEqual(kept.score, 1, "a batch request changes no context by itself")

        let changed = Notes()
        let observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didChangeObjectsNotification,
                                                              object: view, queue: nil) { changed.append($0) }
        defer { NotificationCenter.default.removeObserver(observer) }
        for transaction in try view.history(after: start) where transaction.author != "app" {
            view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
        }
        XCTAssertEqual(kept.score, 10, "the update was merged: the object was refreshed")
        XCTAssertNil(gone.managedObjectContext, "the deleted object left the context")
        XCTAssertTrue(view.registeredObjects.contains { ($0 as? Note)?.title == "New" }, "the insertion was registered")
        XCTAssertEqual(changed.count, 3, "one did-change notification per merged transaction")
    }
}

/// Notifications collected from any thread.
final class Notes: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [Notification] = []
    func append(_ notification: Notification) { lock.withLock { list.append(notification) } }
    var all: [Notification] { lock.withLock { list } }
    var count: Int { all.count }
}
