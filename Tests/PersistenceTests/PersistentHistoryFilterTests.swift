import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// A history request narrowed by a fetch request (`PersistentHistoryChangeRequest.fetchRequest`): on the transaction
/// entity it keeps the transactions its predicate matches, on the change entity the changes it matches and the
/// transactions that hold them. Every filtered read is checked against the unfiltered history filtered in Swift.
final class PersistentHistoryFilterTests: HistoryTestCase {
    /// What the fixture wrote, to filter on.
    private struct Fixture {
        /// Between the second and third transactions.
        var middle: Date
        var alpha: ManagedObjectID
        var delta: ManagedObjectID
    }

    /// Six transactions by two authors over notes, a checklist (a subentity of Note) and folders, with every kind
    /// of change: saves of the app's view context ("app") and batch requests of an importer ("importer").
    private func writeFixture() throws -> Fixture {
        let importer = history.newBackgroundContext()
        importer.transactionAuthor = "importer"
        importer.name = "import"
        view.transactionAuthor = "app"
        // The importer's batch update changes Alpha behind the view context's back.
        view.mergePolicy = MergePolicy.mergeByPropertyObjectTrump

        let inbox = Folder(context: view)
        inbox.name = "Inbox"
        let alpha = note("Alpha", score: 1, folder: inbox)
        let beta = note("Beta", folder: inbox)
        let checklist = Checklist(context: view)
        checklist.title = "Chores"
        try view.save()

        try importer.performAndWait {
            _ = try importer.execute(BatchInsertRequest(entityName: "Note", objects: [["title": "Delta"], ["title": "Echo"]]))
        }
        Thread.sleep(forTimeInterval: 0.05)
        let middle = Date()
        Thread.sleep(forTimeInterval: 0.05)

        alpha.score = 2
        checklist.done = true
        view.delete(beta)
        try view.save()

        try importer.performAndWait {
            let update = BatchUpdateRequest(entityName: "Note")
            update.predicate = FetchPredicate(format: "title IN %@", ["Alpha", "Delta"])
            update.propertiesToUpdate = ["score": 9]
            _ = try importer.execute(update)
        }

        // A new folder with a new note, and Alpha moved into it: insertions and updates of two entities at once.
        let archive = Folder(context: view)
        archive.name = "Archive"
        note("Foxtrot", folder: archive)
        alpha.folder = archive
        try view.save()

        let delta = try importer.performAndWait { () -> ManagedObjectID in
            let request = FetchRequest<Note>(entityName: "Note")
            request.predicate = FetchPredicate(format: "title == %@", "Delta")
            let delta = try XCTUnwrap(importer.fetch(request).first).objectID
            _ = try importer.execute(BatchDeleteRequest(objectIDs: [delta]))
            return delta
        }
        XCTAssertEqual(try view.history().count, 6)
        return Fixture(middle: middle, alpha: alpha.objectID, delta: delta)
    }

    @discardableResult
    private func note(_ title: String, score: Int = 0, folder: Folder? = nil) -> Note {
        let note = Note(context: view)
        note.title = title
        note.score = score
        note.folder = folder
        return note
    }

    // MARK: - Comparing

    /// One change as a reader sees it.
    private struct ChangeRow: Equatable, CustomStringConvertible {
        var id: Int64
        var type: PersistentHistoryChangeType
        var object: ManagedObjectID
        var updated: Set<String>?

        init(_ change: PersistentHistoryChange) {
            id = change.changeID
            type = change.changeType
            object = change.changedObjectID
            updated = change.updatedProperties.map { Set($0.map(\.name)) }
        }

        var description: String { "\(id) \(type) \(object.entityName)/\(object.primaryKey ?? -1)" }
    }

    /// One transaction as a reader sees it, with its changes (nil when read without them).
    private struct TransactionRow: Equatable, CustomStringConvertible {
        var number: Int64
        var author: String?
        var changes: [ChangeRow]?

        init(_ transaction: PersistentHistoryTransaction, changes: [PersistentHistoryChange]? = nil) {
            number = transaction.transactionNumber
            author = transaction.author
            self.changes = (changes ?? transaction.changes)?.map(ChangeRow.init)
        }

        var description: String { "\(number) \(author ?? "nil") \(changes.map(String.init(describing:)) ?? "-")" }
    }

    private func rows(_ transactions: [PersistentHistoryTransaction]?) -> [TransactionRow] {
        (transactions ?? []).map { TransactionRow($0) }
    }

