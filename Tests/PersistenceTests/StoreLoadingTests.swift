import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

final class StoreLoadingTests: PersistenceTestCase {
    func testTwoInMemoryContainersNeverShareData() throws {
        let other = try makeContainer()
        makeMovie("Alien")
        try context.save()
        XCTAssertEqual(try context.count(for: Movie.fetchRequest()), 1)
        XCTAssertEqual(try other.viewContext.count(for: Movie.fetchRequest()), 0)
    }

    func testFileStoreKeepsDataAcrossContainers() throws {
        let url = try temporaryFolder().appendingPathComponent("films.sqlite")
        do {
            let first = try makeContainer(url: url)
            makeMovie("Heat", year: 1995, in: first.viewContext)
            try first.viewContext.save()
        }
        let second = try makeContainer(url: url)
        let movies = try second.viewContext.fetch(Movie.fetchRequest())
        XCTAssertEqual(movies.map(\.title), ["Heat"])
        XCTAssertEqual(movies.first?.year, 1995)
    }

    func testTheStoreHasCoreDataShapedTables() throws {
        let url = try temporaryFolder().appendingPathComponent("films.sqlite")
        _ = try makeContainer(url: url)
        let connection = try SQLiteConnection(path: url.path)
        let columns = try connection.query("SELECT name FROM pragma_table_info('ZMOVIE')").map { "\($0[0])" }
        XCTAssertEqual(columns, ["text(\"Z_PK\")", "text(\"Z_OPT\")", "text(\"ZTITLE\")", "text(\"ZYEAR\")", "text(\"ZRATING\")",
                                 "text(\"ZDIRECTOR\")", "text(\"ZSTUDIO\")"])
        XCTAssertEqual(try connection.query("PRAGMA journal_mode").first, [.text("wal")])
    }

    func testAStoreMadeWithAnotherModelIsRefusedWith134100() throws {
        let url = try temporaryFolder().appendingPathComponent("films.sqlite")
        _ = try makeContainer(url: url)
        let otherModel = try ManagedObjectModel(entities: [
            EntityDescription(name: "Movie", properties: [.attribute("title", .string), .attribute("minutes", .integer32)]),
        ])
        // Migration is on by default, and no version of the model wrote the store: Core Data's 134130.
        let error = assertPersistenceError(.migrationMissingSourceModel) { _ = try makeContainer(url: url, model: otherModel) }
        XCTAssertTrue(error?.message.contains("missing source managed object model") == true, error?.message ?? "")
        // The store is untouched: the original model still opens it.
        XCTAssertNoThrow(try makeContainer(url: url))
    }

