import Foundation
@testable import Persistence
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
        XCTAssertEqual(error.code, .persistentStoreIncompatibleVersionHash, "\(error)")
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

        XCTAssertEqual(try loadError(at: url)?.code, .persistentStoreIncompatibleVersionHash)
        XCTAssertEqual(try fingerprint(of: folder), before)
    }

    func testAFileThatIsNotADatabaseIsLeftUntouched() throws {
        let folder = try temporaryFolder()
        let url = folder.appendingPathComponent("films.sqlite")
        try Data("just some text, not a database".utf8).write(to: url)
        let before = try fingerprint(of: folder)
        XCTAssertEqual(try loadError(at: url)?.code, .fileReadCorruptFile)
        XCTAssertEqual(try fingerprint(of: folder), before)
    }
}
