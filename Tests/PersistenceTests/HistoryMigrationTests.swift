import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Persistent history and lightweight migration on one store. History recorded before a migration names entities and
/// properties by the old model's numbering; rather than read back wrong, it is expired by the migration (what
/// Core Data does is undocumented), and a reader with an older token is told to start afresh.
final class HistoryMigrationTests: MigrationTestCase {
    private func open(_ url: URL, _ model: ManagedObjectModel, versions: [ManagedObjectModel] = []) throws -> PersistentContainer {
        if !versions.isEmpty { model.versionsLoader = MigrationTestCase.loader(of: versions) }
        let container = PersistentContainer(name: "History", managedObjectModel: model)
        let description = PersistentStoreDescription(url: url)
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        container.persistentStoreDescriptions = [description]
        nonisolated(unsafe) var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    func testAMigrationExpiresOlderHistoryAndNewHistoryNamesTheNewModel() throws {
        let v1 = try ManagedObjectModel(entities: [
            EntityDescription(name: "Author", properties: [.attribute("name", .string)]),
            EntityDescription(name: "Book", properties: [.attribute("title", .string), .attribute("pages", .integer32)]),
        ])
        // Version 2 puts a new entity first and a new attribute before the old ones.
        let v2 = try ManagedObjectModel(entities: [
            EntityDescription(name: "Atlas", properties: [.attribute("region", .string)]),
            EntityDescription(name: "Author", properties: [.attribute("name", .string)]),
            EntityDescription(name: "Book", properties: [.attribute("isbn", .string), .attribute("title", .string),
                                                         .attribute("pages", .integer32)]),
        ])
        let url = try temporaryFolder().appendingPathComponent("books.sqlite")
        do {
            let container = try open(url, v1)
            let book = insert("Book", ["title": "Emma", "pages": 474], into: container.viewContext)
            try container.viewContext.save()
            book.setValue(475, forKey: "pages")
            try container.viewContext.save()
        }
        let oldToken = try open(url, v1).viewContext.history().first?.token
        let container = try open(url, v2, versions: [v1])
        XCTAssertEqual(try container.viewContext.history().count, 0, "nothing recorded before the migration is read back")
        XCTAssertThrowsError(try container.viewContext.history(after: oldToken)) {
            XCTAssertEqual(($0 as? PersistenceError)?.coreDataCode, .persistentHistoryTokenExpired, "\($0)")
        }
        let book = insert("Book", ["title": "Persuasion", "isbn": "x"], into: container.viewContext)
        try container.viewContext.save()
        book.setValue(249, forKey: "pages")
        try container.viewContext.save()
        let changes = try container.viewContext.history().flatMap { $0.changes ?? [] }
        XCTAssertEqual(changes.map { $0.changedObjectID.entityName }, ["Book", "Book"])
        XCTAssertEqual(changes.last?.updatedProperties?.map(\.name), ["pages"])
    }
}
