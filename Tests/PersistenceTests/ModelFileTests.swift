import Foundation
@_spi(ModelBuilding) @_spi(ModelLoading) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Models drawn in Xcode (`.xcdatamodeld` / `.xcdatamodel` with its `contents` XML) read into the same model a
/// declaration in code makes.
final class ModelFileTests: PersistenceTestCase {
    private func films(_ path: String = "Films.xcdatamodeld", classes: [ManagedObject.Type] = [],
                       modules: [String] = ["PersistenceTests"]) throws -> ManagedObjectModel {
        try ManagedObjectModel(contentsOf: ModelFixtures.url(path), managedObjectClasses: classes, modules: modules)
    }

    private func catalog() throws -> ManagedObjectModel {
        try ManagedObjectModel(contentsOf: ModelFixtures.url("Catalog.xcdatamodel"), managedObjectClasses: [])
    }

    // MARK: - Versions and equality with the code model

    func testAVersionedModelReadsTheVersionItsMarkerNames() throws {
        let model = try films()
        let movie = try XCTUnwrap(model.entitiesByName["Movie"])
        XCTAssertNotNil(movie.attributesByName["rating"], "Films 2 (the current version) has Movie.rating")
        XCTAssertNil(movie.attributesByName["budget"], "only Films (version 1) has Movie.budget")
        XCTAssertEqual(model.entities.map(\.name), ["Actor", "Director", "Movie", "Sample", "Scene", "Studio"])
        XCTAssertEqual(model.warnings, [])
    }

    /// Core Data's `NSManagedObjectModel(contentsOf:)` is failable; code written for it reads the same here.
    func testTheFailableInitializerReadsAModelOrAnswersNil() throws {
        let url = try ModelFixtures.url("Catalog.xcdatamodel")
        let model: ManagedObjectModel? = ManagedObjectModel(contentsOf: url)
        XCTAssertEqual(model?.entities.isEmpty, false)
        let missing = url.deletingLastPathComponent().appendingPathComponent("Nowhere.xcdatamodel")
        XCTAssertNil(ManagedObjectModel(contentsOf: missing))
    }

    func testTheFileModelEqualsTheCodeModelOfTheSameEntities() throws {
        let file = try films()
        let code = try TestModel.make()
        XCTAssertEqual(file.versionHash, code.versionHash)
        XCTAssertEqual(Set(file.entitiesByName.keys), Set(code.entitiesByName.keys))
        for entity in code.entities {
            let read = try XCTUnwrap(file.entitiesByName[entity.entityName])
            XCTAssertTrue(read.managedObjectClass == entity.managedObjectClass, "\(entity.entityName): \(read.managedObjectClass)")
            // The same attributes (type, optional, default) and relationships (kind, inverse, delete rule).
            XCTAssertEqual(read.description.split(separator: "\n").sorted(), entity.description.split(separator: "\n").sorted())
            XCTAssertEqual(read.uniquenessConstraintKeys, entity.uniquenessConstraintKeys)
        }
    }

    func testAStoreMadeWithTheCodeModelOpensWithTheFileModel() throws {
        let url = try temporaryFolder().appendingPathComponent("Films.sqlite")
        let writer = try makeContainer(url: url)
        let movie = makeMovie("Alien", year: 1979, in: writer.viewContext)
        movie.director = Director(context: writer.viewContext)
        movie.director?.name = "Ridley Scott"
        try writer.viewContext.save()

        let reader = try makeContainer(url: url, model: try films())
        let request = FetchRequest<Movie>(entityName: "Movie")
        let movies = try reader.viewContext.fetch(request)
        XCTAssertEqual(movies.map(\.title), ["Alien"])
        XCTAssertEqual(movies.first?.director?.name, "Ridley Scott")
    }

    func testAnOlderVersionOfTheModelCannotOpenTheStore() throws {
        let old = try films("Films.xcdatamodeld/Films.xcdatamodel")
        XCTAssertNotNil(old.entitiesByName["Movie"]?.attributesByName["budget"])
        XCTAssertNotEqual(old.versionHash, try films().versionHash)
        let url = try temporaryFolder().appendingPathComponent("Films.sqlite")
        _ = try makeContainer(url: url, model: try films())
        // Migration is on by default, and no version before the old one wrote the store: Core Data's 134130.
        let error = assertPersistenceError(.migrationMissingSourceModel) {
            _ = try makeContainer(url: url, model: old)
        }
        XCTAssertTrue(error?.message.contains("missing source managed object model") == true, error?.message ?? "")
    }

