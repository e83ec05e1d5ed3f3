import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// iOS 17's staged migration: a custom stage computes a new attribute from data the old model held, lightweight
/// stages go on from there, and the handlers see the store on the old model before and on the new one after.
final class StagedMigrationTests: MigrationTestCase {
    private func people(_ properties: PropertyDescription...) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [EntityDescription(name: "Person", properties: properties)])
    }

    private func reference(_ model: ManagedObjectModel) -> ManagedObjectModelReference {
        ManagedObjectModelReference(model: model, versionChecksum: model.versionChecksum)
    }

    private func load(_ url: URL, _ model: ManagedObjectModel, _ manager: StagedMigrationManager) throws -> PersistentContainer {
        let container = PersistentContainer(name: "People", managedObjectModel: model)
        let description = PersistentStoreDescription(url: url)
        description.setOption(manager, forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        container.persistentStoreDescriptions = [description]
        nonisolated(unsafe) var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    func testAReferenceResolvesToItsModel() throws {
        let model = try people(.attribute("first", .string))
        let resolved: ManagedObjectModel = reference(model).resolvedModel
        XCTAssertTrue(resolved === model, "non-optional, as Core Data's")
    }

    func testACustomStageFillsANewAttributeFromOldDataAndLightweightStagesGoOn() throws {
        let v1 = try people(.attribute("first", .string), .attribute("last", .string))
        let v2 = try people(.attribute("first", .string), .attribute("last", .string), .attribute("fullName", .string))
        let v3 = try people(.attribute("fullName", .string, optional: false, defaultValue: ""))
        let url = try store(v1) { context in
            insert("Person", ["first": "Ada", "last": "Lovelace"], into: context)
            insert("Person", ["first": "Alan", "last": "Turing"], into: context)
        }
        let stage = CustomMigrationStage(migratingFrom: reference(v1), to: reference(v2))
        nonisolated(unsafe) var seen: [String] = []
        stage.willMigrateHandler = { manager, _ in
            let container = try XCTUnwrap(manager.container)
            seen.append("will: \(container.managedObjectModel.versionChecksum == v1.versionChecksum ? "v1" : "?")")
            let context = container.newBackgroundContext()
            try context.performAndWait {
                seen.append("people: \(try context.count(for: FetchRequest<ManagedObject>(entityName: "Person")))")
            }
        }
        stage.didMigrateHandler = { manager, _ in
            let container = try XCTUnwrap(manager.container)
            seen.append("did: \(container.managedObjectModel.versionChecksum == v2.versionChecksum ? "v2" : "?")")
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for person in try context.fetch(FetchRequest<ManagedObject>(entityName: "Person")) {
                    let first = person.value(forKey: "first") as? String ?? ""
                    let last = person.value(forKey: "last") as? String ?? ""
                    person.setValue("\(first) \(last)", forKey: "fullName")
                }
                try context.save()
            }
        }
        let manager = StagedMigrationManager([stage, LightweightMigrationStage([v2.versionChecksum, v3.versionChecksum])])
        let container = try load(url, v3, manager)
        XCTAssertEqual(seen, ["will: v1", "people: 2", "did: v2"])
        XCTAssertNil(manager.container, "the container is the handlers' only")
        XCTAssertEqual(try objects("Person", in: container, sortedBy: "fullName").map { $0.value(forKey: "fullName") as? String },
                       ["Ada Lovelace", "Alan Turing"])
        XCTAssertTrue(v3.isConfiguration(withName: nil, compatibleWithStoreMetadata:
            try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)))
    }

    /// The handlers are the app's code: they run while the store is migrated, before it opens, and not under the
    /// lock of the coordinator that is loading it (another thread can use that coordinator meanwhile).
    func testHandlersRunOutsideTheLoadingCoordinatorsLock() throws {
        let v1 = try people(.attribute("first", .string))
        let v2 = try people(.attribute("first", .string), .attribute("age", .integer16))
        let url = try store(v1) { insert("Person", ["first": "Ada"], into: $0) }
        let container = PersistentContainer(name: "People", managedObjectModel: v2)
        let coordinator = container.persistentStoreCoordinator
        let stage = CustomMigrationStage(migratingFrom: reference(v1), to: reference(v2))
        nonisolated(unsafe) var blocked: Bool?
        stage.willMigrateHandler = { _, _ in
            let taken = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = coordinator.persistentStores
                taken.signal()
            }
            blocked = taken.wait(timeout: .now() + 2) == .timedOut
        }
        let description = PersistentStoreDescription(url: url)
        description.setOption(StagedMigrationManager([stage]), forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        container.persistentStoreDescriptions = [description]
        nonisolated(unsafe) var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        XCTAssertNil(failure)
        XCTAssertEqual(blocked, false, "another thread could take the coordinator's lock during the handler")
    }

    func testAFailingHandlerFailsTheLoadAndLeavesTheStoreOnItsVersion() throws {
        let v1 = try people(.attribute("first", .string))
        let v2 = try people(.attribute("first", .string), .attribute("age", .integer16))
        let url = try store(v1) { insert("Person", ["first": "Ada"], into: $0) }
        let before = try contents(of: url)
        let stage = CustomMigrationStage(migratingFrom: reference(v1), to: reference(v2))
        struct Refused: Error {}
        stage.willMigrateHandler = { _, _ in throw Refused() }
        XCTAssertThrowsError(try load(url, v2, StagedMigrationManager([stage]))) { XCTAssertTrue($0 is Refused, "\($0)") }
        XCTAssertEqual(try contents(of: url), before)
    }

    func testAStoreAlreadyPastAStageSkipsIt() throws {
        let v1 = try people(.attribute("first", .string))
        let v2 = try people(.attribute("first", .string), .attribute("age", .integer16))
        let url = try store(v2) { insert("Person", ["first": "Ada"], into: $0) }
        let stage = CustomMigrationStage(migratingFrom: reference(v1), to: reference(v2))
        nonisolated(unsafe) var called = false
        stage.willMigrateHandler = { _, _ in called = true }
        XCTAssertNoThrow(try load(url, v2, StagedMigrationManager([stage])))
        XCTAssertFalse(called)
    }
}
