import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// `primitiveValue(forKey:)`, `setPrimitiveValue(_:forKey:)` and the access and change notification methods, as
/// hand-written accessors use them: `willAccessValue` fills a fault, the pattern willChange / setPrimitive /
/// didChange makes a change that is saved, and a primitive set alone records no change.
final class PrimitiveValueTests: PersistenceTestCase {
    /// A note with hand-written accessors for `text` and a plain key-value `folder`.
    final class Note: ManagedObject {
        var text: String? {
            get {
                willAccessValue(forKey: "text")
                defer { didAccessValue(forKey: "text") }
                return primitiveValue(forKey: "text") as? String
            }
            set {
                willChangeValue(forKey: "text")
                setPrimitiveValue(newValue, forKey: "text")
                didChangeValue(forKey: "text")
            }
        }
    }

    final class Folder: ManagedObject {}

    override func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", managedObjectClass: Note.self, properties: [
                .attribute("text", .string),
                .attribute("stars", .integer32, defaultValue: 0),
                .toOne("folder", "Folder", inverse: "notes"),
            ]),
            EntityDescription(name: "Folder", managedObjectClass: Folder.self, properties: [
                .attribute("name", .string),
                .toMany("notes", "Note", inverse: "folder"),
            ]),
        ])
    }

    /// A saved note, read back as a fault in a fresh context.
    private func savedNoteFault(text: String = "first", in reader: ManagedObjectContext) throws -> Note {
        let note = Note(context: context)
        note.text = text
        try context.save()
        let fault = try XCTUnwrap(reader.object(with: note.objectID) as? Note)
        XCTAssertTrue(fault.isFault)
        return fault
    }

    func testWillAccessValueFillsAFaultAndTheGetterReadsThePrimitive() throws {
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let fault = try savedNoteFault(in: reader)
            fault.willAccessValue(forKey: "text")
            XCTAssertFalse(fault.isFault)
            fault.didAccessValue(forKey: "text")
            XCTAssertEqual(fault.text, "first")
        }
    }

    func testWillAccessValueWithNilKeyFillsAFault() throws {
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let fault = try savedNoteFault(in: reader)
            fault.willAccessValue(forKey: nil)
            XCTAssertFalse(fault.isFault)
        }
    }

    func testPrimitiveValueReturnsValuesAsValueForKey() throws {
        let folder = Folder(context: context)
        let note = Note(context: context)
        note.setValue("hello", forKey: "text")
        note.setValue(folder, forKey: "folder")
        XCTAssertEqual(note.primitiveValue(forKey: "text") as? String, "hello")
        XCTAssertEqual(note.primitiveValue(forKey: "stars") as? Int, 0)
        XCTAssertTrue(note.primitiveValue(forKey: "folder") as? Folder === folder)
        XCTAssertEqual(folder.primitiveValue(forKey: "notes") as? Set<ManagedObject>, [note])
        XCTAssertNil(note.primitiveValue(forKey: "nothing"))
    }

    func testChangePatternMarksASavedObjectUpdatedAndIsSaved() throws {
        let note = Note(context: context)
        note.text = "first"
        try context.save()
        let log = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange,
                                                           object: context, queue: nil) { log.append($0, flag: true) }
        defer { NotificationCenter.default.removeObserver(token) }

        note.text = "second"
        XCTAssertTrue(note.isUpdated)
        XCTAssertEqual(note.changedValues()["text"] as? String, "second")
        XCTAssertEqual(note.committedValues(forKeys: ["text"])["text"] as? String, "first")
        context.processPendingChanges()
        XCTAssertEqual(log.notes.map { $0.userInfo?[NSUpdatedObjectsKey] as? Set<ManagedObject> }, [[note]])
        try context.save()
        XCTAssertEqual(try storedCount("Note", "text == %@", "second"), 1)
    }

    func testChangePatternIsUndoneByRollback() throws {
        let note = Note(context: context)
        note.text = "first"
        try context.save()
        note.text = "second"
        context.rollback()
        XCTAssertEqual(note.text, "first")
        XCTAssertFalse(note.hasChanges)
    }

    func testSetPrimitiveValueAloneChangesTheValueButRecordsNoChange() throws {
        let note = Note(context: context)
        note.text = "first"
        try context.save()
        note.setPrimitiveValue("quiet", forKey: "text")
        XCTAssertEqual(note.value(forKey: "text") as? String, "quiet")
        XCTAssertFalse(note.isUpdated)
        XCTAssertFalse(note.hasChanges)
        XCTAssertNil(note.changedValues()["text"])
        try context.save()
        XCTAssertEqual(try storedCount("Note", "text == %@", "first"), 1, "nothing recorded, nothing written")
    }

    func testSetPrimitiveValueOnAnUpdatedObjectWritesOnlyTheRecordedKeys() throws {
        let note = Note(context: context)
        note.text = "first"
        try context.save()
        note.setValue(5, forKey: "stars")
        note.setPrimitiveValue("quiet", forKey: "text")
        XCTAssertEqual(Set(note.changedValues().keys), ["stars"])
        try context.save()
        XCTAssertEqual(try storedCount("Note", "text == %@ AND stars == 5", "first"), 1)
    }

    func testSetPrimitiveValueOnANewObjectIsSaved() throws {
        let note = Note(context: context)
        note.setPrimitiveValue("new", forKey: "text")
        note.setPrimitiveValue(3, forKey: "stars")
        try context.save()
        XCTAssertEqual(try storedCount("Note", "text == %@ AND stars == 3", "new"), 1)
    }

    /// Apple's `setPrimitiveValue(_:forKey:)`: "you are also responsible for maintaining the inverse relationship
    /// (irrespective of change notifications)".
    func testSetPrimitiveValueSetsThisSideAndLeavesTheInverseToTheCaller() throws {
        let folder = Folder(context: context)
        let note = Note(context: context)
        note.setPrimitiveValue(folder, forKey: "folder")
        XCTAssertTrue(note.value(forKey: "folder") as? Folder === folder)
        XCTAssertEqual(folder.value(forKey: "notes") as? Set<ManagedObject>, [], "the folder's side is untouched")
        let other = Note(context: context)
        folder.setPrimitiveValue(Set([other]), forKey: "notes")
        XCTAssertEqual(folder.value(forKey: "notes") as? Set<ManagedObject>, [other])
        XCTAssertTrue(note.value(forKey: "folder") as? Folder === folder, "the note's side is untouched")
        XCTAssertNil(other.value(forKey: "folder"), "the other note's side is untouched")
        // Wrapped in the change notifications, it is still this side only.
        let third = Note(context: context)
        third.willChangeValue(forKey: "folder")
        third.setPrimitiveValue(folder, forKey: "folder")
        third.didChangeValue(forKey: "folder")
        XCTAssertEqual(folder.value(forKey: "notes") as? Set<ManagedObject>, [other])
    }

    func testSetValueStillKeepsBothSidesInStep() throws {
        let folder = Folder(context: context)
        let note = Note(context: context)
        note.setValue(folder, forKey: "folder")
        XCTAssertEqual(folder.value(forKey: "notes") as? Set<ManagedObject>, [note])
    }

    func testChangePatternOnARelationshipIsSaved() throws {
        let folder = Folder(context: context)
        let note = Note(context: context)
        try context.save()
        note.willChangeValue(forKey: "folder")
        note.setPrimitiveValue(folder, forKey: "folder")
        note.didChangeValue(forKey: "folder")
        XCTAssertTrue(note.isUpdated)
        try context.save()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let read = try XCTUnwrap(reader.object(with: note.objectID) as? Note)
            XCTAssertEqual((read.value(forKey: "folder") as? ManagedObject)?.objectID, folder.objectID)
        }
    }
}
