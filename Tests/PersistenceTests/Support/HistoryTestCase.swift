import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// The base of the persistent history tests: the history model's container with history tracking on, fresh for
/// each test, and its view context.
class HistoryTestCase: PersistenceTestCase {
    typealias Folder = HistoryModel.Folder
    typealias Note = HistoryModel.Note
    typealias Checklist = HistoryModel.Checklist

    override func makeModel() throws -> ManagedObjectModel { try HistoryModel.make() }

    private(set) var history: PersistentContainer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        history = try HistoryModel.container(HistoryModel.description())
    }

    override func tearDownWithError() throws {
        history = nil
        try super.tearDownWithError()
    }

    var view: ManagedObjectContext { history.viewContext }
}
