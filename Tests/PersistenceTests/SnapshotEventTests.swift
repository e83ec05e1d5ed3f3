import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// `awake(fromSnapshotEvents:)`: `.rollback` for saved objects a rollback restores, `.refresh` for an object
/// refreshed with its changes merged, `.mergePolicy` for an object a merge policy gave the store's values; the
/// flags carry Core Data's raw values.
final class SnapshotEventTests: PersistenceTestCase {
    /// A label that logs its snapshot events with the name it then holds.
    final class Label: ManagedObject {
        nonisolated(unsafe) static var log: [String] = []

        override func awake(fromSnapshotEvents flags: SnapshotEventType) {
            super.awake(fromSnapshotEvents: flags)
            Self.log.append("\(flags.rawValue) \(value(forKey: "name") as? String ?? "-")")
        }
    }

    override func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Label", managedObjectClass: Label.self, properties: [
                .attribute("name", .string),
                .attribute("note", .string),
            ]),
        ])
    }

    override func setUpWithError() throws {
        Label.log = []
        try super.setUpWithError()
    }

    override func tearDownWithError() throws {
        try super.tearDownWithError()
        Label.log = []
    }

    private func savedLabel(_ name: String) throws -> Label {
        let label = Label(context: context)
        label.setValue(name, forKey: "name")
        try context.save()
        Label.log = []
        return label
    }

    func testRawValuesAreCoreDatas() {
        XCTAssertEqual(SnapshotEventType.undoInsertion.rawValue, 1 << 1)
        XCTAssertEqual(SnapshotEventType.undoDeletion.rawValue, 1 << 2)
        XCTAssertEqual(SnapshotEventType.undoUpdate.rawValue, 1 << 3)
        XCTAssertEqual(SnapshotEventType.rollback.rawValue, 1 << 4)
        XCTAssertEqual(SnapshotEventType.refresh.rawValue, 1 << 5)
        XCTAssertEqual(SnapshotEventType.mergePolicy.rawValue, 1 << 6)
    }

    func testRollbackAwakesChangedObjectsAfterRestoringThem() throws {
        let label = try savedLabel("saved")
        label.setValue("changed", forKey: "name")
        context.rollback()
        XCTAssertEqual(Label.log, ["16 saved"])
    }

    func testRollbackAwakesRestoredDeletedObjectsOnceButNotDiscardedNewOnes() throws {
        let label = try savedLabel("saved")
        label.setValue("changed", forKey: "name")
        context.delete(label)
        let fresh = Label(context: context)
        fresh.setValue("new", forKey: "name")
        context.rollback()
        XCTAssertEqual(Label.log, ["16 saved"])
    }

    func testRollbackLeavesUnchangedObjectsAlone() throws {
        _ = try savedLabel("saved")
        context.rollback()
        XCTAssertEqual(Label.log, [])
    }

    func testRefreshMergingChangesAwakesWithRefresh() throws {
        let label = try savedLabel("saved")
        label.setValue("changed", forKey: "name")
        context.refresh(label, mergeChanges: true)
        XCTAssertEqual(Label.log, ["32 changed"])
    }

    func testRefreshWithoutMergingDoesNotAwake() throws {
        let label = try savedLabel("saved")
        label.setValue("changed", forKey: "name")
        context.refresh(label, mergeChanges: false)
        XCTAssertEqual(Label.log, [])
    }

    /// Saves `changes` to the label with `id` from another context, so this context's copy is a version behind.
    private func changeElsewhere(_ id: ManagedObjectID, _ changes: [String: String]) throws {
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let label = try other.existingObject(with: id)
            for (key, value) in changes { label.setValue(value, forKey: key) }
            try other.save()
        }
    }

    func testAStoreTrumpingPolicyAwakesTheObjectItGaveTheStoresValues() throws {
        let label = try savedLabel("saved")
        try changeElsewhere(label.objectID, ["name": "theirs"])
        label.setValue("mine", forKey: "name")
        label.setValue("a note", forKey: "note")
        context.mergePolicy = MergePolicy.mergeByPropertyStoreTrump
        try context.save()
        XCTAssertEqual(Label.log, ["64 theirs"], "awakened once, after the store's value was taken")
        XCTAssertEqual(label.value(forKey: "note") as? String, "a note")
    }

    func testAnObjectTrumpingPolicyAwakesOnlyWhenItTakesAStoreValue() throws {
        let label = try savedLabel("saved")
        try changeElsewhere(label.objectID, ["name": "theirs"])
        label.setValue("mine", forKey: "name")
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        try context.save()
        XCTAssertEqual(Label.log, [], "the object's own values won: nothing came from the store")

        try changeElsewhere(label.objectID, ["note": "their note"])
        label.setValue("mine again", forKey: "name")
        try context.save()
        XCTAssertEqual(Label.log, ["64 mine again"], "the note came from the store")
        XCTAssertEqual(label.value(forKey: "note") as? String, "their note")
    }

    func testOverwriteNeverAwakes() throws {
        let label = try savedLabel("saved")
        try changeElsewhere(label.objectID, ["name": "theirs", "note": "their note"])
        label.setValue("mine", forKey: "name")
        context.mergePolicy = MergePolicy.overwrite
        try context.save()
        XCTAssertEqual(Label.log, [])
    }
}
