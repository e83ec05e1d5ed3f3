import Foundation
@testable import Persistence
import XCTest

/// A process migrating a 100,000-row store is killed with SIGKILL at random moments: afterwards the store is either
/// the old one, whole and still opening with the old model, or the migrated one — never anything in between — and
/// opening it again with the new model finishes the work.
final class MigrationCrashTests: XCTestCase {
    private let rows = 100_000
    private let kills = 12

    private static func contents(_ entities: String, identifier: Int) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="\(identifier)">
        \(entities)
        </model>
        """
    }

    /// Version 1: entries. Version 2: entries become a kind of record (a new parent, so every row moves to a new
    /// table) and `batch` is renamed `group`.
    private func writeModel(in folder: URL) throws -> URL {
        let model = folder.appendingPathComponent("Entries.xcdatamodeld")
        let v1 = """
            <entity name="Entry">
                <attribute name="batch" attributeType="Integer 64"/>
                <attribute name="serial" attributeType="Integer 64"/>
            </entity>
            """
        let v2 = """
            <entity name="Record">
                <attribute name="note" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Entry" parentEntity="Record">
                <attribute name="group" attributeType="Integer 64" elementID="batch"/>
                <attribute name="serial" attributeType="Integer 64"/>
            </entity>
            """
        for (name, entities, identifier) in [("Entries", v1, 1), ("Entries 2", v2, 2)] {
            let version = model.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            try Data(Self.contents(entities, identifier: identifier).utf8).write(to: version.appendingPathComponent("contents"))
        }
        let plist = ["_XCCurrentVersionName": "Entries 2.xcdatamodel"]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: model.appendingPathComponent(".xccurrentversion"))
        return model
    }

    /// A version-1 store of `rows` entries (written with SQL: the library made the tables).
    private func writeStore(at url: URL, model: URL) throws {
        let v1 = try ManagedObjectModel(contentsOf: model.appendingPathComponent("Entries.xcdatamodel"), managedObjectClasses: [])
        do {
            let container = PersistentContainer(name: "Entries", managedObjectModel: v1)
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
            nonisolated(unsafe) var failure: (any Error)?
            container.loadPersistentStores { _, error in failure = error }
            if let failure { throw failure }
        }
        let connection = try SQLiteConnection(path: url.path)
        try connection.inTransaction {
            try connection.execute("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows))
                INSERT INTO ZENTRY (Z_PK, Z_OPT, ZBATCH, ZSERIAL) SELECT i, 1, i / 100, i FROM n
                """)
            try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(rows) WHERE Z_NAME = 'Entry'")
        }
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Runs the writer on `store`; kills it `delay` seconds after it starts migrating (never, for nil).
    private func migrate(_ store: URL, model: URL, killingAfter delay: Double?) throws -> Process {
        let marker = store.deletingLastPathComponent().appendingPathComponent("started")
        let process = Process()
        process.executableURL = CrashWriter.url
        process.arguments = ["migrate", model.path, store.path, marker.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        if let delay {
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: marker.path) && Date() < deadline { usleep(1_000) }
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return process
    }

    func testAKilledMigrationLeavesTheOldStoreWholeOrTheNewOne() throws {
        guard FileManager.default.isExecutableFile(atPath: CrashWriter.url.path) else {
            XCTFail("\(CrashWriter.url.path) is missing: build with `swift build --build-tests` before `swift test`")
            return
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("migration-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let model = try writeModel(in: root)
        let template = root.appendingPathComponent("template.sqlite")
        try writeStore(at: template, model: model)
        let v1 = try ManagedObjectModel(contentsOf: model.appendingPathComponent("Entries.xcdatamodel"), managedObjectClasses: [])
        let v2 = try ManagedObjectModel(contentsOf: model, managedObjectClasses: [])

        // One whole run, to time the migration.
        let timing = root.appendingPathComponent("timing")
        try FileManager.default.createDirectory(at: timing, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: template, to: timing.appendingPathComponent("store.sqlite"))
        let started = Date()
        let whole = try migrate(timing.appendingPathComponent("store.sqlite"), model: model, killingAfter: nil)
        let duration = Date().timeIntervalSince(started)
        XCTAssertEqual(whole.terminationStatus, 0, "the migration itself must succeed")

        var old = 0, new = 0
        for attempt in 0..<kills {
            let folder = root.appendingPathComponent("attempt-\(attempt)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = folder.appendingPathComponent("store.sqlite")
            try FileManager.default.copyItem(at: template, to: store)
            let process = try migrate(store, model: model, killingAfter: Double.random(in: 0...duration))
            XCTAssertTrue(process.terminationReason == .uncaughtSignal || process.terminationStatus == 0, "attempt \(attempt)")

            let integrity = try SQLiteConnection(path: store.path).query("PRAGMA integrity_check")
            XCTAssertEqual(integrity.first, [.text("ok")], "attempt \(attempt)")
            let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store)
            if v1.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) {
                old += 1
                let connection = try SQLiteConnection(path: store.path)
                XCTAssertEqual(try connection.query("SELECT COUNT(*), SUM(ZSERIAL), SUM(ZBATCH) FROM ZENTRY").first,
                               [.integer(Int64(rows)), .integer(Int64(rows * (rows + 1) / 2)), try connection.query("SELECT SUM(Z_PK / 100) FROM ZENTRY").first![0]],
                               "attempt \(attempt): the old store is whole")
            } else {
                XCTAssertTrue(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata), "attempt \(attempt): the store is one version or the other")
                new += 1
            }
            // Opening it finishes (or redoes) the migration.
            let container = PersistentContainer(name: "Entries", managedObjectModel: v2)
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: store)]
            nonisolated(unsafe) var failure: (any Error)?
            container.loadPersistentStores { _, error in failure = error }
            XCTAssertNil(failure, "attempt \(attempt)")
            let count = try container.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Record"))
            XCTAssertEqual(count, rows, "attempt \(attempt)")
            let last = FetchRequest<ManagedObject>(entityName: "Entry")
            last.predicate = FetchPredicate(format: "serial == %@", NSNumber(value: rows))
            XCTAssertEqual((try container.viewContext.fetch(last).first?.value(forKey: "group") as? NSNumber)?.intValue, rows / 100,
                           "attempt \(attempt): the renamed attribute kept its values")
        }
        XCTAssertGreaterThan(old, 0, "no kill landed before the migration committed: the test proved nothing")
        print("MigrationCrashTests: migration took \(duration) s; after \(kills) kills \(old) stores were the old version, \(new) the new one")
    }
}
