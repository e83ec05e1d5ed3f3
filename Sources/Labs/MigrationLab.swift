import Foundation
@_spi(ModelLoading) import Persistence

/// Lightweight migration against the plain SQL it stands for: a store of moods gets a new attribute (with a default)
/// and a renamed one, once by opening it with the model's next version, once by `ALTER TABLE` in the sqlite3 shell
/// (timed from outside, the shell's start included, and by the shell's own timer, which the note gives; not measured
/// where there is no `sqlite3` shell — Debian: `apt-get install sqlite3`). On 2 cores with 200,000 moods the migration took three to six
/// times the hand-written statements, most of it the metadata read, the plan and the checkpoint around them.
enum MigrationLab {
    static func run(rows: Int, reporter: LabReporter) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("persistence-lab-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try writeModel(in: folder)
        let store = folder.appendingPathComponent("Moods.sqlite")
        do {
            let v1 = try ManagedObjectModel(contentsOf: model.appendingPathComponent("Moods.xcdatamodel"), managedObjectClasses: [])
            let container = try load(v1, at: store)
            var made = 0
            let fill = BatchInsertRequest(entityName: "Mood") { row in
                guard made < rows else { return true }
                row["remoteIdentifier"] = "mood-\(made)"
                row["date"] = Date(timeIntervalSinceReferenceDate: Double(made))
                row["latitude"] = Double(made % 180)
                made += 1
                reporter.progress("filling \(rows) moods", done: made, total: rows)
                return false
            }
            let context = container.newBackgroundContext()
            try context.performAndWait { _ = try context.execute(fill) }
        }
        let copy = folder.appendingPathComponent("Copy.sqlite")
        try FileManager.default.copyItem(at: store, to: copy)

        let v2 = try ManagedObjectModel(contentsOf: model, managedObjectClasses: [])
        _ = try reporter.measure("lightweight migration on load", note: { "\($0) moods after" }) { () throws -> Int in
            let container = try load(v2, at: store)
            return try container.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Mood"))
        }
        _ = try reporter.measure("opening the migrated store", note: { "\($0) moods" }) { () throws -> Int in
            let container = try load(v2, at: store)
            return try container.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Mood"))
        }
        // Timed twice: from outside, starting the shell included, and by the shell's own timer, which the note gives.
        // Without the shell (a separate package from the library) the way is listed as not measured.
        let shell = sqlite3Shell()
        _ = try reporter.measure("ALTER TABLE by hand in the sqlite3 shell", countsSQL: false, note: { (seconds: Double?) in
            seconds.map { String(format: "sqlite3's own timer: %.3f s for the two statements and COMMIT", $0) }
                ?? "not measured: no sqlite3 shell on this machine (Debian: apt-get install sqlite3)"
        }) { try shell.map { try alterTable(copy, shell: $0) } }
    }

    /// The sqlite3 shell on the `PATH`, if there is one.
    private static func sqlite3Shell() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("sqlite3") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    private static func load(_ model: ManagedObjectModel, at url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Moods", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        nonisolated(unsafe) var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// The same change by hand, in one transaction; returns sqlite3's own measure of the statements' real time.
    private static func alterTable(_ url: URL, shell: URL) throws -> Double {
        let process = Process()
        process.executableURL = shell
        // The shell times statements read from its standard input (not those given as arguments).
        process.arguments = [url.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("""
            .timer on
            BEGIN IMMEDIATE;
            ALTER TABLE ZMOOD ADD COLUMN ZRATING INTEGER DEFAULT 0;
            ALTER TABLE ZMOOD RENAME COLUMN ZREMOTEIDENTIFIER TO ZREMOTEID;
            COMMIT;

            """.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "the sqlite3 shell at \(shell.path) failed (exit status \(process.terminationStatus))"])
        }
        return text.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("Run Time: real ") else { return nil }
            return Double(line.dropFirst("Run Time: real ".count).prefix { $0 != " " })
        }.reduce(0, +)
    }

    private static func writeModel(in folder: URL) throws -> URL {
        let model = folder.appendingPathComponent("Moods.xcdatamodeld")
        let v1 = """
            <entity name="Mood">
                <attribute name="remoteIdentifier" optional="YES" attributeType="String"/>
                <attribute name="date" attributeType="Date"/>
                <attribute name="latitude" optional="YES" attributeType="Double"/>
            </entity>
            """
        let v2 = """
            <entity name="Mood">
                <attribute name="remoteID" optional="YES" attributeType="String" elementID="remoteIdentifier"/>
                <attribute name="date" attributeType="Date"/>
                <attribute name="latitude" optional="YES" attributeType="Double"/>
                <attribute name="rating" attributeType="Integer 16" defaultValueString="0"/>
            </entity>
            """
        for (name, entities) in [("Moods", v1), ("Moods 2", v2)] {
            let version = model.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            let contents = """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                \(entities)
                </model>
                """
            try Data(contents.utf8).write(to: version.appendingPathComponent("contents"))
        }
        try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "Moods 2.xcdatamodel"], format: .xml, options: 0)
            .write(to: model.appendingPathComponent(".xccurrentversion"))
        return model
    }
}
