import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// What opening a store does to the files on disk: a file that is not this library's store (or not a store of this
/// model) is left exactly as it was, and a read-only store is read without writing anything.
final class StoreFileIntegrityTests: PersistenceTestCase {
    /// Every file of `folder` with its bytes: what must not change.
    private func fingerprint(of folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// Loads a container on `url`; returns the load error.
    private func loadError(at url: URL, model: ManagedObjectModel? = nil, readOnly: Bool = false) throws -> PersistenceError? {
        let container = PersistentContainer(name: "Films", managedObjectModel: try model ?? TestModel.make())
        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = readOnly
        container.persistentStoreDescriptions = [description]
        let failure = LoadError()
        container.loadPersistentStores { _, error in failure.error = error }
        return failure.error as? PersistenceError
    }

    func testAnotherProgramsDatabaseIsLeftByteForByteUntouched() throws {
        let folder = try temporaryFolder()
        let url = folder.appendingPathComponent("other.sqlite")
        do {
            let connection = try SQLiteConnection(path: url.path)
            try connection.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
            try connection.execute("INSERT INTO customers (name) VALUES ('Ann')")
        }
        let before = try fingerprint(of: folder)
        XCTAssertEqual(before.keys.sorted(), ["other.sqlite"])

        let error = try XCTUnwrap(loadError(at: url))
        XCTAssertEqual(error.coreDataCode, .persistentStoreIncompatibleVersionHash, "\(error)")
        XCTAssertEqual(try fingerprint(of: folder), before, "the file and its folder must be exactly as before")
        let check = try SQLiteConnection(path: url.path, options: [.readOnly])
        XCTAssertEqual(try check.query("PRAGMA journal_mode").first, [.text("delete")], "its journal mode is its own")
    }

    func testAStoreOfAnotherModelIsLeftByteForByteUntouched() throws {
        let folder = try temporaryFolder()
        let url = folder.appendingPathComponent("films.sqlite")
        let otherModel = try ManagedObjectModel(entities: [
            EntityDescription(name: "Movie", properties: [.attribute("title", .string), .attribute("minutes", .integer32)]),
        ])
        XCTAssertNil(try loadError(at: url, model: otherModel))
        let before = try fingerprint(of: folder)

        // Migration is on by default and no version of the model wrote the store: Core Data's 134130.
        XCTAssertEqual(try loadError(at: url)?.coreDataCode, .migrationMissingSourceModel)
        XCTAssertEqual(try fingerprint(of: folder), before)
    }

    func testAFileThatIsNotADatabaseIsLeftUntouched() throws {
        let folder = try temporaryFolder()
        let url = folder.appendingPathComponent("films.sqlite")
        try Data("just some text, not a database".utf8).write(to: url)
        let before = try fingerprint(of: folder)
        XCTAssertEqual(try loadError(at: url)?.coreDataCode, .fileReadCorruptFile)
        XCTAssertEqual(try fingerprint(of: folder), before)
    }

    // MARK: - Read-only stores

    /// A store holding one movie, "Alien", closed again.
    private func makeStore(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("films.sqlite")
        let writer = try makeContainer(url: url)
        makeMovie("Alien", year: 1979, in: writer.viewContext)
        try writer.viewContext.save()
        return url
    }

    /// Opens `url` read-only, reads it (also through a query generation when `pinning`), and checks a save is
    /// refused.
    private func readReadOnly(_ url: URL, pinning: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        let reader = PersistentContainer(name: "Films", managedObjectModel: try TestModel.make())
        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = true
        reader.persistentStoreDescriptions = [description]
        let failure = LoadError()
        reader.loadPersistentStores { _, error in failure.error = error }
        if let error = failure.error { return XCTFail("the read-only store did not open: \(error)", file: file, line: line) }
        let context = reader.viewContext
        XCTAssertEqual(try context.fetch(Movie.fetchRequest()).map(\.title), ["Alien"], file: file, line: line)
        if pinning {
            try context.setQueryGenerationFrom(.current)
            XCTAssertEqual(try context.count(for: Movie.fetchRequest()), 1, file: file, line: line)
        }
        makeMovie("Heat", in: context)
        XCTAssertThrowsError(try context.save(), "a read-only store refuses saves", file: file, line: line)
        context.rollback()
    }

    func testOpeningReadOnlyLeavesNothingBehind() throws {
        let folder = try temporaryFolder()
        let url = try makeStore(in: folder)
        let before = try fingerprint(of: folder)
        XCTAssertEqual(before.keys.sorted(), ["films.sqlite"])
        try readReadOnly(url)
        XCTAssertEqual(try fingerprint(of: folder), before, "no -wal or -shm left behind, the store unchanged")
    }

    func testAQueryGenerationOnAReadOnlyStoreLeavesNothingBehind() throws {
        let folder = try temporaryFolder()
        let url = try makeStore(in: folder)
        let before = try fingerprint(of: folder)
        try readReadOnly(url, pinning: true)
        XCTAssertEqual(try fingerprint(of: folder), before)
    }

    func testAStoreInAFolderNobodyMayWriteOpensReadOnly() throws {
        let folder = try temporaryFolder()
        let url = try makeStore(in: folder)
        let before = try fingerprint(of: folder)
        try lockAgainstWriting(folder)
        defer { unlock(folder) }
        XCTAssertEqual(try loadError(at: url)?.coreDataCode, .fileWriteNoPermission, "opened for writing, the folder is reported")
        try readReadOnly(url, pinning: true)
        XCTAssertEqual(try fingerprint(of: folder), before)
    }

    /// Makes `folder` impossible to write in, even for root (who ignores permission bits): the immutable attribute
    /// when running as root, the permission bits otherwise. Skips the test where neither is available.
    private func lockAgainstWriting(_ folder: URL) throws {
        if getuid() != 0 {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
            return
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr"), run("/usr/bin/chattr", "+i", folder.path) == 0 else {
            throw XCTSkip("running as root without chattr +i (CAP_LINUX_IMMUTABLE on an ext2/3/4 file system): no folder root cannot write")
        }
        let probe = folder.appendingPathComponent("probe")
        if FileManager.default.createFile(atPath: probe.path, contents: Data()) {
            try? FileManager.default.removeItem(at: probe)
            unlock(folder)
            throw XCTSkip("chattr +i did not stop root writing in \(folder.path)")
        }
    }

    private func unlock(_ folder: URL) {
        if getuid() == 0 {
            _ = run("/usr/bin/chattr", "-i", folder.path)
        } else {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        }
    }

    private func run(_ tool: String, _ arguments: String...) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    // MARK: - Damaged stores

    /// A store of `count` movies, closed, then cut to `length` bytes.
    private func truncatedStore(movies count: Int, to length: (Int) -> Int) throws -> URL {
        let url = try temporaryFolder().appendingPathComponent("films.sqlite")
        do {
            let writer = try makeContainer(url: url)
            for index in 0..<count { makeMovie("Movie \(index)", year: index, in: writer.viewContext) }
            try writer.viewContext.save()
        }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(length(size)))
        try handle.close()
        return url
    }

