import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// `willTurnIntoFault()` and `didTurnIntoFault()`: called around each turning of a fired object into a fault
/// (refresh without merging, reset, a saved deletion, the context going away), the first while its values can
/// still be read.
final class FaultHookTests: PersistenceTestCase {
    /// A tag that logs its fault hooks, with the name it holds at each.
    final class Tag: ManagedObject {
        nonisolated(unsafe) static var log: [String] = []

        override func willTurnIntoFault() {
            super.willTurnIntoFault()
            Self.log.append("will \(value(forKey: "name") as? String ?? "-")")
        }

        override func didTurnIntoFault() {
            super.didTurnIntoFault()
            Self.log.append("did \(isFault ? "fault" : "not fault")")
        }
    }

    override func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Tag", managedObjectClass: Tag.self, properties: [
                .attribute("name", .string),
            ]),
        ])
    }

    override func setUpWithError() throws {
        Tag.log = []
        try super.setUpWithError()
    }

    override func tearDownWithError() throws {
        try super.tearDownWithError()
        Tag.log = []
    }

    private func savedTag(_ name: String = "swift") throws -> Tag {
        let tag = Tag(context: context)
        tag.setValue(name, forKey: "name")
        try context.save()
        Tag.log = []
        return tag
    }

    func testRefreshWithoutMergingCallsBothAroundTheFault() throws {
        let tag = try savedTag()
        tag.setValue("changed", forKey: "name")
        context.refresh(tag, mergeChanges: false)
        XCTAssertEqual(Tag.log, ["will changed", "did fault"])
        XCTAssertEqual(tag.value(forKey: "name") as? String, "swift")
    }

    func testRefreshOfAFaultCallsNothing() throws {
        let tag = try savedTag()
        context.refresh(tag, mergeChanges: false)
        Tag.log = []
        context.refresh(tag, mergeChanges: false)
        XCTAssertEqual(Tag.log, [])
    }

    func testRefreshMergingAChangedObjectKeepsItAndCallsNothing() throws {
        let tag = try savedTag()
        tag.setValue("changed", forKey: "name")
        context.refresh(tag, mergeChanges: true)
        XCTAssertEqual(Tag.log, [])
        XCTAssertFalse(tag.isFault)
    }

    func testResetCallsThemForEveryFiredObject() throws {
        let kept = try savedTag("one")
        let fresh = Tag(context: context)
        fresh.setValue("two", forKey: "name")
        context.reset()
        XCTAssertEqual(Tag.log.sorted(), ["did fault", "did fault", "will one", "will two"])
        XCTAssertNil(kept.managedObjectContext)
    }

    func testSavedDeletionCallsThemOnceAfterTheSaveNotBefore() throws {
        let tag = try savedTag()
        context.delete(tag)
        context.processPendingChanges()
        XCTAssertEqual(Tag.log, [])
        try context.save()
        XCTAssertEqual(Tag.log, ["will swift", "did fault"])
    }

    func testContextGoingAwayCallsThem() throws {
        let tag = try savedTag()
        var other: ManagedObjectContext? = container.newBackgroundContext()
        var held: Tag?
        other!.performAndWait {
            held = other!.object(with: tag.objectID) as? Tag
            XCTAssertEqual(held?.value(forKey: "name") as? String, "swift")
        }
        other = nil
        XCTAssertEqual(Tag.log, ["will swift", "did fault"])
        XCTAssertNil(held?.managedObjectContext)
    }
}