    /// The whole history after `token`, with its changes, unfiltered.
    private func everything(after token: PersistentHistoryToken? = nil) throws -> [PersistentHistoryTransaction] {
        try view.history(after: token)
    }

    /// What a change fetch request should give: the transactions holding a change `keep` accepts, each with only those.
    private func expected(after token: PersistentHistoryToken? = nil,
                          keeping keep: (PersistentHistoryChange) -> Bool) throws -> [TransactionRow] {
        try everything(after: token).compactMap { transaction in
            let kept = (transaction.changes ?? []).filter(keep)
            return kept.isEmpty ? nil : TransactionRow(transaction, changes: kept)
        }
    }

    private func run(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        // Through the public execute(_:), as app code calls it, which answers a PersistentStoreResult.
        let result: PersistentStoreResult = try view.performAndWait { try view.execute(request as PersistentStoreRequest) }
        return try XCTUnwrap(result as? PersistentHistoryResult)
    }

    private func transactionFetch(_ format: String, _ arguments: Any?...) throws -> FetchRequest<any FetchRequestResult> {
        let fetch = try XCTUnwrap(PersistentHistoryTransaction.fetchRequest)
        fetch.predicate = FetchPredicate(format: format, argumentArray: arguments)
        return fetch
    }

    /// A fetch request on the change entity, made the way Apple's WWDC sessions make it: from the entity the
    /// context gives.
    private func changeFetch(_ format: String, _ arguments: Any?...) throws -> FetchRequest<any FetchRequestResult> {
        let fetch = FetchRequest<any FetchRequestResult>()
        fetch.entity = try XCTUnwrap(PersistentHistoryChange.entityDescription(with: view))
        fetch.predicate = FetchPredicate(format: format, argumentArray: arguments)
        return fetch
    }

    private func request(after token: PersistentHistoryToken? = nil,
                         _ fetch: FetchRequest<any FetchRequestResult>) -> PersistentHistoryChangeRequest {
        let request = PersistentHistoryChangeRequest.fetchHistory(after: token)
        request.fetchRequest = fetch
        return request
    }

    // MARK: - The transaction entity

    func testAnAuthorPredicateNarrowsATokenRequestAsFilteringInSwiftDoes() throws {
        _ = try writeFixture()
        let start = try XCTUnwrap(everything().first?.token)
        // Apple's sample code leaves its own transactions out this way.
        let filtered = try run(request(after: start, transactionFetch("%K != %@", "author", "app"))).transactions
        let inSwift = try everything(after: start).filter { $0.author != "app" }
        XCTAssertEqual(rows(filtered), rows(inSwift))
        XCTAssertEqual(inSwift.map(\.author), ["importer", "importer", "importer"])
        XCTAssertLessThan(inSwift.count, try everything(after: start).count)
    }

    func testTimestampTokenAndNumberPredicatesAgreeWithSwift() throws {
        let fixture = try writeFixture()
        let all = try everything()

        let recent = try run(request(transactionFetch("timestamp > %@", fixture.middle))).transactions
        XCTAssertEqual(rows(recent), rows(all.filter { $0.timestamp > fixture.middle }))
        XCTAssertEqual(recent?.count, 4)

        // `token` compares a transaction with another's token, as Core Data's transaction entity allows.
        let afterThird = try run(request(transactionFetch("token > %@ AND author == %@", all[2].token, "app"))).transactions
        XCTAssertEqual(rows(afterThird), rows(all.filter { $0.transactionNumber > all[2].transactionNumber && $0.author == "app" }))
        XCTAssertEqual(afterThird?.count, 1)

        // Narrowing a date request: both bounds hold.
        let dated = PersistentHistoryChangeRequest.fetchHistory(after: fixture.middle)
        dated.fetchRequest = try transactionFetch("transactionNumber <= %@ OR contextName == %@", all[3].transactionNumber, "viewContext")
        XCTAssertEqual(rows(try run(dated).transactions),
                       rows(all.filter { $0.timestamp > fixture.middle
                           && ($0.transactionNumber <= all[3].transactionNumber || $0.contextName == "viewContext") }))
    }

    // MARK: - The change entity

