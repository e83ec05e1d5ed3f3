import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Core Data's calls around a store's metadata and files: reading metadata without opening the store, asking a
/// model whether it opens a store as it is, adding stores with options, custom metadata saved with the next save,
/// destroying and replacing store files.
final class StoreMetadataTests: MigrationTestCase {
    private func notes() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [.attribute("title", .string)])],
                               configurations: ["Main": ["Note"]])
    }

    private func noteStore() throws -> URL {
        try store(try notes()) { insert("Note", ["title": "kept"], into: $0) }
    }

    func testTheMetadataOfAStoreFileIsCoreDatasDictionary() throws {
        let url = try noteStore()
        let model = try notes()
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        XCTAssertEqual(metadata[NSStoreTypeKey] as? String, "SQLite")
        XCTAssertEqual((metadata[NSStoreUUIDKey] as? String)?.count, 36)
        XCTAssertEqual(metadata[NSStoreModelVersionHashesKey] as? [String: Data], model.entityVersionHashesByName)
        XCTAssertEqual(metadata[NSStoreModelVersionHashesVersionKey] as? Int, 3)
        XCTAssertTrue(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        XCTAssertTrue(model.isConfiguration(withName: "Main", compatibleWithStoreMetadata: metadata))
        XCTAssertFalse(model.isConfiguration(withName: "Elsewhere", compatibleWithStoreMetadata: metadata))
        let other = try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [.attribute("title", .string, optional: false)])])
        XCTAssertFalse(other.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata), "isOptional counts in the hash")

        let missing = url.deletingLastPathComponent().appendingPathComponent("missing.sqlite")
        assertPersistenceError(.fileReadNoSuchFile) { _ = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: missing) }
        let text = url.deletingLastPathComponent().appendingPathComponent("text.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: text)
        assertPersistenceError(.fileReadCorruptFile) { _ = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: text) }
    }

    func testVersionHashesCountWhatApplesDocumentsAndNothingElse() throws {
        func attribute(_ a: AttributeDescription) -> Data { a.versionHash }
        let base = attribute(AttributeDescription(name: "title", type: .string))
        XCTAssertEqual(base, attribute(AttributeDescription(name: "title", type: .string, defaultValue: "x", renamingIdentifier: "name")),
                       "the default value and the renaming identifier do not count")
        for changed in [AttributeDescription(name: "name", type: .string), AttributeDescription(name: "title", type: .uri),
                        AttributeDescription(name: "title", type: .string, isOptional: false),
                        AttributeDescription(name: "title", type: .string, isTransient: true),
                        AttributeDescription(name: "title", type: .string, versionHashModifier: "2")] {
            XCTAssertNotEqual(attribute(changed), base, "\(changed)")
        }
        func entity(_ properties: [PropertyDescription], constraints: [[String]] = [], modifier: String? = nil,
                    abstract: Bool = false) -> Data {
            EntityDescription(name: "Note", isAbstract: abstract, properties: properties, uniquenessConstraints: constraints,
                              versionHashModifier: modifier).versionHash
        }
        let note = entity([.attribute("title", .string)])
        XCTAssertEqual(note, entity([.attribute("title", .string)], constraints: [["title"]]), "constraints do not count")
        XCTAssertNotEqual(note, entity([.attribute("title", .string)], modifier: "2"))
        XCTAssertNotEqual(note, entity([.attribute("title", .string)], abstract: true))
        XCTAssertNotEqual(note, entity([.attribute("title", .string), .attribute("body", .string)]))
        let a = RelationshipDescription(name: "tags", destination: "Tag", inverse: "notes", toMany: true)
        XCTAssertEqual(a.versionHash, RelationshipDescription(name: "tags", destination: "Tag", inverse: "notes", toMany: true, deleteRule: .cascade).versionHash,
                       "the delete rule does not count")
        XCTAssertNotEqual(a.versionHash, RelationshipDescription(name: "tags", destination: "Tag", inverse: "notes", toMany: true, maxCount: 3).versionHash)
        XCTAssertNotEqual(a.versionHash, RelationshipDescription(name: "tags", destination: "Tag", inverse: "notes").versionHash, "to-one counts at most 1")
    }

    func testAStoreAddedWithCoreDatasCallIsListedFoundAndRemoved() throws {
        let url = try noteStore()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try notes())
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url,
                                                       options: [NSReadOnlyPersistentStoreOption: true])
        XCTAssertEqual(store.type, NSSQLiteStoreType)
        XCTAssertTrue(store.isReadOnly)
        XCTAssertEqual(store.configurationName, "PF_DEFAULT_CONFIGURATION_NAME")
        XCTAssertEqual(store.identifier, try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)[NSStoreUUIDKey] as? String)
        XCTAssertTrue(coordinator.persistentStores.first === store)
        XCTAssertTrue(coordinator.persistentStore(for: url) === store)
        try coordinator.remove(store)
        XCTAssertTrue(coordinator.persistentStores.isEmpty)
        XCTAssertThrowsError(try coordinator.remove(store))
        let memory = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, at: URL(fileURLWithPath: "/anything"))
        XCTAssertEqual(memory.type, NSInMemoryStoreType)
    }

    func testMetadataTheAppSetsIsWrittenWithTheNextSave() throws {
        let url = try noteStore()
        let container = try open(url, try notes())
        let coordinator = container.persistentStoreCoordinator
        let store = try XCTUnwrap(coordinator.persistentStores.first)
        var metadata = coordinator.metadata(for: store)
        metadata["lastSync"] = "yesterday"
        coordinator.setMetadata(metadata, for: store)
        XCTAssertEqual(coordinator.metadata(for: store)["lastSync"] as? String, "yesterday", "to be stored")
        XCTAssertEqual(coordinator.metadata(for: store)[NSStoreUUIDKey] as? String, store.identifier)
        XCTAssertNil(try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)["lastSync"],
                     "not on disk before a save")
        insert("Note", ["title": "another"], into: container.viewContext)
        try container.viewContext.save()
        let saved = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        XCTAssertEqual(saved["lastSync"] as? String, "yesterday")
        XCTAssertTrue(try notes().isConfiguration(withName: nil, compatibleWithStoreMetadata: saved), "the store's own keys stay")
    }

    func testDestroyingAndReplacingStoreFiles() throws {
        let source = try noteStore()
        // The source is open and holds a save still in its -wal file.
        let live = try open(source, try notes())
        insert("Note", ["title": "in the log"], into: live.viewContext)
        try live.viewContext.save()
        let destination = try temporaryFolder().appendingPathComponent("copy.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: ManagedObjectModel())
        try coordinator.replacePersistentStore(at: destination, withPersistentStoreFrom: source, ofType: NSSQLiteStoreType)
        let copy = try open(destination, try notes())
        XCTAssertEqual(try objects("Note", in: copy, sortedBy: "title").map { $0.value(forKey: "title") as? String }, ["in the log", "kept"])

        try coordinator.destroyPersistentStore(at: destination, ofType: NSSQLiteStoreType)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        XCTAssertNoThrow(try coordinator.destroyPersistentStore(at: destination, ofType: NSSQLiteStoreType), "nothing left to delete")
        let other = destination.deletingLastPathComponent().appendingPathComponent("other.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: other)
        XCTAssertThrowsError(try coordinator.destroyPersistentStore(at: other, ofType: NSSQLiteStoreType), "not a store: left alone")
        XCTAssertTrue(FileManager.default.fileExists(atPath: other.path))
    }
}
