import Foundation
@_spi(TestHarness) @_spi(ModelLoading) @testable import Persistence
import XCTest

/// A real app's model history: objc.io's Moody, six versions in one `.xcdatamodeld` (a renamed attribute, added
/// relationships, a flattened hierarchy, an entity removed and brought back), read in place from the shared
/// corpora. A store written with version 1 migrates to version 6, one version at a time and in one go.
final class MoodyMigrationTests: MigrationTestCase {
    private static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/corpora/moody-models/Migrations/Migrations/Moody.xcdatamodeld").standardizedFileURL

    private func moody() throws -> URL {
        guard FileManager.default.fileExists(atPath: Self.folder.path) else {
            throw XCTSkip("The Moody models are not at \(Self.folder.path) (../shared/corpora of the project's root, see its README); this test needs them.")
        }
        return Self.folder
    }

    private func version(_ number: Int) throws -> ManagedObjectModel {
        let name = number == 1 ? "Moody.xcdatamodel" : "Moody \(number).xcdatamodel"
        return try ManagedObjectModel(contentsOf: try moody().appendingPathComponent(name), managedObjectClasses: [])
    }

    /// A version-1 store: Europe, Germany in it, and three moods in Germany.
    private func versionOneStore() throws -> URL {
        try store(try version(1)) { context in
            let now = Date(timeIntervalSinceReferenceDate: 700_000_000)
            let europe = insert("Continent", ["numericISO3166Code": Int16(150), "updatedAt": now], into: context)
            let germany = insert("Country", ["numericISO3166Code": Int16(276), "updatedAt": now, "continent": europe], into: context)
            for (index, id) in ["a", "b", "c"].enumerated() {
                insert("Mood", ["remoteIdentifier": id, "creatorID": "me", "latitude": Double(index),
                                "date": now.addingTimeInterval(Double(index)), "country": germany], into: context)
            }
        }
    }

    private func checkMoods(in container: PersistentContainer) throws {
        let moods = try objects("Mood", in: container, sortedBy: "date")
        XCTAssertEqual(moods.map { $0.value(forKey: "remoteID") as? String }, ["a", "b", "c"], "renamed through its elementID")
        XCTAssertEqual(moods.map { ($0.value(forKey: "rating") as? NSNumber)?.intValue }, [0, 0, 0], "added with its default")
        XCTAssertEqual(moods.map { ($0.value(forKey: "latitude") as? NSNumber)?.doubleValue }, [0, 1, 2])
        XCTAssertEqual(moods.map { (($0.value(forKey: "country") as? ManagedObject)?.value(forKey: "numericISO3166Code") as? NSNumber)?.intValue },
                       [276, 276, 276], "the relationship keeps its targets through the flattened hierarchy")
    }

    func testEveryVersionIsReadableAndTheyAreListedInXcodesOrder() throws {
        let versions = try ManagedObjectModel.versionURLs(ofModelAt: try moody())
        XCTAssertEqual(versions.map(\.lastPathComponent), ["Moody.xcdatamodel"] + (2...6).map { "Moody \($0).xcdatamodel" })
        let models = try versions.map { try ManagedObjectModel(contentsOf: $0, managedObjectClasses: []) }
        XCTAssertEqual(models.map { $0.versionIdentifiers }, (1...6).map { [AnyHashable(String($0))] })
        XCTAssertEqual(Set(models.map(\.versionChecksum)).count, 6, "six different versions")
        XCTAssertEqual(models[1].entitiesByName["Mood"]?.attributesByName["remoteID"]?.renamingIdentifier, "remoteIdentifier")
        let current = try ManagedObjectModel(contentsOf: try moody(), managedObjectClasses: [])
        XCTAssertEqual(current.versionIdentifiers, ["6"], ".xccurrentversion names version 6")
    }

    func testAVersionOneStoreMigratesToVersionSixOneVersionAtATime() throws {
        let url = try versionOneStore()
        for number in 2...6 {
            let model = try version(number)
            XCTAssertFalse(model.isConfiguration(withName: nil, compatibleWithStoreMetadata:
                try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)), "version \(number)")
            let container = try open(url, model)
            XCTAssertTrue(model.isConfiguration(withName: nil, compatibleWithStoreMetadata:
                try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)), "version \(number)")
            let countries = try objects("Country", in: container, sortedBy: "numericISO3166Code")
            XCTAssertEqual(countries.map { ($0.value(forKey: "numericISO3166Code") as? NSNumber)?.intValue }, [276], "version \(number)")
            switch number {
            case 2, 3:
                XCTAssertEqual(try objects("Mood", in: container, sortedBy: "date").map { $0.value(forKey: "remoteID") as? String }, ["a", "b", "c"])
            case 4:
                let continent = countries.first?.value(forKey: "continent") as? ManagedObject
                XCTAssertEqual((continent?.value(forKey: "numericISO3166Code") as? NSNumber)?.intValue, 150, "the flattened hierarchy keeps the link")
                XCTAssertNil(container.managedObjectModel.entitiesByName["GeographicRegion"])
            case 5:
                XCTAssertNil(container.managedObjectModel.entitiesByName["Continent"])
                XCTAssertEqual((countries.first?.value(forKey: "isoContinent") as? NSNumber)?.intValue, 0, "a new attribute takes its default")
            default:
                XCTAssertEqual(try objects("Continent", in: container, sortedBy: "numericISO3166Code").count, 0,
                               "Continent was removed in version 5: it comes back empty")
                try checkMoods(in: container)
                // The store keeps working: new objects get fresh keys.
                insert("Continent", ["numericISO3166Code": Int16(150)], into: container.viewContext)
                XCTAssertNoThrow(try container.viewContext.save())
            }
        }
    }

    func testAVersionOneStoreMigratesToTheCurrentVersionInOneGo() throws {
        let url = try versionOneStore()
        let current = try ManagedObjectModel(contentsOf: try moody(), managedObjectClasses: [])
        let container = try open(url, current)
        try checkMoods(in: container)
        XCTAssertEqual(try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)[NSStoreModelVersionIdentifiersKey] as? [String], ["6"])
        let integrity = try SQLiteConnection(path: url.path).query("PRAGMA integrity_check")
        XCTAssertEqual(integrity.first, [.text("ok")])
    }
}
