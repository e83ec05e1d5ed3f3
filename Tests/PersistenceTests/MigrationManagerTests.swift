import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Core Data's manual migration: `MappingModel.inferredMappingModel(forSourceModel:destinationModel:)` and
/// `MigrationManager.migrateStore(from:…toDestinationURL:…)`, the way apps migrate step by step.
final class MigrationManagerTests: MigrationTestCase {
    private func books(_ properties: PropertyDescription...) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [EntityDescription(name: "Book", properties: properties)])
    }

    private func migrate(_ url: URL, from source: ManagedObjectModel, to destination: ManagedObjectModel,
                         with mapping: MappingModel?, into target: URL) throws {
        try MigrationManager(sourceModel: source, destinationModel: destination)
            .migrateStore(from: url, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
                          toDestinationURL: target, destinationType: NSSQLiteStoreType, destinationOptions: nil)
    }

    func testAnInferredMappingMigratesIntoANewStoreAndLeavesTheSourceAsItWas() throws {
        let v1 = try books(.attribute("title", .string), .attribute("pages", .integer32))
        let v2 = try books(.attribute("name", .string).renamed(from: "title"), .attribute("pages", .integer32),
                           .attribute("shelf", .string, optional: false, defaultValue: "new"))
        let url = try store(v1) { insert("Book", ["title": "Emma", "pages": 474], into: $0) }
        let before = try contents(of: url)
        let uuid = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)[NSStoreUUIDKey] as? String
        let target = url.deletingLastPathComponent().appendingPathComponent("migrated.sqlite")

        let mapping = try MappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
        let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
        try manager.migrateStore(from: url, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
                                 toDestinationURL: target, destinationType: NSSQLiteStoreType, destinationOptions: nil)
        XCTAssertEqual(manager.migrationProgress, 1)
        XCTAssertEqual(try contents(of: url), before, "the source store is read, never changed")
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: target)
        XCTAssertTrue(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        XCTAssertEqual(metadata[NSStoreUUIDKey] as? String, uuid)

        let migrated = try open(target, v2, migrate: false)
        let book = try XCTUnwrap(objects("Book", in: migrated, sortedBy: "name").first)
        XCTAssertEqual(book.value(forKey: "name") as? String, "Emma", "the rename kept its values")
        XCTAssertEqual(book.value(forKey: "pages") as? Int, 474)
        XCTAssertEqual(book.value(forKey: "shelf") as? String, "new")
    }

    func testAChangeThatIsNotLightweightHasNoInferredMapping() throws {
        let v1 = try books(.attribute("title", .string))
        let v2 = try books(.attribute("title", .integer64))
        XCTAssertThrowsError(try MappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)) {
            XCTAssertEqual(($0 as? PersistenceError)?.coreDataCode, .inferredMappingModel, "\($0)")
            XCTAssertEqual(($0 as NSError).code, NSInferredMappingModelError)
        }
        XCTAssertNil(MappingModel(from: nil, forSourceModel: v1, destinationModel: v2), "no mapping model files here")
    }

    func testWrongInputsAreRefusedAndLeaveNoDestination() throws {
        let v1 = try books(.attribute("title", .string))
        let v2 = try books(.attribute("title", .string), .attribute("year", .integer16))
        let v3 = try books(.attribute("title", .string), .attribute("isbn", .string))
        let url = try store(v1) { insert("Book", ["title": "Emma"], into: $0) }
        let target = url.deletingLastPathComponent().appendingPathComponent("migrated.sqlite")
        let mapping = try MappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)

        assertPersistenceError(.migrationMissingMappingModel) { try migrate(url, from: v1, to: v2, with: nil, into: target) }
        assertPersistenceError(.migrationMissingMappingModel) { try migrate(url, from: v1, to: v3, with: mapping, into: target) }
        assertPersistenceError(.migrationMissingSourceModel) { try migrate(url, from: v2, to: v3,
            with: try MappingModel.inferredMappingModel(forSourceModel: v2, destinationModel: v3), into: target) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))

        try migrate(url, from: v1, to: v2, with: mapping, into: target)
        assertPersistenceError(.persistentStoreInvalidType) { try migrate(url, from: v1, to: v2, with: mapping, into: target) }
    }

    func testAFailedMigrationLeavesNoDestinationStore() throws {
        let v1 = try books(.attribute("title", .string))
        let v2 = try books(.attribute("title", .string, optional: false))
        let url = try store(v1) { insert("Book", ["title": nil], into: $0) }
        let target = url.deletingLastPathComponent().appendingPathComponent("migrated.sqlite")
        let mapping = try MappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
        assertPersistenceError(.migration) { try migrate(url, from: v1, to: v2, with: mapping, into: target) }
        for suffix in ["", "-wal", "-shm"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: target.path + suffix), "nothing left at \(target.path + suffix)")
        }
    }
}