    func testAContentsFileCanBeReadDirectly() throws {
        let model = try films("Films.xcdatamodeld/Films 2.xcdatamodel/contents")
        XCTAssertEqual(model.versionHash, try TestModel.make().versionHash)
    }

    /// Xcode records a relationship's inverse twice, by name (`inverseName`) and by the entity that holds it
    /// (`inverseEntity`), and a file can carry a stale `inverseEntity` (objc.io's Moody model: `Country.moods` says
    /// `inverseEntity="Country"`); Xcode compiles it, finding the inverse by name on the destination, and Core Data
    /// runs it. So does this reader, with a warning that names the line.
    func testAStaleInverseEntityIsReadFromTheDestinationWithAWarning() throws {
        let file = try temporaryFolder().appendingPathComponent("contents")
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Country" representedClassName="Country" syncable="YES">
                    <relationship name="moods" toMany="YES" deletionRule="Nullify" destinationEntity="Mood" inverseName="country" inverseEntity="Country"/>
                </entity>
                <entity name="Mood" representedClassName="Mood" syncable="YES">
                    <relationship name="country" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Country" inverseName="moods" inverseEntity="Country"/>
                </entity>
            </model>
            """.utf8).write(to: file)
        let model = try ManagedObjectModel(contentsOf: file, managedObjectClasses: [])
        let moods = try XCTUnwrap(model.entitiesByName["Country"]?.relationshipsByName["moods"])
        XCTAssertEqual(moods.inverseRelationship?.name, "country")
        XCTAssertEqual(moods.inverseRelationship?.entity.name, "Mood", "the inverse is the destination's")
        let warning = try XCTUnwrap(model.warnings.first { $0.contains("'Country.moods'") }, "\(model.warnings)")
        XCTAssertTrue(warning.contains("contents, line 4"), warning)
        XCTAssertTrue(warning.contains("inverseEntity 'Country'"), warning)
    }

    // MARK: - Classes

    func testClassesAreFoundByQualifiedNameAndByModule() throws {
        // Actor is written "PersistenceTests.Actor", Director ".Director", Movie "Movie".
        let model = try films()
        XCTAssertTrue(model.entitiesByName["Actor"]?.managedObjectClass == Actor.self)
        XCTAssertTrue(model.entitiesByName["Director"]?.managedObjectClass == Director.self)
        XCTAssertTrue(model.entitiesByName["Movie"]?.managedObjectClass == Movie.self)
        XCTAssertTrue(model.entity(for: Movie.self) === model.entitiesByName["Movie"])
    }

    func testRegisteredClassesNeedNoModule() throws {
        let model = try films(classes: [Movie.self, Director.self, Actor.self, Scene.self, Studio.self, Sample.self], modules: [])
        XCTAssertTrue(model.entitiesByName["Movie"]?.managedObjectClass == Movie.self)
        XCTAssertTrue(model.entitiesByName["Scene"]?.managedObjectClass == Scene.self)
        XCTAssertEqual(model.warnings, [])
    }

    func testRegisteredNestedClassesAreFoundByTheirShortName() throws {
        // The runtime cannot find a nested class by name; registering it is the way.
        let model = try ManagedObjectModel(contentsOf: ModelFixtures.url("Catalog.xcdatamodel"), managedObjectClasses: [CatalogClasses.Reader.self])
        XCTAssertTrue(model.entitiesByName["Reader"]?.managedObjectClass == CatalogClasses.Reader.self)
    }

    func testAClassNotFoundFallsBackToManagedObjectWithAWarning() throws {
        let model = try catalog()
        XCTAssertTrue(model.entitiesByName["Reader"]?.managedObjectClass == ManagedObject.self)
        XCTAssertTrue(model.entitiesByName["Book"]?.managedObjectClass == ManagedObject.self)
        let warning = try XCTUnwrap(model.warnings.first { $0.contains("Bookworm.Reader") }, "\(model.warnings)")
        XCTAssertTrue(warning.contains("Catalog.xcdatamodel/contents, line 44"), warning)
        XCTAssertTrue(warning.contains("managedObjectClasses"), warning)
    }

    func testMissingClassesThatOtherClassesNeedAreNamedInTheError() throws {
        // Actor is found by its qualified name; its `movies: Set<Movie>` needs Movie's class, which is not found.
        let error = assertPersistenceError(.coreData) { _ = try self.films(modules: []) }
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("Actor.movies"), message)
        XCTAssertTrue(message.contains("Films 2.xcdatamodel/contents, line"), message)
        XCTAssertTrue(message.contains("No class was found for"), message)
    }

    func testMultipleEntitiesClaimingOneSubclassAreReported() throws {
        let error = assertPersistenceError(.coreData) {
            _ = try ManagedObjectModel(contentsOf: ModelFixtures.url("Invalid/DuplicateClass.xml"), managedObjectClasses: [])
        }
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("Multiple entity descriptions claim the subclass Director"), message)
        XCTAssertTrue(message.contains("'Director' and 'Filmmaker'"), message)
        XCTAssertTrue(message.contains("DuplicateClass.xml, line 8"), message)
        XCTAssertEqual(error?.entityName, "Filmmaker")
    }

    // MARK: - Every construct

    func testEveryAttributeTypeAndDefaultValueIsRead() throws {
        let book = try XCTUnwrap(try catalog().entitiesByName["Book"])
        let expected: [String: (AttributeType, Bool, PersistentValue)] = [
            "cover": (.binaryData, true, .null),
            "inPrint": (.boolean, false, .bool(true)),
            "isbn": (.string, false, .null),
            "pages": (.integer32, false, .integer(0)),
            "price": (.decimal, true, .decimal(Decimal(string: "9.99")!)),
            "published": (.date, true, .date(Date(timeIntervalSinceReferenceDate: 86400))),
            "rating": (.double, true, .double(4.25)),
            "sold": (.integer64, true, .integer(1_000_000_000_000)),
            "title": (.string, true, .null),
            "uuid": (.uuid, true, .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
            "website": (.uri, true, .uri(URL(string: "https://example.com/books")!)),
            "weight": (.float, true, .double(0.5)),
        ]
        XCTAssertEqual(Set(book.attributesByName.keys), Set(expected.keys))
        for (name, (type, optional, defaultValue)) in expected {
            let attribute = try XCTUnwrap(book.attributesByName[name])
            XCTAssertEqual(attribute.attributeType, type, name)
            XCTAssertEqual(attribute.isOptional, optional, name)
            XCTAssertEqual(attribute.persistentDefaultValue, defaultValue, name)
        }
        let shelf = try XCTUnwrap(try catalog().entitiesByName["Shelf"])
        XCTAssertEqual(shelf.attributesByName["capacity"]?.attributeType, .integer16)
        XCTAssertEqual(shelf.attributesByName["capacity"]?.persistentDefaultValue, .integer(12))
        XCTAssertEqual(shelf.attributesByName["label"]?.persistentDefaultValue, .string("Unsorted"))
    }

    func testEveryKindOfRelationshipIsRead() throws {
        let model = try catalog()
        let books = try XCTUnwrap(model.entitiesByName["Shelf"]?.relationshipsByName["books"])
        XCTAssertTrue(books.isToMany && books.isOrdered)
        XCTAssertEqual(books.deleteRule, .cascade)
        XCTAssertEqual(books.maxCount, 3)
        XCTAssertTrue(books.inverseRelationship === model.entitiesByName["Book"]?.relationshipsByName["shelf"])
        let shelf = try XCTUnwrap(model.entitiesByName["Book"]?.relationshipsByName["shelf"])
        XCTAssertFalse(shelf.isToMany)
        XCTAssertEqual(shelf.deleteRule, .nullify)
        XCTAssertEqual([shelf.minCount, shelf.maxCount], [0, 1], "an optional to-one reads as Core Data keeps it: at most 1, no minimum")
        let owner = try XCTUnwrap(model.entitiesByName["Shelf"]?.relationshipsByName["owner"])
        XCTAssertEqual(owner.deleteRule, .noAction)
        let shelves = try XCTUnwrap(model.entitiesByName["Reader"]?.relationshipsByName["shelves"])
        XCTAssertEqual(shelves.deleteRule, .deny)
        XCTAssertFalse(shelves.isOptional)
        XCTAssertEqual(shelves.minCount, 1)
        let tags = try XCTUnwrap(model.entitiesByName["Book"]?.relationshipsByName["tags"])
        XCTAssertTrue(tags.isToMany && !tags.isOrdered)
        XCTAssertEqual(tags.inverseRelationship?.name, "books")
        XCTAssertTrue(tags.inverseRelationship?.isToMany == true, "many-to-many")
    }

    func testConstraintsIndexesAndConfigurationsAreRead() throws {
        let model = try catalog()
        let book = try XCTUnwrap(model.entitiesByName["Book"])
        XCTAssertEqual(book.uniquenessConstraintKeys, [["isbn"], ["title", "pages"]])
        XCTAssertEqual(book.indexes, [
            FetchIndexDescription(name: "titleIndex", properties: ["title"]),
            FetchIndexDescription(name: "byTitleAndPages", elements: [.init(property: "title"), .init(property: "pages", ascending: false)]),
            FetchIndexDescription(name: "byShelf", properties: ["shelf"]),
            FetchIndexDescription(name: "compoundRatingWeight", properties: ["rating", "weight"]),
        ])
        XCTAssertEqual(model.configurations, ["Cloud", "Local"])
        XCTAssertEqual(model.entities(forConfigurationName: "Cloud")?.map(\.name), ["Book", "Tag"])
        XCTAssertEqual(model.entities(forConfigurationName: "Local")?.map(\.name), ["Reader", "Shelf"])
        XCTAssertNil(model.entities(forConfigurationName: "Default"))
        XCTAssertTrue(model.warnings.contains { $0.contains("fetch request template 'LongBooks' was skipped") }, "\(model.warnings)")
    }

    func testIndexesAndConfigurationsInCodeHashAsInTheFile() throws {
        func catalogInCode(indexes: Bool) throws -> ManagedObjectModel {
            let bookIndexes = [
                FetchIndexDescription(name: "titleIndex", properties: ["title"]),
                FetchIndexDescription(name: "byTitleAndPages", elements: [.init(property: "title"), .init(property: "pages", ascending: false)]),
                FetchIndexDescription(name: "byShelf", properties: ["shelf"]),
                FetchIndexDescription(name: "compoundRatingWeight", properties: ["rating", "weight"]),
            ]
            return try ManagedObjectModel(entities: [
                EntityDescription(name: "Book", properties: [
                    .attribute("cover", .binaryData), .attribute("inPrint", .boolean, optional: false, defaultValue: true),
                    .attribute("isbn", .string, optional: false), .attribute("pages", .integer32, optional: false, defaultValue: 0),
                    .attribute("price", .decimal, defaultValue: .decimal(Decimal(string: "9.99")!)),
                    .attribute("published", .date, defaultValue: .date(Date(timeIntervalSinceReferenceDate: 86400))),
                    .attribute("rating", .double, defaultValue: 4.25), .attribute("sold", .integer64, defaultValue: 1_000_000_000_000),
                    .attribute("title", .string),
                    .attribute("uuid", .uuid, defaultValue: .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
                    .attribute("website", .uri, defaultValue: .uri(URL(string: "https://example.com/books")!)),
                    .attribute("weight", .float, defaultValue: 0.5),
                    .toOne("shelf", "Shelf", inverse: "books"), .toMany("tags", "Tag", inverse: "books"),
                ], uniquenessConstraints: [["isbn"], ["title", "pages"]], indexes: indexes ? bookIndexes : []),
                EntityDescription(name: "Reader", properties: [
                    .attribute("name", .string, optional: false),
                    .toMany("shelves", "Shelf", inverse: "owner", deleteRule: .deny, optional: false, minCount: 1),
                ]),
                EntityDescription(name: "Shelf", properties: [
                    .attribute("capacity", .integer16, defaultValue: 12), .attribute("label", .string, optional: false, defaultValue: "Unsorted"),
                    .toMany("books", "Book", inverse: "shelf", ordered: true, deleteRule: .cascade, maxCount: 3),
                    .toOne("owner", "Reader", inverse: "shelves", deleteRule: .noAction),
                ]),
                EntityDescription(name: "Tag", properties: [
                    .attribute("name", .string, optional: false), .toMany("books", "Book", inverse: "tags"),
                ]),
            ], configurations: ["Cloud": ["Book", "Tag"], "Local": ["Reader", "Shelf"]])
        }
        let file = try catalog()
        let code = try catalogInCode(indexes: true)
        XCTAssertEqual(file.versionHash, code.versionHash)
        XCTAssertEqual(code.configurations, file.configurations)
        XCTAssertNotEqual(try catalogInCode(indexes: false).versionHash, file.versionHash, "indexes are part of the store's shape")
        for entity in code.entities {
            let read = try XCTUnwrap(file.entitiesByName[entity.entityName])
            XCTAssertEqual(read.description.split(separator: "\n").sorted(), entity.description.split(separator: "\n").sorted())
        }
    }

    func testTheStoreHasTheModelsIndexes() throws {
        let container = try makeContainer(model: try catalog())
        let rows = try storeRows("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZBOOK' AND name LIKE '%FETCH%' ORDER BY name", in: container)
        let indexes = rows.compactMap { row -> String? in
            guard case .text(let sql)? = row.last else { return nil }
            return sql
        }
        XCTAssertEqual(indexes, [
            "CREATE INDEX ZBOOK_FETCH_BYSHELF ON ZBOOK (ZSHELF)",
            "CREATE INDEX ZBOOK_FETCH_BYTITLEANDPAGES ON ZBOOK (ZTITLE, ZPAGES DESC)",
            "CREATE INDEX ZBOOK_FETCH_COMPOUNDRATINGWEIGHT ON ZBOOK (ZRATING, ZWEIGHT)",
            "CREATE INDEX ZBOOK_FETCH_TITLEINDEX ON ZBOOK (ZTITLE)",
        ])
    }

    func testObjectsOfAFileModelBehaveAsTheModelSays() throws {
        let model = try catalog()
        let container = try makeContainer(model: model)
        let context = container.viewContext
        let book = ManagedObject(entity: try XCTUnwrap(model.entitiesByName["Book"]), insertInto: context)
        XCTAssertEqual(book.value(forKey: "inPrint") as? Bool, true, "default from defaultValueString=\"YES\"")
        XCTAssertEqual(book.value(forKey: "price") as? Decimal, Decimal(string: "9.99"))
        XCTAssertEqual(book.value(forKey: "published") as? Date, Date(timeIntervalSinceReferenceDate: 86400))
        // isbn is not optional.
        let missing = assertPersistenceError(.validationMissingMandatoryProperty) { try context.save() }
        XCTAssertEqual(missing?.key, "isbn")
        book.setValue("978-0", forKey: "isbn")
        try context.save()

        let twin = ManagedObject(entity: try XCTUnwrap(model.entitiesByName["Book"]), insertInto: context)
        twin.setValue("978-0", forKey: "isbn")
        let clash = assertPersistenceError(.managedObjectConstraintMerge) { try context.save() }
        XCTAssertEqual(clash?.conflicts.first?.constraint, ["isbn"])
    }

    func testCountLimitsAndDeleteRulesFromTheFileAreEnforced() throws {
        let model = try catalog()
        let container = try makeContainer(model: model)
        let context = container.viewContext
        func make(_ entity: String, _ values: [String: Any]) throws -> ManagedObject {
            let object = ManagedObject(entity: try XCTUnwrap(model.entitiesByName[entity]), insertInto: context)
            for (key, value) in values { object.setValue(value, forKey: key) }
            return object
        }
        let shelf = try make("Shelf", [:])
        let books = try (1...4).map { try make("Book", ["isbn": "isbn-\($0)", "title": "Book \($0)"]) }
        shelf.setValue(books, forKey: "books")
        assertPersistenceError(.validationRelationshipExceedsMaximumCount) { try context.save() }
        shelf.setValue(Array(books.prefix(3)), forKey: "books")
        let reader = try make("Reader", ["name": "Ada", "shelves": Set([shelf])])
        try context.save()

        context.delete(reader)
        assertPersistenceError(.validationRelationshipDeniedDelete) { try context.save() }
        context.rollback()
        context.delete(shelf)
        try context.save()
        XCTAssertEqual(try context.count(for: FetchRequest<ManagedObject>(entityName: "Book")), 1,
                       "deleting the shelf cascades to its three books")
    }
}

/// Classes the runtime cannot find by name (they are nested), so a model file's reader must be given them.
enum CatalogClasses {
    final class Reader: ManagedObject {
        @Managed var name: String
    }
}
