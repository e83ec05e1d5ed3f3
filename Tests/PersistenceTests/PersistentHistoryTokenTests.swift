import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// History tokens: equal by store and transaction, neither ordered nor `Codable` (as Core Data's), archived as Core
/// Data archives them, and good after a relaunch; and history beside a pinned query generation.
final class PersistentHistoryTokenTests: PersistenceTestCase {
    private typealias Note = HistoryModel.Note

    override func makeModel() throws -> ManagedObjectModel { try HistoryModel.make() }

    func testTokensAreEqualByStoreAndTransactionAndNeitherOrderedNorCodable() {
        let early = PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 3)
        XCTAssertEqual(early, PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 3))
        XCTAssertEqual(Set([early, PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 3)]).count, 1)
        XCTAssertNotEqual(early, PersistentHistoryToken(storeIdentifier: "T", transactionNumber: 3))
        XCTAssertNotEqual(early, PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 7))
        // Core Data's NSPersistentHistoryToken is NSSecureCoding only: `tokens.min()` and JSONEncoder do not compile.
        let token: Any = early
        XCTAssertFalse(token is any Comparable, "tokens are not Comparable")
        XCTAssertFalse(token is any Encodable, "tokens are not Encodable")
        XCTAssertFalse(PersistentHistoryToken.self is any Decodable.Type, "tokens are not Decodable")
    }

    func testATokenArchivesWithNSKeyedArchiver() throws {
        let token = PersistentHistoryToken(storeIdentifier: "5D2E1C3B-AAAA-4BBB-8CCC-0123456789AB", transactionNumber: 42)
        let archive = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
        let unarchived = try NSKeyedUnarchiver.unarchivedObject(ofClass: PersistentHistoryToken.self, from: archive)
        XCTAssertEqual(unarchived, token)
        XCTAssertTrue(PersistentHistoryToken.supportsSecureCoding)
    }

    func testATokenKeptOnDiskReadsOnAfterARelaunch() throws {
        let folder = try temporaryFolder()
        let url = folder.appendingPathComponent("notes.sqlite")
        let tokenFile = folder.appendingPathComponent("token.data")
        do {
            let container = try HistoryModel.container(HistoryModel.description(url))
            Note(context: container.viewContext).title = "Read"
            try container.viewContext.save()
            let token = try XCTUnwrap(container.viewContext.history().last?.token)
            XCTAssertEqual(container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil), token)
            try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true).write(to: tokenFile)
            Note(context: container.viewContext).title = "Unread"
            try container.viewContext.save()
        }
        let container = try HistoryModel.container(HistoryModel.description(url))
        let token = try NSKeyedUnarchiver.unarchivedObject(ofClass: PersistentHistoryToken.self, from: Data(contentsOf: tokenFile))
        let unread = try container.viewContext.history(after: token)
        XCTAssertEqual(unread.count, 1)
        let note = try XCTUnwrap(container.viewContext.existingObject(with: XCTUnwrap(unread.first?.changes?.first?.changedObjectID)) as? Note)
        XCTAssertEqual(note.title, "Unread")
    }

    func testAPinnedContextKeepsItsSnapshotWhileHistoryGrows() throws {
        let container = try HistoryModel.container(HistoryModel.description())
        let view = container.viewContext
        view.transactionAuthor = "app"
        Note(context: view).title = "First"
        try view.save()
        let start = try XCTUnwrap(view.history().last?.token)

        try view.setQueryGenerationFrom(.current)
        let notes = FetchRequest<Note>(entityName: "Note")
        XCTAssertEqual(try view.count(for: notes), 1)
        let importer = container.newBackgroundContext()
        importer.transactionAuthor = "importer"
        try importer.performAndWait {
            Note(context: importer).title = "Second"
            try importer.save()
            try importer.execute(BatchInsertRequest(entityName: "Note", objects: [["title": "Third"]]))
        }
        // The history already tells of both transactions; the pinned context still reads its snapshot.
        let unread = try view.history(after: start)
        XCTAssertEqual(unread.map(\.author), ["importer", "importer"])
        XCTAssertEqual(try view.count(for: notes), 1)
        XCTAssertNotNil(view.queryGenerationToken)

        // Merging the history moves the context to the newest data, as merging a save does.
        for transaction in unread { view.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
        XCTAssertEqual(try view.count(for: notes), 3)
    }
}
