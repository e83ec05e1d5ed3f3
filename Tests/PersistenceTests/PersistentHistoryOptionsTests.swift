import Foundation
@_spi(ModelBuilding) @_spi(ModelLoading) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Turning persistent history on: store options with Core Data's keys, the model's preserved attributes, history in
/// the store's own file, and what happens to a file opened with and without the option in turn.
final class PersistentHistoryOptionsTests: PersistenceTestCase {
    private typealias Note = HistoryModel.Note

    override func makeModel() throws -> ManagedObjectModel { try HistoryModel.make() }

    func testOptionsAreKeptByKeyAndTheKeysAreCoreDatasStrings() {
        let description = PersistentStoreDescription.inMemory()
        XCTAssertTrue(description.options.isEmpty)
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        description.setOption("anything" as NSString, forKey: "SomeOtherOption")
        XCTAssertEqual(description.options[NSPersistentHistoryTrackingKey] as? NSNumber, true as NSNumber)
        XCTAssertEqual(description.options.count, 2)
        description.setOption(nil, forKey: "SomeOtherOption")
        XCTAssertEqual(Array(description.options.keys), [NSPersistentHistoryTrackingKey])

        XCTAssertEqual(NSPersistentHistoryTrackingKey, "NSPersistentHistoryTrackingKey")
        // Core Data's string lacks the word "Post" that its constant's name has.
        XCTAssertEqual(NSPersistentStoreRemoteChangeNotificationPostOptionKey, "NSPersistentStoreRemoteChangeNotificationOptionKey")
        XCTAssertEqual(Notification.Name.NSPersistentStoreRemoteChange.rawValue, "NSPersistentStoreRemoteChangeNotification")
        XCTAssertEqual([NSPersistentStoreURLKey, NSStoreUUIDKey, NSPersistentHistoryTokenKey], ["storeURL", "NSStoreUUID", "historyToken"])
        XCTAssertEqual(NSPersistentHistoryTokenExpiredError, 134_301)
    }

