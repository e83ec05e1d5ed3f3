import Foundation
@_spi(TestHarness) @_spi(ModelLoading) @testable import Persistence
import XCTest

/// A process migrating a 100,000-row store is killed with SIGKILL: afterwards the store is either the old one, whole
/// and still opening with the old model, or the migrated one — never anything in between — and opening it again with
/// the new model finishes the work.
///
/// The kills are not at random moments but at each point where a kill leaves something different on disk (see
/// `CrashWriter.kill`: the writer is stopped, looked at from
/// outside, and killed only in the state wanted), each on a fresh copy of the old store, so every run hits each:
///
/// 1. the store open, its migration's transaction not begun: the old store;
/// 2. inside the migration's transaction, nothing of it in the log yet: the old store;
/// 3. inside the transaction, with its uncommitted pages already in the log (100,000 rows moved overflow SQLite's
///    page cache, which spills them there): the old store, the log's pages ignored;
/// 4. after the commit, while the process checkpoints or opens the migrated store: the new store.
///
/// The twelve random kills before hit 1–3 and 4 in proportion to their length, and a run could miss one.
final class MigrationCrashTests: XCTestCase {
    private let rows = 100_000

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

    /// Runs the writer on `store` to the end.
    private func migrate(_ store: URL, model: URL) throws -> Process {
        let process = Process()
        process.executableURL = CrashWriter.url
        process.arguments = ["migrate", model.path, store.path, store.deletingLastPathComponent().appendingPathComponent("started").path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
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

        // One whole run: the migration itself succeeds in the other process.
        let whole = root.appendingPathComponent("whole")
        try FileManager.default.createDirectory(at: whole, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: template, to: whole.appendingPathComponent("store.sqlite"))
        let started = Date()
        let finished = try migrate(whole.appendingPathComponent("store.sqlite"), model: model)
        let duration = Date().timeIntervalSince(started)
        XCTAssertEqual(finished.terminationStatus, 0, "the migration itself must succeed")

        /// Whether the committed store is still the old version (read while the writer is stopped: what a kill
        /// then leaves).
        func isOld(_ store: URL) -> Bool? {
            guard let metadata = try? PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store)
            else { return nil }
            return v1.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        }
        nonisolated(unsafe) var seenTransaction = false
        let points: [(name: String, old: Bool, when: (WriterState, URL) -> Bool)] = [
            ("the store open, the migration not begun", true, { state, store in
                state.hasStoreOpen && !state.holdsWriteLock && !state.holdsCheckpointLock && isOld(store) == true
            }),
            ("inside the migration's transaction, nothing in the log", true, { state, _ in
                state.holdsWriteLock && !state.holdsCheckpointLock && state.logEndsAtLastCommit
            }),
            ("inside the migration's transaction, its pages spilled into the log", true, { state, _ in
                state.holdsWriteLock && !state.holdsCheckpointLock && state.hasUncommittedFrames
            }),
            ("after the commit", false, { state, store in
                // The store is read only once the transaction has been seen: before it, it is surely old.
                if state.holdsWriteLock { seenTransaction = true }
                return seenTransaction && (!state.holdsWriteLock || state.holdsCheckpointLock) && isOld(store) == false
            }),
        ]
        var old = 0, new = 0
        for (attempt, point) in points.enumerated() {
            seenTransaction = false
            let folder = root.appendingPathComponent("attempt-\(attempt)")
            let store = folder.appendingPathComponent("store.sqlite")
            let marker = folder.appendingPathComponent("started")
            // Each run on a fresh copy of the old store; one that got past the point (it had begun the transaction, or
            // committed) is killed and the next run starts again.
            _ = try XCTUnwrap(CrashWriter.kill(["migrate", model.path, store.path, marker.path], store: store, at: point.name,
                                               when: { point.when($0, store) },
                                               missed: { state in point.old && (state.holdsCheckpointLock || isOld(store) == false) },
                                               beforeEachRun: {
                try? FileManager.default.removeItem(at: folder)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: template, to: store)
            }, every: 1_000))

            let integrity = try SQLiteConnection(path: store.path).query("PRAGMA integrity_check")
            XCTAssertEqual(integrity.first, [.text("ok")], point.name)
            let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store)
            if v1.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) {
                old += 1
                XCTAssertTrue(point.old, "\(point.name): the store is still the old version")
                let connection = try SQLiteConnection(path: store.path)
                XCTAssertEqual(try connection.query("SELECT COUNT(*), SUM(ZSERIAL), SUM(ZBATCH) FROM ZENTRY").first,
                               [.integer(Int64(rows)), .integer(Int64(rows * (rows + 1) / 2)), try connection.query("SELECT SUM(Z_PK / 100) FROM ZENTRY").first![0]],
                               "\(point.name): the old store is whole")
            } else {
                XCTAssertTrue(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata), "\(point.name): the store is one version or the other")
                XCTAssertFalse(point.old, "\(point.name): the store was migrated")
                new += 1
            }
            // Opening it finishes (or redoes) the migration.
            let container = PersistentContainer(name: "Entries", managedObjectModel: v2)
            container.persistentStoreDescriptions = [PersistentStoreDescription(url: store)]
            nonisolated(unsafe) var failure: (any Error)?
            container.loadPersistentStores { _, error in failure = error }
            XCTAssertNil(failure, point.name)
            let count = try container.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Record"))
            XCTAssertEqual(count, rows, point.name)
            let last = FetchRequest<ManagedObject>(entityName: "Entry")
            last.predicate = FetchPredicate(format: "serial == %@", NSNumber(value: rows))
            XCTAssertEqual((try container.viewContext.fetch(last).first?.value(forKey: "group") as? NSNumber)?.intValue, rows / 100,
                           "\(point.name): the renamed attribute kept its values")
        }
        XCTAssertEqual(old, 3, "kills before the migration committed")
        XCTAssertEqual(new, 1, "kills after it")
        print("MigrationCrashTests: migration took \(duration) s")
    }
}
