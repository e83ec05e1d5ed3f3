import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Lightweight migration on load: each change Apple lists as lightweight moves the data, each other change is
/// refused with 134140, and a failure leaves the store as it was.
final class MigrationTests: MigrationTestCase {
    private func model(_ entities: EntityDescription...) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: entities)
    }

    private func notes(_ properties: PropertyDescription...) throws -> ManagedObjectModel {
        try model(EntityDescription(name: "Note", properties: properties))
    }

    private func twoNotes(_ v1: ManagedObjectModel) throws -> URL {
        try store(v1) { context in
            insert("Note", ["title": "first", "body": "one"], into: context)
            insert("Note", ["title": "second", "body": nil], into: context)
        }
    }

    // MARK: - Attributes

    func testAnAddedAttributeTakesItsDefaultAndTheOthersKeepTheirValues() throws {
        let v1 = try notes(.attribute("title", .string), .attribute("body", .string))
        let url = try twoNotes(v1)
        let v2 = try notes(.attribute("title", .string), .attribute("body", .string),
                           .attribute("stars", .integer16, optional: false, defaultValue: 3))
        let container = try open(url, v2, versions: [v1])
        let notes = try objects("Note", in: container, sortedBy: "title")
        XCTAssertEqual(notes.map { $0.value(forKey: "title") as? String }, ["first", "second"])
        XCTAssertEqual(notes.map { $0.value(forKey: "body") as? String }, ["one", nil])
        XCTAssertEqual(notes.map { ($0.value(forKey: "stars") as? NSNumber)?.intValue }, [3, 3])
        XCTAssertTrue(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)))
    }

    func testARenamedAttributeKeepsItsValuesThroughItsRenamingIdentifier() throws {
        let v1 = try notes(.attribute("title", .string), .attribute("body", .string))
        let url = try twoNotes(v1)
        let v2 = try notes(.attribute("title", .string), PropertyDescription.attribute("text", .string).renamed(from: "body"))
        let container = try open(url, v2, versions: [v1])
        XCTAssertEqual(try objects("Note", in: container, sortedBy: "title").map { $0.value(forKey: "text") as? String }, ["one", nil])
    }

    func testARenameWithoutAnIdentifierLosesTheValues() throws {
        let v1 = try notes(.attribute("title", .string), .attribute("body", .string))
        let url = try twoNotes(v1)
        let v2 = try notes(.attribute("title", .string), .attribute("text", .string))
        let container = try open(url, v2, versions: [v1])
        XCTAssertEqual(try objects("Note", in: container, sortedBy: "title").map { $0.value(forKey: "text") as? String }, [nil, nil],
                       "without a renaming identifier 'text' is a new attribute and 'body' a removed one")
    }

    func testARemovedAttributeIsDroppedAndTheRestKept() throws {
        let v1 = try notes(.attribute("title", .string), .attribute("body", .string))
        let url = try twoNotes(v1)
        let container = try open(url, try notes(.attribute("title", .string)), versions: [v1])
        XCTAssertEqual(try objects("Note", in: container, sortedBy: "title").map { $0.value(forKey: "title") as? String }, ["first", "second"])
        let columns = try SQLiteConnection(path: url.path).query("SELECT name FROM pragma_table_info('ZNOTE')").map { "\($0[0])" }
        XCTAssertFalse(columns.contains("text(\"ZBODY\")"), "\(columns)")
    }

    func testAnOptionalAttributeBecomingRequiredWithADefaultFillsItsNils() throws {
        let v1 = try notes(.attribute("title", .string), .attribute("body", .string))
        let url = try twoNotes(v1)
        let v2 = try notes(.attribute("title", .string), .attribute("body", .string, optional: false, defaultValue: "(empty)"))
        let container = try open(url, v2, versions: [v1])
        XCTAssertEqual(try objects("Note", in: container, sortedBy: "title").map { $0.value(forKey: "body") as? String }, ["one", "(empty)"])
    }

    func testARequiredAttributeWithNothingToFillItFailsWith134110AndLeavesTheStoreAsItWas() throws {
        let v1 = try notes(.attribute("title", .string), .attribute("body", .string))
        let url = try twoNotes(v1)
        let before = try contents(of: url)
        let v2 = try notes(.attribute("title", .string), .attribute("body", .string, optional: false))
        let error = assertPersistenceError(.migration) { _ = try open(url, v2, versions: [v1]) }
        XCTAssertEqual(error?.entityName, "Note")
        XCTAssertEqual(error?.key, "body")
        XCTAssertTrue(error?.message.contains("mandatory destination attribute") == true, error?.message ?? "")
        XCTAssertEqual(try contents(of: url), before)
        XCTAssertNoThrow(try open(url, v1), "the old model still opens the store")
    }

    // MARK: - Entities and relationships

    private func library() throws -> ManagedObjectModel {
        try model(
            EntityDescription(name: "Shelf", properties: [
                .attribute("name", .string), .toMany("books", "Book", inverse: "shelf"),
            ]),
            EntityDescription(name: "Book", properties: [
                .attribute("title", .string), .toOne("shelf", "Shelf", inverse: "books"),
            ]))
    }

    private func fillLibrary(_ context: ManagedObjectContext) {
        let fiction = insert("Shelf", ["name": "fiction"], into: context)
        let poetry = insert("Shelf", ["name": "poetry"], into: context)
        for (title, shelf) in [("Dune", fiction), ("Emma", fiction), ("Odes", poetry)] {
            insert("Book", ["title": title, "shelf": shelf], into: context)
        }
    }

    private func shelfNames(of books: [ManagedObject], _ key: String = "shelf") -> [String?] {
        books.map { ($0.value(forKey: key) as? ManagedObject)?.value(forKey: "name") as? String }
    }

    func testARenamedEntityKeepsItsObjectsAndTheirRelationships() throws {
        let v1 = try library()
        let url = try store(v1, fillLibrary)
        let v2 = try model(
            EntityDescription(name: "Shelf", properties: [.attribute("name", .string), .toMany("books", "Volume", inverse: "shelf")]),
            EntityDescription(name: "Volume", properties: [.attribute("title", .string), .toOne("shelf", "Shelf", inverse: "books")],
                              renamingIdentifier: "Book"))
        let container = try open(url, v2, versions: [v1])
        let volumes = try objects("Volume", in: container, sortedBy: "title")
        XCTAssertEqual(volumes.map { $0.value(forKey: "title") as? String }, ["Dune", "Emma", "Odes"])
        XCTAssertEqual(shelfNames(of: volumes), ["fiction", "fiction", "poetry"])
    }

    func testAnAddedEntityAndRelationshipStartEmptyAndARemovedEntityGoes() throws {
        let v1 = try library()
        let url = try store(v1, fillLibrary)
        let v2 = try model(
            EntityDescription(name: "Book", properties: [.attribute("title", .string), .toMany("tags", "Tag", inverse: "books")]),
            EntityDescription(name: "Tag", properties: [.attribute("name", .string), .toMany("books", "Book", inverse: "tags")]))
        let container = try open(url, v2, versions: [v1])
        let books = try objects("Book", in: container, sortedBy: "title")
        XCTAssertEqual(books.map { $0.value(forKey: "title") as? String }, ["Dune", "Emma", "Odes"])
        XCTAssertEqual(books.map { ($0.value(forKey: "tags") as? Set<ManagedObject>)?.count }, [0, 0, 0])
        let tag = insert("Tag", ["name": "classic"], into: container.viewContext)
        books[1].setValue(Set([tag]), forKey: "tags")
        try container.viewContext.save()
        let tables = try SQLiteConnection(path: url.path).query("SELECT name FROM sqlite_master WHERE name = 'ZSHELF'")
        XCTAssertTrue(tables.isEmpty, "the removed entity's table is dropped")
    }

    func testARenamedRelationshipKeepsItsTargets() throws {
        let v1 = try library()
        let url = try store(v1, fillLibrary)
        let v2 = try model(
            EntityDescription(name: "Shelf", properties: [.attribute("name", .string), .toMany("books", "Book", inverse: "place")]),
            EntityDescription(name: "Book", properties: [
                .attribute("title", .string), PropertyDescription.toOne("place", "Shelf", inverse: "books").renamed(from: "shelf"),
            ]))
        let container = try open(url, v2, versions: [v1])
        XCTAssertEqual(shelfNames(of: try objects("Book", in: container, sortedBy: "title"), "place"), ["fiction", "fiction", "poetry"])
    }

    func testAToOneBecomingToManyKeepsItsTargets() throws {
        let v1 = try library()
        let url = try store(v1, fillLibrary)
        let v2 = try model(
            EntityDescription(name: "Shelf", properties: [.attribute("name", .string), .toMany("books", "Book", inverse: "shelf")]),
            EntityDescription(name: "Book", properties: [.attribute("title", .string), .toMany("shelf", "Shelf", inverse: "books")]))
        let container = try open(url, v2, versions: [v1])
        let books = try objects("Book", in: container, sortedBy: "title")
        XCTAssertEqual(books.map { (($0.value(forKey: "shelf") as? Set<ManagedObject>) ?? []).compactMap { $0.value(forKey: "name") as? String } },
                       [["fiction"], ["fiction"], ["poetry"]])
        let shelves = try objects("Shelf", in: container, sortedBy: "name")
        XCTAssertEqual(shelves.map { ($0.value(forKey: "books") as? Set<ManagedObject>)?.count }, [2, 1])
    }

    func testAnUnorderedToManyBecomingOrderedKeepsItsObjects() throws {
        let v1 = try library()
        let url = try store(v1, fillLibrary)
        let v2 = try model(
            EntityDescription(name: "Shelf", properties: [.attribute("name", .string), .toMany("books", "Book", inverse: "shelf", ordered: true)]),
            EntityDescription(name: "Book", properties: [.attribute("title", .string), .toOne("shelf", "Shelf", inverse: "books")]))
        let container = try open(url, v2, versions: [v1])
        let fiction = try objects("Shelf", in: container, sortedBy: "name")[0]
        let books = try XCTUnwrap(fiction.value(forKey: "books") as? [ManagedObject])
        XCTAssertEqual(Set(books.compactMap { $0.value(forKey: "title") as? String }), ["Dune", "Emma"])
    }

    // MARK: - Hierarchies

    private func flat() throws -> ManagedObjectModel {
        try model(
            EntityDescription(name: "Article", properties: [.attribute("title", .string), .attribute("words", .integer32)]),
            EntityDescription(name: "Photo", properties: [.attribute("title", .string), .attribute("pixels", .integer64)]))
    }

    private func fillFlat(_ context: ManagedObjectContext) {
        insert("Article", ["title": "essay", "words": Int32(900)], into: context)
        insert("Photo", ["title": "sunset", "pixels": Int64(12)], into: context)
    }

    func testAddingAParentAndMovingAPropertyUpIsRefusedWhenItMergesTwoHierarchies() throws {
        let v1 = try flat()
        let url = try store(v1, fillFlat)
        let before = try contents(of: url)
        let item = EntityDescription(name: "Item", isAbstract: true, properties: [.attribute("title", .string)])
        let v2 = try model(item,
                           EntityDescription(name: "Article", parent: item, properties: [.attribute("words", .integer32)]),
                           EntityDescription(name: "Photo", parent: item, properties: [.attribute("pixels", .integer64)]))
        let error = assertPersistenceError(.migrationMissingMappingModel) { _ = try open(url, v2, versions: [v1]) }
        XCTAssertTrue(error?.message.contains("hierarch") == true, error?.message ?? "")
        XCTAssertEqual(try contents(of: url), before)
    }

    func testAddingAParentToOneEntityMovesItsPropertyUp() throws {
        let v1 = try flat()
        let url = try store(v1, fillFlat)
        let item = EntityDescription(name: "Item", isAbstract: true, properties: [.attribute("title", .string)])
        let v2 = try model(item,
                           EntityDescription(name: "Article", parent: item, properties: [.attribute("words", .integer32)]),
                           EntityDescription(name: "Photo", properties: [.attribute("title", .string), .attribute("pixels", .integer64)]))
        let container = try open(url, v2, versions: [v1])
        let items = try objects("Item", in: container, sortedBy: "title")
        XCTAssertEqual(items.map { $0.entity.name }, ["Article"])
        XCTAssertEqual(items.map { ($0.value(forKey: "words") as? NSNumber)?.intValue }, [900])
        XCTAssertEqual(try objects("Photo", in: container, sortedBy: "title").map { ($0.value(forKey: "pixels") as? NSNumber)?.intValue }, [12])
        // New objects get keys after the old ones.
        insert("Article", ["title": "another", "words": Int32(1)], into: container.viewContext)
        XCTAssertNoThrow(try container.viewContext.save())
    }

    func testRemovingAParentMovesItsPropertiesDownAndItsEntitiesOut() throws {
        let item = EntityDescription(name: "Item", isAbstract: true, properties: [.attribute("title", .string)])
        let v1 = try model(item,
                           EntityDescription(name: "Article", parent: item, properties: [.attribute("words", .integer32)]),
                           EntityDescription(name: "Photo", parent: item, properties: [.attribute("pixels", .integer64)]))
        let url = try store(v1, fillFlat)
        let container = try open(url, try flat(), versions: [v1])
        XCTAssertEqual(try objects("Article", in: container, sortedBy: "title").map { $0.value(forKey: "title") as? String }, ["essay"])
        XCTAssertEqual(try objects("Photo", in: container, sortedBy: "title").map { $0.value(forKey: "title") as? String }, ["sunset"])
        insert("Photo", ["title": "dawn"], into: container.viewContext)
        XCTAssertNoThrow(try container.viewContext.save(), "keys go on from the old hierarchy's counter")
    }

    func testMovingAPropertyDownToASubentity() throws {
        let item = EntityDescription(name: "Item", properties: [.attribute("title", .string), .attribute("words", .integer32)])
        let v1 = try model(item, EntityDescription(name: "Article", parent: item, properties: []))
        let url = try store(v1) { context in
            insert("Item", ["title": "plain"], into: context)
            insert("Article", ["title": "essay", "words": Int32(900)], into: context)
        }
        let newItem = EntityDescription(name: "Item", properties: [.attribute("title", .string)])
        let v2 = try model(newItem, EntityDescription(name: "Article", parent: newItem, properties: [.attribute("words", .integer32)]))
        let container = try open(url, v2, versions: [v1])
        XCTAssertEqual(try objects("Item", in: container, sortedBy: "title").map { $0.entity.name }, ["Article", "Item"])
        XCTAssertEqual(try objects("Article", in: container, sortedBy: "title").map { ($0.value(forKey: "words") as? NSNumber)?.intValue }, [900])
    }

    // MARK: - Refusals

    func testChangesThatAreNotLightweightAreRefusedWith134140NamingWhatAndWhy() throws {
        let v1 = try library()
        let url = try store(v1, fillLibrary)
        let before = try contents(of: url)
        let cases: [(ManagedObjectModel, String, String)] = [
            (try model(
                EntityDescription(name: "Shelf", properties: [.attribute("name", .integer32), .toMany("books", "Book", inverse: "shelf")]),
                EntityDescription(name: "Book", properties: [.attribute("title", .string), .toOne("shelf", "Shelf", inverse: "books")])),
             "Shelf.name", "type changed"),
            (try model(
                EntityDescription(name: "Shelf", properties: [.attribute("name", .string), .toOne("books", "Book", inverse: "shelf")]),
                EntityDescription(name: "Book", properties: [.attribute("title", .string), .toOne("shelf", "Shelf", inverse: "books")])),
             "Shelf.books", "to-many to to-one"),
            (try model(
                EntityDescription(name: "Shelf", properties: [.toOne("name", "Book", inverse: nil), .toMany("books", "Book", inverse: "shelf")]),
                EntityDescription(name: "Book", properties: [.attribute("title", .string), .toOne("shelf", "Shelf", inverse: "books")])),
             "Shelf.name", "was an attribute"),
        ]
        for (v2, what, why) in cases {
            let error = assertPersistenceError(.migrationMissingMappingModel) { _ = try open(url, v2, versions: [v1]) }
            XCTAssertTrue(error?.message.contains(what) == true && error?.message.contains(why) == true, error?.message ?? "")
            XCTAssertEqual(try contents(of: url), before, what)
        }
    }

    func testWithMigrationOffAStoreOfAnotherVersionIs134100() throws {
        let v1 = try notes(.attribute("title", .string), .attribute("body", .string))
        let url = try twoNotes(v1)
        let v2 = try notes(.attribute("title", .string))
        assertPersistenceError(.persistentStoreIncompatibleVersionHash) { _ = try open(url, v2, versions: [v1], migrate: false) }
        assertPersistenceError(.migrationMissingMappingModel) { _ = try open(url, v2, versions: [v1], infer: false) }
        assertPersistenceError(.migrationMissingSourceModel) { _ = try open(url, try notes(.attribute("title", .string))) }
    }

    // MARK: - Stores written before per-entity hashes

    func testAStoreWrittenWithTheOldSchemeOpensWithItsOwnModelAndGetsHashes() throws {
        let v1 = try notes(.attribute("title", .string), .attribute("body", .string))
        let url = try twoNotes(v1)
        // What the store kept before per-entity hashes: its UUID, the model's fingerprint and a format version.
        do {
            let connection = try SQLiteConnection(path: url.path)
            try connection.execute("DELETE FROM Z_METADATA WHERE Z_KEY = 'metadata'")
            XCTAssertEqual(try connection.query("SELECT Z_VALUE FROM Z_METADATA WHERE Z_KEY = 'modelHash'").first, [.text(v1.versionHash)])
        }
        let old = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        XCTAssertNil(old[NSStoreModelVersionHashesKey])
        XCTAssertTrue(v1.isConfiguration(withName: nil, compatibleWithStoreMetadata: old))
        let container = try open(url, v1)
        XCTAssertEqual(try objects("Note", in: container, sortedBy: "title").count, 2)
        let upgraded = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        XCTAssertEqual(upgraded[NSStoreModelVersionHashesKey] as? [String: Data], v1.entityVersionHashesByName)
        XCTAssertEqual(upgraded[NSStoreUUIDKey] as? String, old[NSStoreUUIDKey] as? String)
    }
}
