import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// Purging persistent history: what a purge keeps, and the error a reader gets when the history after its token is
/// gone (Core Data's 134301).
final class PersistentHistoryPurgeTests: PersistenceTestCase {
    private typealias Note = HistoryModel.Note

    override func makeModel() throws -> ManagedObjectModel { try HistoryModel.make() }

    /// Saves one note per title, one transaction each; returns the transactions.
    private func saveNotes(_ titles: [String], in container: PersistentContainer) throws -> [PersistentHistoryTransaction] {
        let view = container.viewContext
        let known = try view.history().count
        for title in titles {
            Note(context: view).title = title
            try view.save()
        }
        return Array(try view.history().dropFirst(known))
    }

    private func purge(_ request: PersistentHistoryChangeRequest, in context: ManagedObjectContext) throws -> Int? {
        request.resultType = .count
        return try context.execute(request).count
    }

    func testAPurgeBeforeATokenKeepsThatTransactionAndLaterOnesReadable() throws {
        let container = try HistoryModel.container(HistoryModel.description())
        let view = container.viewContext
        let saved = try saveNotes(["A", "B", "C", "D"], in: container)

        XCTAssertEqual(try purge(.deleteHistory(before: saved[2].token), in: view), 2)
        XCTAssertEqual(try view.history().map(\.transactionNumber), saved[2...].map(\.transactionNumber))
        // A reader that had read B goes on from C: nothing it needs is gone.
        XCTAssertEqual(try view.history(after: saved[1].token).map(\.transactionNumber), saved[2...].map(\.transactionNumber))
        XCTAssertEqual(try view.history(after: saved[2].token).map(\.transactionNumber), [saved[3].transactionNumber])
        XCTAssertEqual(try view.count(for: FetchRequest<Note>(entityName: "Note")), 4, "a purge deletes history, not objects")
    }

    func testAReaderWhoseTokenWasPurgedGetsHistoryTokenExpired() throws {
        let container = try HistoryModel.container(HistoryModel.description())
        let view = container.viewContext
        let saved = try saveNotes(["A", "B", "C"], in: container)
        try view.execute(PersistentHistoryChangeRequest.deleteHistory(before: saved[2].token))

        let error = assertPersistenceError(.persistentHistoryTokenExpired) { _ = try view.history(after: saved[0].token) }
        XCTAssertEqual((error.map { $0 as NSError })?.code, NSPersistentHistoryTokenExpiredError)
        XCTAssertEqual((error.map { $0 as NSError })?.domain, NSCocoaErrorDomain)
        // Starting over from the whole history works.
        XCTAssertEqual(try view.history().count, 1)
    }

    func testAPurgeBeforeADateDeletesOlderTransactions() throws {
        let container = try HistoryModel.container(HistoryModel.description())
        let view = container.viewContext
        let old = try saveNotes(["A", "B"], in: container)
        Thread.sleep(forTimeInterval: 0.05)
        let cut = Date()
        Thread.sleep(forTimeInterval: 0.05)
        let recent = try saveNotes(["C"], in: container)
        XCTAssertEqual(try purge(.deleteHistory(before: cut), in: view), 2)
        XCTAssertEqual(try view.history().map(\.transactionNumber), recent.map(\.transactionNumber))
        assertPersistenceError(.persistentHistoryTokenExpired) { _ = try view.history(after: old[0].token) }
        XCTAssertEqual(try view.history(after: old[1].token).count, 1)
    }

    func testAfterPurgingEverythingNumbersGoOnAndTheNewestTokenStillReads() throws {
        let url = try temporaryFolder().appendingPathComponent("notes.sqlite")
        var saved: [PersistentHistoryTransaction]
        do {
            let container = try HistoryModel.container(HistoryModel.description(url))
            saved = try saveNotes(["A", "B"], in: container)
            XCTAssertEqual(try purge(.deleteHistory(before: nil as PersistentHistoryToken?), in: container.viewContext), 2)
            XCTAssertEqual(try container.viewContext.history().count, 0)
        }
        // The purge is remembered by the file, and numbers are never used again.
        let container = try HistoryModel.container(HistoryModel.description(url))
        let later = try saveNotes(["C"], in: container)
        XCTAssertGreaterThan(later[0].transactionNumber, saved[1].transactionNumber)
        XCTAssertEqual(try container.viewContext.history(after: saved[1].token).map(\.transactionNumber), [later[0].transactionNumber])
        assertPersistenceError(.persistentHistoryTokenExpired) { _ = try container.viewContext.history(after: saved[0].token) }
    }

    func testATokenOfAnotherStoreHasExpiredAndCannotPurge() throws {
        let first = try HistoryModel.container(HistoryModel.description())
        let second = try HistoryModel.container(HistoryModel.description())
        let foreign = try saveNotes(["Elsewhere"], in: first)[0].token
        _ = try saveNotes(["Here"], in: second)
        assertPersistenceError(.persistentHistoryTokenExpired) { _ = try second.viewContext.history(after: foreign) }
        assertPersistenceError(.coreData) { try second.viewContext.execute(PersistentHistoryChangeRequest.deleteHistory(before: foreign)) }
        XCTAssertEqual(try second.viewContext.history().count, 1)
    }
}