    func testAChangedEntityPredicateKeepsTheTransactionsTouchingItWithOnlyThoseChanges() throws {
        _ = try writeFixture()
        let noteEntity = Note.entity()
        let fetch = try changeFetch("changedEntity == %@", noteEntity)

        let transactions = try run(request(fetch)).transactions
        // The entity itself, not its subentities: the checklist's changes are left out.
        let inSwift = try expected { $0.changedObjectID.entityName == "Note" }
        XCTAssertEqual(rows(transactions), inSwift)
        XCTAssertTrue(try everything().contains { $0.changes?.contains { $0.changedObjectID.entityName == "Checklist" } == true })
        XCTAssertTrue(try everything().contains { $0.changes?.contains { $0.changedObjectID.entityName != "Note" } == true })
        XCTAssertEqual(transactions?.count, 6)
        XCTAssertTrue(transactions?.allSatisfy { $0.changes?.allSatisfy { $0.transaction != nil } == true } == true)

        let flat = inSwift.flatMap { $0.changes ?? [] }
        let changesOnly = request(fetch)
        changesOnly.resultType = .changesOnly
        XCTAssertEqual(try run(changesOnly).changes?.map(ChangeRow.init), flat)
        let objectIDs = request(fetch)
        objectIDs.resultType = .objectIDs
        var seen = Set<ManagedObjectID>()
        XCTAssertEqual(try run(objectIDs).objectIDs, flat.map(\.object).filter { seen.insert($0).inserted })
        let count = request(fetch)
        count.resultType = .count
        XCTAssertEqual(try run(count).count, flat.count)
        let transactionsOnly = request(fetch)
        transactionsOnly.resultType = .transactionsOnly
        XCTAssertEqual(try run(transactionsOnly).transactions?.map(\.transactionNumber), inSwift.map(\.number))
    }

    func testAChangeTypePredicateMatchesEachObjectsChangeAsTheHistoryReportsIt() throws {
        _ = try writeFixture()
        for type in [PersistentHistoryChangeType.insert, .update, .delete] {
            let transactions = try run(request(changeFetch("changeType == %d", type.rawValue))).transactions
            XCTAssertEqual(rows(transactions), try expected { $0.changeType == type }, "\(type)")
            XCTAssertFalse(transactions?.isEmpty ?? true, "\(type)")
        }
        // Together with the entity, after a token: every bound holds.
        let start = try XCTUnwrap(everything()[1].token)
        let fetch = try changeFetch("changeType != %d AND changedEntity IN %@", PersistentHistoryChangeType.insert.rawValue,
                                    [Note.entity(), Folder.entity()])
        XCTAssertEqual(rows(try run(request(after: start, fetch)).transactions),
                       try expected(after: start) { $0.changeType != .insert && ["Note", "Folder"].contains($0.changedObjectID.entityName) })
    }

    func testAChangedObjectIDPredicateFollowsOneObject() throws {
        let fixture = try writeFixture()
        let alpha = try run(request(changeFetch("changedObjectID == %@", fixture.alpha))).transactions
        XCTAssertEqual(rows(alpha), try expected { $0.changedObjectID == fixture.alpha })
        XCTAssertEqual(alpha?.count, 4, "inserted, updated, batch-updated, moved")

        let both = try changeFetch("changedObjectID IN %@ AND changeType == %d", [fixture.alpha, fixture.delta],
                                   PersistentHistoryChangeType.update.rawValue)
        XCTAssertEqual(rows(try run(request(both)).transactions),
                       try expected { [fixture.alpha, fixture.delta].contains($0.changedObjectID) && $0.changeType == .update })

        let others = try changeFetch("changedObjectID != %@", fixture.alpha)
        XCTAssertEqual(rows(try run(request(others)).transactions), try expected { $0.changedObjectID != fixture.alpha })
    }

    func testAChangeIsMatchedAsTheHistoryReportsItNotAsItsRowsWereWritten() throws {
        // A scene of an ordered relationship is inserted, then given its place: two rows, one insertion.
        let (films, movie) = try savedFilmWithScenes()
        let view = films.viewContext
        movie.sceneList = movie.sceneList.reversed()
        movie.rating = 8.2
        try view.save()

        func changes(_ type: PersistentHistoryChangeType) throws -> [ChangeRow] {
            let request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            request.resultType = .changesOnly
            request.fetchRequest = try changeFetch("changeType == %d", type.rawValue)
            let result = try view.performAndWait { try view.execute(request as PersistentStoreRequest) } as? PersistentHistoryResult
            return try XCTUnwrap(result?.changes).map(ChangeRow.init)
        }
        let all = try view.history().flatMap { $0.changes ?? [] }
        XCTAssertEqual(try changes(.insert), all.filter { $0.changeType == .insert }.map(ChangeRow.init))
        XCTAssertEqual(try changes(.insert).count, 4)
        XCTAssertEqual(try changes(.update), all.filter { $0.changeType == .update }.map(ChangeRow.init))
        XCTAssertEqual(try changes(.update).filter { $0.object == movie.objectID }.count, 1, "the movie's rows fold into one update")
    }

