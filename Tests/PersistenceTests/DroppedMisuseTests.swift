import Foundation
@_spi(TestHarness) import Persistence
import XCTest

/// A mistake Core Data raises for at the call is recorded and thrown by the next save, and handed to the harness's
/// handler when a rollback, a reset or the context's end drops it — thrown or not, as a device would have stopped.
final class DroppedMisuseTests: PersistenceTestCase {
    private let reported = ReportedList<PersistenceError>()

    override func setUpWithError() throws {
        try super.setUpWithError()
        let box = reported
        ManagedObjectContext.droppedMisuseHandler = { box.append($0) }
    }

    override func tearDownWithError() throws {
        ManagedObjectContext.droppedMisuseHandler = nil
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

    /// `try? context.save()` swallows the error; on a device the app had stopped at the call already.
    func testAMistakeASaveThrewIsReportedStillWhenTheContextGoes() throws {
        var background: ManagedObjectContext? = misuseInBackgroundContext()
        try background?.performAndWait {
            XCTAssertThrowsError(try background?.save())
            XCTAssertThrowsError(try background?.save(), "each save throws it again")
        }
        XCTAssertTrue(reported.take().isEmpty, "recorded, not yet dropped")
        background = nil
        XCTAssertEqual(reported.take().map(\.coreDataCode), [.coreData], "caught and ignored: reported all the same")
        _ = background
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
        ManagedObjectContext.droppedMisuseHandler = nil
        var background: ManagedObjectContext? = misuseInBackgroundContext()
        background = nil
        XCTAssertTrue(reported.take().isEmpty)
        _ = background
    }
}