    /// Opens `url` and reads every movie; returns the first error, from loading or from the fetch.
    private func openAndReadAll(_ url: URL) throws -> PersistenceError? {
        if let error = try loadError(at: url) { return error }
        let container = try makeContainer(url: url)
        do {
            _ = try container.viewContext.fetch(Movie.fetchRequest()).map(\.title)
            return nil
        } catch let error as PersistenceError {
            return error
        }
    }

    private func assertCorrupt(_ error: PersistenceError?, sqliteCode: Int32, file: StaticString = #filePath, line: UInt = #line) {
        guard let error else { return XCTFail("a damaged store was read without an error", file: file, line: line) }
        XCTAssertEqual(error.coreDataCode, .fileReadCorruptFile, "\(error)", file: file, line: line)
        XCTAssertEqual(error.sqliteCode.map { $0 & 0xFF }, sqliteCode, "\(error)", file: file, line: line)
        let bridged = error as NSError
        XCTAssertEqual(bridged.domain, NSCocoaErrorDomain, file: file, line: line)
        XCTAssertEqual(bridged.code, 259, file: file, line: line)
        XCTAssertEqual((bridged.userInfo["NSSQLiteErrorDomain"] as? NSNumber).map { $0.int32Value & 0xFF }, sqliteCode,
                       "Core Data's user-info key for SQLite's code", file: file, line: line)
    }

    func testAStoreCutShortIsReportedAsCorrupt() throws {
        // SQLITE_CORRUPT (11): the file ends before the pages its tables point at.
        assertCorrupt(try openAndReadAll(truncatedStore(movies: 2_000) { $0 / 2 }), sqliteCode: 11)
    }

    func testAStoreCutToItsFirstPageIsReportedAsCorrupt() throws {
        assertCorrupt(try openAndReadAll(truncatedStore(movies: 10) { _ in 4096 }), sqliteCode: 11)
    }

    func testGarbageIsReportedAsCorruptWithSQLitesNotADatabaseCode() throws {
        let url = try temporaryFolder().appendingPathComponent("films.sqlite")
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: url)
        // SQLITE_NOTADB (26): the first page is not a database header.
        assertCorrupt(try openAndReadAll(url), sqliteCode: 26)
    }
}
