import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// What the migration tests share: stores written with one model version and opened with another.
class MigrationTestCase: PersistenceTestCase {
    /// Loads a container for `model` on the store at `url`; `versions` are the earlier model versions the app has
    /// (for a model made in code, which knows none by itself).
    func open(_ url: URL, _ model: ManagedObjectModel, versions: [ManagedObjectModel] = [],
              migrate: Bool = true, infer: Bool = true) throws -> PersistentContainer {
        if !versions.isEmpty { model.versionsLoader = Self.loader(of: versions) }
        let container = PersistentContainer(name: "Migration", managedObjectModel: model)
        let description = PersistentStoreDescription(url: url)
        description.shouldMigrateStoreAutomatically = migrate
        description.shouldInferMappingModelAutomatically = infer
        container.persistentStoreDescriptions = [description]
        nonisolated(unsafe) var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// What a model read from a `.xcdatamodeld` knows of its earlier versions, for a model made in code: `versions`,
    /// newest first, already loaded.
    static func loader(of versions: [ManagedObjectModel]) -> @Sendable () -> [ModelVersion] {
        { versions.enumerated().map { index, version in ModelVersion(name: "version \(index + 1)") { version } } }
    }

    /// A new store at a fresh URL, written with `model`, holding what `fill` inserts.
    func store(_ model: ManagedObjectModel, _ fill: (ManagedObjectContext) throws -> Void) throws -> URL {
        let url = try temporaryFolder().appendingPathComponent("store.sqlite")
        let container = try open(url, model)
        try fill(container.viewContext)
        try container.viewContext.save()
        return url
    }

    /// Inserts an object of `entity` with `values`.
    @discardableResult
    func insert(_ entity: String, _ values: [String: Any?], into context: ManagedObjectContext) -> ManagedObject {
        let object = EntityDescription.insertNewObject(forEntityName: entity, into: context)
        for (key, value) in values { object.setValue(value ?? nil, forKey: key) }
        return object
    }

    /// The objects of `entity`, sorted by `key`.
    func objects(_ entity: String, in container: PersistentContainer, sortedBy key: String) throws -> [ManagedObject] {
        let request = FetchRequest<ManagedObject>(entityName: entity)
        request.sortDescriptors = [FetchSortDescriptor(key: key, ascending: true)]
        return try container.viewContext.fetch(request)
    }

    /// Everything the store file holds, table by table (schema and rows), read through SQLite: what must not
    /// change when a migration fails.
    func contents(of url: URL) throws -> [String] {
        let connection = try SQLiteConnection(path: url.path, options: [.readOnly])
        var lines: [String] = []
        let tables = try connection.query("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
        for table in tables {
            lines.append("\(table)")
            guard case .text("table") = table[0], case .text(let name) = table[1] else { continue }
            for row in try connection.query("SELECT * FROM \(name) ORDER BY rowid") { lines.append("\(name): \(row)") }
        }
        return lines
    }
}