    func testFetchHistoryWithFetchTakesAChangeFetchRequestToo() throws {
        let fixture = try writeFixture()
        let deletions = try changeFetch("changeType == %d", PersistentHistoryChangeType.delete.rawValue)
        let transactions = try run(PersistentHistoryChangeRequest.fetchHistory(withFetch: deletions)).transactions
        XCTAssertEqual(rows(transactions), try expected { $0.changeType == .delete })
        XCTAssertEqual(transactions?.last?.changes?.map(\.changedObjectID), [fixture.delta])
    }

    // MARK: - Refused

    func testAKeyHistoryDoesNotHaveFailsClearly() throws {
        _ = try writeFixture()
        let title = assertPersistenceError(.coreData) { _ = try self.run(self.request(self.transactionFetch("title == %@", "Alpha"))) }
        XCTAssertTrue(title?.message.contains("'title'") == true, "\(String(describing: title))")
        XCTAssertTrue(title?.message.contains("transactionNumber") == true, "names the keys it has")
        // A change request filters on the change's keys, not its transaction's.
        let author = assertPersistenceError(.coreData) { _ = try self.run(self.request(self.changeFetch("author != %@", "app"))) }
        XCTAssertTrue(author?.message.contains("changedEntity") == true, "\(String(describing: author))")
        assertPersistenceError(.coreData) { _ = try self.run(self.request(self.changeFetch("tombstone != nil"))) }
        assertPersistenceError(.coreData) { _ = try self.run(self.request(self.changeFetch("transaction.author == %@", "app"))) }
        assertPersistenceError(.coreData) { _ = try self.run(self.request(self.transactionFetch("changes.@count > 0"))) }
        assertPersistenceError(.coreData) {
            let fixture = try self.changeFetch("changedObjectID > %@", self.everything()[0].changes![0].changedObjectID)
            _ = try self.run(self.request(fixture))
        }

        let sorted = try transactionFetch("author != nil")
        sorted.sortDescriptors = [FetchSortDescriptor(key: "changeType", ascending: true)]
        assertPersistenceError(.coreData) { _ = try self.run(self.request(sorted)) }
        // Apple documents no ordering or limit of a change request: refused rather than guessed.
        let limited = try changeFetch("changeType == 0")
        limited.fetchLimit = 1
        assertPersistenceError(.coreData) { _ = try self.run(self.request(limited)) }

        // An entity the store's model does not have.
        let stranger = try ManagedObjectModel(entities: [EntityDescription(name: "Stranger", properties: [.attribute("x", .string)])])
        let strangerEntity = try XCTUnwrap(stranger.entitiesByName["Stranger"])
        assertPersistenceError(.coreData) { _ = try self.run(self.request(self.changeFetch("changedEntity == %@", strangerEntity))) }

        // A fetch request on a model entity, and one on a purge.
        assertPersistenceError(.coreData) {
            _ = try self.run(self.request(FetchRequest<any FetchRequestResult>(entityName: "Note")))
        }
        let purge = PersistentHistoryChangeRequest.deleteHistory(before: nil as PersistentHistoryToken?)
        purge.fetchRequest = try transactionFetch("author == %@", "app")
        assertPersistenceError(.coreData) { _ = try self.run(purge) }
        XCTAssertEqual(try everything().count, 6, "nothing was purged")
    }

    // MARK: - The entities

    func testTheHistoryEntitiesHaveCoreDatasKeys() throws {
        let change = try XCTUnwrap(PersistentHistoryChange.entityDescription(with: view))
        XCTAssertTrue(change === PersistentHistoryChange.entityDescription)
        XCTAssertEqual(Set(change.attributesByName.keys), ["changedEntity", "changedID", "changedObjectID", "changeType"])
        XCTAssertTrue(PersistentHistoryChange.fetchRequest?.entity === change)
        XCTAssertNil(PersistentHistoryChange.fetchRequest?.predicate)

        let transaction = try XCTUnwrap(PersistentHistoryTransaction.entityDescription(with: view))
        XCTAssertEqual(Set(transaction.attributesByName.keys),
                       ["author", "bundleID", "contextName", "processID", "timestamp", "token", "transactionNumber"])
        XCTAssertTrue(PersistentHistoryTransaction.fetchRequest?.entity === transaction)
        XCTAssertFalse(change === transaction)
    }
}
