import Foundation
@_spi(TestHarness) @_spi(ModelLoading) import Persistence
import XCTest

/// Lightweight migration looks for a store's model among the versions of the `.xcdatamodeld` one at a time, newest
/// first, and skips a version that cannot be read: a broken old version stops only the stores it wrote.
final class ModelVersionSearchTests: MigrationTestCase {
    /// A copy of the Ledger model's three versions whose version 2 is no longer well-formed XML.
    private func ledgerWithVersionTwoBroken() throws -> URL {
        let folder = try temporaryFolder().appendingPathComponent("Ledger.xcdatamodeld")
        try FileManager.default.copyItem(at: try ModelFixtures.url("Ledger.xcdatamodeld"), to: folder)
        try Data("<model><entity name=\"Account\">".utf8)
            .write(to: folder.appendingPathComponent("Ledger 2.xcdatamodel/contents"))
        return folder
    }

    private func fixtureVersion(_ name: String) throws -> ManagedObjectModel {
        try ManagedObjectModel(contentsOf: try ModelFixtures.url("Ledger.xcdatamodeld/\(name).xcdatamodel"), managedObjectClasses: [])
    }

    func testAStoreOfVersionOneMigratesPastABrokenVersionTwo() throws {
        let folder = try ledgerWithVersionTwoBroken()
        XCTAssertThrowsError(try ManagedObjectModel(contentsOf: folder.appendingPathComponent("Ledger 2.xcdatamodel"), managedObjectClasses: []))
        let url = try store(try fixtureVersion("Ledger"), LedgerMigrationTests.fillVersionOne)
        let current = try ManagedObjectModel(contentsOf: folder, managedObjectClasses: [])
        let container = try open(url, current)
        let entries = try objects("Entry", in: container, sortedBy: "amount")
        XCTAssertEqual(entries.map { $0.value(forKey: "text") as? String }, ["rent", "food", "gift", "salary"])
        XCTAssertEqual(entries.map { ($0.value(forKey: "account") as? ManagedObject)?.value(forKey: "name") as? String },
                       ["Cash", "Cash", nil, "Bank"])
    }

    func testAStoreOfTheBrokenVersionFailsNamingEachVersionTried() throws {
        let folder = try ledgerWithVersionTwoBroken()
        let url = try store(try fixtureVersion("Ledger 2")) { context in
            EntityDescription.insertNewObject(forEntityName: "Account", into: context).setValue("Cash", forKey: "name")
        }
        let current = try ManagedObjectModel(contentsOf: folder, managedObjectClasses: [])
        XCTAssertThrowsError(try open(url, current)) { error in
            let error = error as NSError
            XCTAssertEqual(error.code, 134130)
            let message = (error as? PersistenceError)?.message ?? error.localizedDescription
            XCTAssertTrue(message.contains("tried, newest first: 'Ledger 2' could not be read ("), message)
            XCTAssertTrue(message.contains("; 'Ledger' loaded, but its entity version hashes are not the store's."), message)
        }
        let untouched = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        XCTAssertTrue(try fixtureVersion("Ledger 2").isConfiguration(withName: nil, compatibleWithStoreMetadata: untouched))
    }
}
