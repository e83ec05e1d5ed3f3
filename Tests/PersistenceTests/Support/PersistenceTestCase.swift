import Foundation
@_spi(TestHarness) import Persistence
import XCTest

/// The base of every Persistence test: a fresh container on a private in-memory store, and a check after each
/// test that the container (and so its store file) was released.
class PersistenceTestCase: XCTestCase {
    private(set) var container: PersistentContainer!
    var context: ManagedObjectContext { container.viewContext }
    private weak var releasedContainer: PersistentContainer?
    private var storeFilesBefore: Set<String> = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        storeFilesBefore = Self.inMemoryStoreFiles()
        container = try makeContainer(model: try makeModel())
    }

    /// The model of the test's container: the film catalogue, unless a feature with a model of its own says otherwise.
    func makeModel() throws -> ManagedObjectModel { try TestModel.make() }

    override func tearDownWithError() throws {
        releasedContainer = container
        container = nil
        XCTAssertNil(releasedContainer, "the container leaked: something still holds it after the test")
        // Blocks still queued on background contexts may hold the store for a moment after a test returns.
        var leftover = Self.inMemoryStoreFiles().subtracting(storeFilesBefore)
        let deadline = Date().addingTimeInterval(5)
        while !leftover.isEmpty && Date() < deadline {
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
            leftover = Self.inMemoryStoreFiles().subtracting(storeFilesBefore)
        }
        XCTAssertTrue(leftover.isEmpty, "in-memory store files were left behind: \(leftover.sorted())")
        try super.tearDownWithError()
    }

    /// A loaded container with its own empty in-memory store.
    func makeContainer(url: URL = URL(fileURLWithPath: "/dev/null"), model: ManagedObjectModel? = nil) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Films", managedObjectModel: try model ?? TestModel.make())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        let failure = LoadError()
        container.loadPersistentStores { _, error in failure.error = error }
        if let error = failure.error { throw error }
        return container
    }

    /// Objects saved by a fresh context, read back through another fresh context: what the store really holds.
    func storedCount(_ entityName: String, _ format: String? = nil, _ arguments: Any?...) throws -> Int {
        let reader = container.newBackgroundContext()
        let request = FetchRequest<ManagedObject>(entityName: entityName)
        if let format { request.predicate = FetchPredicate(format: format, argumentArray: arguments) }
        return try reader.performAndWait { try reader.count(for: request) }
    }

    @discardableResult
    func makeMovie(_ title: String, year: Int = 2000, in context: ManagedObjectContext? = nil) -> Movie {
        let movie = Movie(context: context ?? self.context)
        movie.title = title
        movie.year = year
        return movie
    }

    /// Saves, from another context on the store, a new movie titled `title` by the director with `id` (and `change`
    /// of that director), so this test's copy of the director has a to-many list a save behind.
    func addMovieElsewhere(_ title: String, directedBy id: ManagedObjectID,
                           _ change: @escaping (Director) -> Void = { _ in }) throws {
        let elsewhere = container.newBackgroundContext()
        try elsewhere.performAndWait {
            let theirs = try XCTUnwrap(elsewhere.existingObject(with: id) as? Director)
            let movie = Movie(context: elsewhere)
            movie.title = title
            movie.director = theirs
            change(theirs)
            try elsewhere.save()
        }
    }

    /// Saves `change` of the movie with `id` from another context on the store, so this test's copy of it is stale
    /// (a row version behind): how every optimistic-locking test begins.
    func changeElsewhere(_ id: ManagedObjectID, _ change: (Movie) -> Void) throws {
        let other = container.newBackgroundContext()
        try other.performAndWait {
            change(try XCTUnwrap(other.existingObject(with: id) as? Movie))
            try other.save()
        }
    }

    /// Deletes the object with `id` from another context on the store and saves there.
    func deleteElsewhere(_ id: ManagedObjectID) throws {
        let other = container.newBackgroundContext()
        try other.performAndWait {
            other.delete(try other.existingObject(with: id))
            try other.save()
        }
    }

    static func inMemoryStoreFiles() -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []
        let mine = "persistence-inmemory-\(getpid())-"
        return Set(names.filter { $0.hasPrefix(mine) })
    }

    /// A temporary folder removed after the test.
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("persistence-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// Asserts that `body` throws a ``PersistenceError`` with `code`, and returns it.
    @discardableResult
    func assertPersistenceError(_ code: PersistenceError.Code, file: StaticString = #filePath, line: UInt = #line,
                                _ body: () throws -> Void) -> PersistenceError? {
        do {
            try body()
            XCTFail("expected Persistence error \(code.rawValue), but nothing was thrown", file: file, line: line)
        } catch let error as PersistenceError {
            XCTAssertEqual(error.coreDataCode, code, "unexpected error: \(error)", file: file, line: line)
            return error
        } catch {
            XCTFail("expected a PersistenceError \(code.rawValue), got \(error)", file: file, line: line)
        }
        return nil
    }
}

/// Carries a load error out of the completion handler.
final class LoadError: @unchecked Sendable {
    var error: (any Error)?
}
