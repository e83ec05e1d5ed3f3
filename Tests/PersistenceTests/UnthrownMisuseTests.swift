import Foundation
@_spi(TestHarness) import Persistence
import XCTest

/// A mistake Core Data raises for at the call is recorded and thrown by the next save; one that no save threw is
/// handed to the harness's handler when a rollback, a reset or the context's end drops it.
final class UnthrownMisuseTests: PersistenceTestCase {
    private let reported = ReportedList<PersistenceError>()

    override func setUpWithError() throws {
        try super.setUpWithError()
        let box = reported
        ManagedObjectContext.unthrownMisuseHandler = { box.append($0) }
    }

    override func tearDownWithError() throws {
        ManagedObjectContext.unthrownMisuseHandler = nil
        try super.tearDownWithError()
    }

    /// A background context where an object of another context is deleted — Core Data raises there.
    private func misuseInBackgroundContext() -> ManagedObjectContext {
        let stranger = makeMovie("Not yours")
        let background = container.newBackgroundContext()
        background.performAndWait { background.delete(stranger) }
        return background
    }

    func testAMistakeNoSaveThrewIsReportedWhenTheContextGoes() {
        var background: ManagedObjectContext? = misuseInBackgroundContext()
        XCTAssertTrue(reported.take().isEmpty, "recorded, not yet dropped")
        background = nil
        XCTAssertEqual(reported.take().map(\.coreDataCode), [.coreData], "the context went with its mistake unthrown")
        _ = background
    }

    func testAMistakeASaveThrewIsNotReportedAgain() throws {
        var background: ManagedObjectContext? = misuseInBackgroundContext()
        try background?.performAndWait { XCTAssertThrowsError(try background?.save()) }
        background = nil
        XCTAssertTrue(reported.take().isEmpty, "the save already handed it to the caller")
    }

    func testRollbackAndResetDropTheMistakeAndReportIt() throws {
        let background = misuseInBackgroundContext()
        background.performAndWait { background.rollback() }
        XCTAssertEqual(reported.take().count, 1)
        try background.performAndWait { XCTAssertNoThrow(try background.save()) }
        final class Stranger: ManagedObject {}
        _ = Stranger(context: context)
        context.reset()
        XCTAssertEqual(reported.take().map(\.coreDataCode), [.persistentStoreIncompatibleSchema])
    }

    func testNothingIsReportedWithoutAHandler() {
        ManagedObjectContext.unthrownMisuseHandler = nil
        var background: ManagedObjectContext? = misuseInBackgroundContext()
        background = nil
        XCTAssertTrue(reported.take().isEmpty)
        _ = background
    }
}