    func testChangingOnlyOptionalityMakesAnotherModelVersion() throws {
        // Apple counts isOptional in a property's version hash: the store needs migrating (MigrationTests).
        let url = try temporaryFolder().appendingPathComponent("notes.sqlite")
        let strict = try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [.attribute("text", .string, optional: false)])])
        let relaxed = try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [.attribute("text", .string, optional: true)])])
        _ = try makeContainer(url: url, model: strict)
        assertPersistenceError(.migrationMissingSourceModel) { _ = try makeContainer(url: url, model: relaxed) }
    }

    func testAMissingFolderIsReportedWithItsPath() throws {
        let url = try temporaryFolder().appendingPathComponent("no/such/folder/films.sqlite")
        let error = assertPersistenceError(.fileReadNoSuchFile) { _ = try makeContainer(url: url) }
        XCTAssertTrue(error?.message.contains("no/such/folder") == true, error?.message ?? "")
        XCTAssertEqual(error?.url, url)
    }

    func testAFileWhereTheFolderShouldBeIsReported() throws {
        let file = try temporaryFolder().appendingPathComponent("plain.txt")
        try Data("hello".utf8).write(to: file)
        let error = assertPersistenceError(.fileWriteNoPermission) { _ = try makeContainer(url: file.appendingPathComponent("films.sqlite")) }
        XCTAssertTrue(error?.message.contains("is a file, not a folder") == true, error?.message ?? "")
    }

    func testAFileThatIsNotADatabaseIsReportedAsCorrupt() throws {
        let url = try temporaryFolder().appendingPathComponent("films.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: url)
        let error = assertPersistenceError(.fileReadCorruptFile) { _ = try makeContainer(url: url) }
        XCTAssertTrue(error?.message.contains("not a SQLite database") == true, error?.message ?? "")
        XCTAssertEqual(try Data(contentsOf: url), Data(repeating: 0x41, count: 4096), "the file must not be changed")
    }

    func testAnotherProgramsDatabaseIsNotTakenOver() throws {
        let url = try temporaryFolder().appendingPathComponent("other.sqlite")
        do {
            let connection = try SQLiteConnection(path: url.path)
            try connection.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY)")
        }
        let error = assertPersistenceError(.persistentStoreIncompatibleVersionHash) { _ = try makeContainer(url: url) }
        XCTAssertTrue(error?.message.contains("not a store of this library") == true, error?.message ?? "")
    }

    func testAnUnreadableStoreFolderIsReportedThenARetryElsewhereSucceeds() throws {
        // Permissions do not bind root, so use a location that cannot hold files at all.
        let container = PersistentContainer(name: "Films", managedObjectModel: try TestModel.make())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/proc/films.sqlite"))]
        let failure = LoadError()
        container.loadPersistentStores { _, error in failure.error = error }
        let error = try XCTUnwrap(failure.error as? PersistenceError)
        XCTAssertTrue([PersistenceError.Code.fileWriteNoPermission, .fileReadUnknown].contains(error.coreDataCode), "\(error)")
        XCTAssertTrue(error.message.contains("/proc"), error.message)

        container.persistentStoreDescriptions = [.inMemory()]
        container.loadPersistentStores { _, error in failure.error = error }
        XCTAssertNil(failure.error)
        makeMovie("Retry", in: container.viewContext)
        XCTAssertNoThrow(try container.viewContext.save())
    }

    func testAReadOnlyStoreReadsButRefusesToSave() throws {
        let url = try temporaryFolder().appendingPathComponent("films.sqlite")
        do {
            let writer = try makeContainer(url: url)
            makeMovie("Alien", in: writer.viewContext)
            try writer.viewContext.save()
        }
        let reader = PersistentContainer(name: "Films", managedObjectModel: try TestModel.make())
        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = true
        reader.persistentStoreDescriptions = [description]
        let failure = LoadError()
        reader.loadPersistentStores { _, error in failure.error = error }
        XCTAssertNil(failure.error)
        XCTAssertEqual(try reader.viewContext.fetch(Movie.fetchRequest()).map(\.title), ["Alien"])
        makeMovie("Heat", in: reader.viewContext)
        let error = assertPersistenceError(.persistentStoreSave) { try reader.viewContext.save() }
        XCTAssertTrue(error?.message.contains("readonly") == true, error?.message ?? "")
    }

    func testTheDefaultLocationIsCreatedWhenMissing() throws {
        let home = try temporaryFolder().appendingPathComponent("data")
        setenv("XDG_DATA_HOME", home.path, 1)
        defer { unsetenv("XDG_DATA_HOME") }
        let container = PersistentContainer(name: "Films", managedObjectModel: try TestModel.make())
        XCTAssertEqual(container.persistentStoreDescriptions.first?.url?.path, home.appendingPathComponent("Films.sqlite").path)
        let failure = LoadError()
        container.loadPersistentStores { _, error in failure.error = error }
        XCTAssertNil(failure.error)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home.appendingPathComponent("Films.sqlite").path))
    }

    func testASecondStoreIsRefused() throws {
        let failure = LoadError()
        container.persistentStoreDescriptions = [.inMemory()]
        container.loadPersistentStores { _, error in failure.error = error }
        XCTAssertEqual((failure.error as? PersistenceError)?.coreDataCode, .persistentStoreInvalidType)
    }

    func testSavingWithoutALoadedStoreSaysSo() throws {
        let unloaded = PersistentContainer(name: "Films", managedObjectModel: try TestModel.make())
        makeMovie("Nowhere", in: unloaded.viewContext)
        let error = assertPersistenceError(.persistentStoreInvalidType) { try unloaded.viewContext.save() }
        XCTAssertTrue(error?.message.contains("loadPersistentStores") == true, error?.message ?? "")
    }

    func testADescriptionWithoutAURLIsRefusedWith134000() throws {
        // Core Data types the URL optional and does not document a load without one: Persistence refuses it.
        let unloaded = PersistentContainer(name: "Films", managedObjectModel: try TestModel.make())
        let description = PersistentStoreDescription()
        XCTAssertNil(description.url)
        unloaded.persistentStoreDescriptions = [description]
        let failure = LoadError()
        unloaded.loadPersistentStores { _, error in failure.error = error }
        let error = failure.error as? PersistenceError
        XCTAssertEqual(error?.coreDataCode, .persistentStoreInvalidType)
        XCTAssertTrue(error?.message.contains("no URL") == true, error?.message ?? "")
        XCTAssertTrue(unloaded.persistentStoreCoordinator.persistentStores.isEmpty)
        // The same description loads once it has one.
        description.url = URL(fileURLWithPath: "/dev/null")
        failure.error = nil
        unloaded.loadPersistentStores { _, error in failure.error = error }
        XCTAssertNil(failure.error)
        XCTAssertEqual(unloaded.persistentStoreCoordinator.persistentStores.count, 1)
    }

    func testAnInMemoryStoreNeedsNoURLAsCoreDatas() throws {
        // The classic Core Data test set-up: addPersistentStore(ofType: NSInMemoryStoreType, …, at: nil, …).
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try TestModel.make())
        let store = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil,
                                                       options: nil)
        XCTAssertEqual(store.type, NSInMemoryStoreType)
        let context = ManagedObjectContext(.mainQueue)
        context.persistentStoreCoordinator = coordinator
        let movie = Movie(context: context)
        movie.title = "Kept in memory"
        try context.save()
        XCTAssertEqual(try context.count(for: Movie.fetchRequest()), 1)
        // A SQLite store without a URL is still refused.
        let other = PersistentStoreCoordinator(managedObjectModel: try TestModel.make())
        XCTAssertThrowsError(try other.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: nil,
                                                          options: nil))
    }

    func testTheCoordinatorAddsAStoreThroughItsCompletionHandler() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try TestModel.make())
        let description = PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
        final class Outcome: @unchecked Sendable {
            var description: PersistentStoreDescription?
            var error: (any Error)?
        }
        let outcome = Outcome()
        coordinator.addPersistentStore(with: description) { loaded, error in
            outcome.description = loaded
            outcome.error = error
        }
        // Synchronous unless the description asks otherwise, as the container's loading.
        XCTAssertNil(outcome.error)
        XCTAssertTrue(outcome.description === description)
        XCTAssertEqual(coordinator.persistentStores.map(\.url?.path), ["/dev/null"])
        // A second store is refused through the handler, on a background queue when asked.
        let second = PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
        second.shouldAddStoreAsynchronously = true
        let refused = expectation(description: "refused")
        coordinator.addPersistentStore(with: second) { _, error in
            XCTAssertFalse(Thread.isMainThread)
            XCTAssertEqual((error as? PersistenceError)?.coreDataCode, .persistentStoreInvalidType)
            refused.fulfill()
        }
        wait(for: [refused], timeout: 5)
    }

    func testAsynchronousLoadingCallsBackOnAnotherQueue() throws {
        weak var released: PersistentStoreCoordinator?
        do {
            let container = PersistentContainer(name: "Films", managedObjectModel: try TestModel.make())
            let description = PersistentStoreDescription.inMemory()
            description.shouldAddStoreAsynchronously = true
            container.persistentStoreDescriptions = [description]
            let loaded = expectation(description: "loaded")
            container.loadPersistentStores { _, error in
                XCTAssertNil(error)
                XCTAssertFalse(Thread.isMainThread)
                loaded.fulfill()
            }
            wait(for: [loaded], timeout: 5)
            released = container.persistentStoreCoordinator
        }
        // The loading block may still hold the coordinator for a moment after calling back.
        let deadline = Date().addingTimeInterval(5)
        while released != nil && Date() < deadline { RunLoop.current.run(until: Date().addingTimeInterval(0.01)) }
        XCTAssertNil(released, "the store must be closed once nothing uses it")
    }
}