    func testTheModelMarksAttributesPreservedAfterDeletionInCodeAndInXcodesFile() throws {
        let folder = try temporaryFolder().appendingPathComponent("Notes.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift">
                <entity name="Note" representedClassName="Note" syncable="YES">
                    <attribute name="title" attributeType="String" preserveAfterDeletion="YES"/>
                    <attribute name="uuid" optional="YES" attributeType="UUID" usesScalarValueType="NO" preserveAfterDeletion="YES"/>
                    <attribute name="score" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                </entity>
            </model>
            """.utf8).write(to: folder.appendingPathComponent("contents"))
        let file = try ManagedObjectModel(contentsOf: folder, managedObjectClasses: [])
        let attributes = try XCTUnwrap(file.entitiesByName["Note"]).properties.compactMap { property -> AttributeDescription? in
            property as? AttributeDescription
        }
        XCTAssertEqual(attributes.filter(\.preservesValueInHistoryOnDeletion).map(\.name), ["title", "uuid"])

        let code = try HistoryModel.make()
        let note = try XCTUnwrap(code.entitiesByName["Note"])
        XCTAssertEqual(note.properties.compactMap { property -> String? in
            if let attribute = property as? AttributeDescription, attribute.preservesValueInHistoryOnDeletion { return attribute.name }
            return nil
        }, ["title", "uuid"])
        XCTAssertEqual(AttributeDescription(name: "x", type: .string).preservesValueInHistoryOnDeletion, false)
        // The mark changes no table, so a model with it opens a store made without it.
        let plain = try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", properties: [.attribute("title", .string, optional: false), .attribute("uuid", .uuid),
                                                         .attribute("score", .integer32, optional: false, defaultValue: 0)]),
        ])
        XCTAssertEqual(plain.versionHash, file.versionHash)
        XCTAssertEqual(plain.entityVersionHashesByName, file.entityVersionHashesByName)
    }

    func testHistoryLivesInTheStoresOwnFileBesideItsRows() throws {
        let url = try temporaryFolder().appendingPathComponent("notes.sqlite")
        do {
            let container = try HistoryModel.container(HistoryModel.description(url))
            let note = Note(context: container.viewContext)
            note.title = "Saved"
            try container.viewContext.save()
        }
        let file = try SQLiteConnection(path: url.path)
        let tables = try file.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { row -> String? in
            if case .text(let name) = row[0] { return name } else { return nil }
        }
        XCTAssertTrue(tables.contains("ATRANSACTION") && tables.contains("ACHANGE"), "\(tables)")
        XCTAssertEqual(try file.query("SELECT COUNT(*) FROM ATRANSACTION").first, [.integer(1)])
        XCTAssertEqual(try file.query("SELECT ZCHANGETYPE FROM ACHANGE"), [[.integer(0)]])
        // The triggers belong to the store's connection only: another program's writes break nothing.
        XCTAssertEqual(try file.query("SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'").first, [.integer(0)])
        try file.execute("UPDATE ZNOTE SET ZSCORE = 5")
    }

    func testAFileWithHistoryOpenedWithoutTheOptionIsReadOnlyAsInCoreData() throws {
        let url = try temporaryFolder().appendingPathComponent("notes.sqlite")
        var id: ManagedObjectID
        do {
            let container = try HistoryModel.container(HistoryModel.description(url))
            let note = Note(context: container.viewContext)
            note.title = "Tracked"
            try container.viewContext.save()
            id = note.objectID
        }
        do {
            let container = try HistoryModel.container(HistoryModel.description(url, tracking: nil))
            let view = container.viewContext
            // Reading works, history included.
            let note = try XCTUnwrap(view.existingObject(with: id) as? Note)
            XCTAssertEqual(note.title, "Tracked")
            XCTAssertEqual(try view.history().count, 1)
            note.title = "Untracked"
            let error = assertPersistenceError(.fileWriteNoPermission) { try view.save() }
            XCTAssertTrue(error?.message.contains("NSPersistentHistoryTrackingKey") == true, error?.message ?? "")
            XCTAssertEqual((error.map { $0 as NSError })?.code, 513)
            view.rollback()
            let update = BatchUpdateRequest(entityName: "Note")
            update.propertiesToUpdate = ["score": 1]
            assertPersistenceError(.fileWriteNoPermission) { try view.execute(update) }
            assertPersistenceError(.fileWriteNoPermission) {
                try view.execute(PersistentHistoryChangeRequest.deleteHistory(before: nil as PersistentHistoryToken?))
            }
        }
        do {
            // Tracking false is no tracking.
            let container = try HistoryModel.container(HistoryModel.description(url, tracking: false))
            let note = Note(context: container.viewContext)
            note.title = "Refused"
            assertPersistenceError(.fileWriteNoPermission) { try container.viewContext.save() }
        }
        // With the option again, the store writes, and nothing was written meanwhile.
        let container = try HistoryModel.container(HistoryModel.description(url))
        let note = Note(context: container.viewContext)
        note.title = "Tracked again"
        try container.viewContext.save()
        XCTAssertEqual(try container.viewContext.history().count, 2)
        XCTAssertEqual(try container.viewContext.count(for: FetchRequest<Note>(entityName: "Note")), 2)
    }

    func testAFileWithoutHistoryStartsRecordingWhenOpenedWithTheOption() throws {
        let url = try temporaryFolder().appendingPathComponent("notes.sqlite")
        do {
            let container = try HistoryModel.container(HistoryModel.description(url, tracking: nil))
            Note(context: container.viewContext).title = "Before"
            try container.viewContext.save()
            assertPersistenceError(.coreData) { _ = try container.viewContext.history() }
        }
        let container = try HistoryModel.container(HistoryModel.description(url))
        XCTAssertEqual(try container.viewContext.history().count, 0, "history starts when it is turned on")
        Note(context: container.viewContext).title = "After"
        try container.viewContext.save()
        XCTAssertEqual(try container.viewContext.history().count, 1)
    }

    func testAnOptionThatIsNotANumberFailsTheLoad() throws {
        let description = HistoryModel.description(tracking: nil)
        description.setOption("YES" as NSString, forKey: NSPersistentHistoryTrackingKey)
        assertPersistenceError(.coreData) { _ = try HistoryModel.container(description) }
    }
}
