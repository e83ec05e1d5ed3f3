import Foundation
@_spi(ModelBuilding) @_spi(ModelLoading) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Entity inheritance: subentities inherit their parent's properties, share its table, and come back from fetches of
/// the parent as objects of their own entity and class.
final class InheritanceTests: PersistenceTestCase {
    override func makeModel() throws -> ManagedObjectModel { try LibraryModel.make() }

    private var viewContext: ManagedObjectContext { context }

    /// A shelf with a book, an audiobook and an album, saved; the context is then reset so everything is read anew.
    @discardableResult
    private func fillShelf() throws -> ManagedObjectID {
        let shelf = Shelf(context: viewContext)
        shelf.name = "Living room"
        let book = Book(context: viewContext)
        book.title = "Dune"
        book.pages = 412
        book.length = 180_000
        let audiobook = Audiobook(context: viewContext)
        audiobook.title = "Dune, read aloud"
        audiobook.narrator = "Scott Brick"
        audiobook.length = 21
        let album = Album(context: viewContext)
        album.title = "Blue"
        album.tracks = 10
        album.length = 36.5
        for item in [book, audiobook, album] as [Media] { item.shelf = shelf }
        shelf.favourite = audiobook
        try viewContext.save()
        let id = shelf.objectID
        viewContext.reset()
        return id
    }

    private func titles(_ objects: [Media]) -> [String] { objects.map(\.title).sorted() }

    // MARK: - The model

    func testASubentityHasItsParentsPropertiesFirstAndItsOwnAfter() throws {
        let model = try LibraryModel.make()
        let media = try XCTUnwrap(model.entitiesByName["Media"])
        let book = try XCTUnwrap(model.entitiesByName["Book"])
        let audiobook = try XCTUnwrap(model.entitiesByName["Audiobook"])
        XCTAssertEqual(audiobook.properties.map(\.name), ["title", "shelf", "tags", "length", "pages", "narrator"])
        XCTAssertTrue(audiobook.superentity === book)
        XCTAssertEqual(media.subentities.map(\.name), ["Book", "Album"])
        XCTAssertEqual(Set(media.subentitiesByName.keys), ["Book", "Album"])
        XCTAssertTrue(audiobook.isKindOf(entity: media))
        XCTAssertFalse(media.isKindOf(entity: book))
        XCTAssertTrue(audiobook.rootEntity === media)
        XCTAssertTrue(media.isAbstract)
        XCTAssertEqual(audiobook.uniquenessConstraintKeys, [["title"]], "constraints are inherited")
        XCTAssertTrue(model.entity(for: Book.self) === book)
        XCTAssertTrue(model.description.contains("abstract entity Media (Media)"))
        XCTAssertTrue(model.description.contains("entity Audiobook: Book (Audiobook)"))
    }

    func testASubentityCannotRedeclareAnInheritedProperty() throws {
        let media = EntityDescription(name: "Media", properties: [.attribute("title", .string)])
        let error = assertPersistenceError(.coreData) {
            _ = try ManagedObjectModel(entities: [
                media, EntityDescription(name: "Book", parent: media, properties: [.attribute("Title", .string)]),
            ])
        }
        XCTAssertEqual(error?.message, "Invalid model: Entity 'Book' declares 'Title', which it already inherits from 'Media'; a subentity cannot redeclare an inherited property.")
    }

    func testTheParentMustBeInTheSameModel() throws {
        let media = EntityDescription(name: "Media", properties: [.attribute("title", .string)])
        let error = assertPersistenceError(.coreData) {
            _ = try ManagedObjectModel(entities: [EntityDescription(name: "Book", parent: media, properties: [])])
        }
        XCTAssertTrue(error?.message.contains("Entity 'Book' inherits from 'Media', which is not one of the model's entities") == true, error?.message ?? "")
    }

    func testASubentityWithoutAClassOfItsOwnUsesItsParentsClass() throws {
        let media = EntityDescription(name: "Media", managedObjectClass: Media.self, properties: [
            .attribute("title", .string, optional: false),
            .toOne("shelf", "Shelf", inverse: nil), .toMany("tags", "Tag", inverse: nil),
        ])
        let podcast = EntityDescription(name: "Podcast", parent: media, properties: [.attribute("host", .string)])
        let model = try ManagedObjectModel(entities: [
            media, podcast,
            EntityDescription(name: "Shelf", managedObjectClass: Shelf.self, properties: [
                .attribute("name", .string), .toOne("favourite", "Media", inverse: nil), .toMany("items", "Media", inverse: nil),
            ]),
            EntityDescription(name: "Tag", managedObjectClass: ShelfTag.self, properties: [
                .attribute("name", .string), .toMany("items", "Media", inverse: nil),
            ]),
        ])
        XCTAssertTrue(podcast.managedObjectClass == Media.self)
        XCTAssertTrue(model.entity(for: Media.self) === media, "the shared class stands for the parent")
    }

    func testModelsWithoutInheritanceKeepTheirVersionHash() throws {
        // Pinned: if the film model's hash changed, every store made with it before would no longer open.
        XCTAssertEqual(try TestModel.make().versionHash, "1AA44CE8493D5693")
        let plain = try ManagedObjectModel(entities: [EntityDescription(name: "Media", properties: [.attribute("title", .string)])])
        let abstract = try ManagedObjectModel(entities: [EntityDescription(name: "Media", isAbstract: true, properties: [.attribute("title", .string)])])
        XCTAssertNotEqual(plain.versionHash, abstract.versionHash, "making an entity abstract changes the model")
    }

    // MARK: - One table per hierarchy

    func testTheHierarchySharesOneTableWithAnEntityColumn() throws {
        try fillShelf()
        let tables = try storeRows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' ORDER BY name")
            .compactMap { if case .text(let name)? = $0.first { name } else { nil } }
        XCTAssertEqual(tables, ["ZMEDIA", "ZSHELF", "ZTAG", "Z_MEDIA_TAGS", "Z_METADATA", "Z_PRIMARYKEY"])
        let columns = try storeRows("SELECT name FROM pragma_table_info('ZMEDIA') ORDER BY cid")
            .compactMap { if case .text(let name)? = $0.first { name } else { nil } }
        // Album.length is a Double and Book.length an integer: two columns. Names are given in the order of the
        // entities' names, so Album's is ZLENGTH and Book's is numbered.
        XCTAssertEqual(columns, ["Z_PK", "Z_OPT", "Z_ENT", "ZTITLE", "ZSHELF", "ZLENGTH1", "ZPAGES", "ZNARRATOR", "ZLENGTH", "ZTRACKS"])
        let rows = try storeRows("SELECT e.Z_NAME, m.ZTITLE, m.ZLENGTH1, m.ZLENGTH FROM ZMEDIA m JOIN Z_PRIMARYKEY e ON e.Z_ENT = m.Z_ENT ORDER BY m.Z_PK")
        XCTAssertEqual(rows, [
            [.text("Book"), .text("Dune"), .integer(180_000), .null],
            [.text("Audiobook"), .text("Dune, read aloud"), .integer(21), .null],
            [.text("Album"), .text("Blue"), .null, .real(36.5)],
        ])
    }

    func testKeysAreCountedPerHierarchy() throws {
        try fillShelf()
        let keys = try storeRows("SELECT Z_PK FROM ZMEDIA ORDER BY Z_PK").map(\.first)
        XCTAssertEqual(keys, [.integer(1), .integer(2), .integer(3)], "a book, an audiobook and an album never share a key")
        XCTAssertEqual(try storeInteger("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Media'"), 3)
    }

    // MARK: - Fetching

    func testAFetchOfTheParentReturnsEveryKindWithItsOwnClass() throws {
        try fillShelf()
        let items = try viewContext.fetch(Media.fetchRequest())
        XCTAssertEqual(titles(items), ["Blue", "Dune", "Dune, read aloud"])
        let byTitle = Dictionary(uniqueKeysWithValues: items.map { ($0.title, $0) })
        XCTAssertTrue(byTitle["Dune"] is Book && !(byTitle["Dune"] is Audiobook))
        XCTAssertEqual((byTitle["Dune, read aloud"] as? Audiobook)?.narrator, "Scott Brick")
        XCTAssertEqual((byTitle["Dune, read aloud"] as? Audiobook)?.length, 21)
        XCTAssertEqual((byTitle["Blue"] as? Album)?.length, 36.5)
        XCTAssertEqual(byTitle["Blue"]?.entity.name, "Album")
        XCTAssertEqual(byTitle["Blue"]?.objectID.entityName, "Album")
        XCTAssertEqual(try viewContext.count(for: Media.fetchRequest()), 3)
    }

    func testAFetchOfAMiddleEntityIncludesItsSubentitiesUnlessToldNot() throws {
        try fillShelf()
        let books: FetchRequest<Book> = Book.fetchRequest()
        XCTAssertEqual(titles(try viewContext.fetch(books)), ["Dune", "Dune, read aloud"])
        books.includesSubentities = false
        XCTAssertEqual(titles(try viewContext.fetch(books)), ["Dune"])
        XCTAssertEqual(try viewContext.count(for: books), 1)
        XCTAssertEqual(try viewContext.fetch(Audiobook.fetchRequest()).map(\.title), ["Dune, read aloud"])
    }

    func testPredicatesAndSortsOnInheritedAttributesSpanTheFamily() throws {
        try fillShelf()
        let request: FetchRequest<Media> = Media.fetchRequest()
        request.predicate = FetchPredicate(format: "title BEGINSWITH %@", "Dune")
        request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: false)]
        XCTAssertEqual(try viewContext.fetch(request).map(\.title), ["Dune, read aloud", "Dune"])
        let longBooks: FetchRequest<Book> = Book.fetchRequest()
        longBooks.predicate = FetchPredicate(format: "length > 100 AND shelf.name == %@", "Living room")
        XCTAssertEqual(try viewContext.fetch(longBooks).map(\.title), ["Dune"])
        let shelves: FetchRequest<Shelf> = Shelf.fetchRequest()
        shelves.predicate = FetchPredicate(format: "ANY items.title == %@", "Blue")
        XCTAssertEqual(try viewContext.fetch(shelves).map(\.name), ["Living room"])
    }

    func testUnsavedObjectsOfASubentityAppearInAFetchOfTheParent() throws {
        try fillShelf()
        let album = Album(context: viewContext)
        album.title = "Kind of Blue"
        let request: FetchRequest<Media> = Media.fetchRequest()
        request.predicate = FetchPredicate(format: "title CONTAINS %@", "Blue")
        XCTAssertEqual(titles(try viewContext.fetch(request)), ["Blue", "Kind of Blue"])
        let books: FetchRequest<Book> = Book.fetchRequest()
        books.predicate = FetchPredicate(format: "title CONTAINS %@", "Blue")
        XCTAssertEqual(try viewContext.fetch(books), [], "an album is not a book")

        let child = ManagedObjectContext(.mainQueue)
        child.parent = viewContext
        let audiobook = Audiobook(context: child)
        audiobook.title = "Blue, read aloud"
        XCTAssertEqual(titles(try child.fetch(request)), ["Blue", "Blue, read aloud", "Kind of Blue"])
        XCTAssertEqual(try child.count(for: request), 3)
    }

    func testBatchedFaultsOfSeveralEntitiesFireWithTheirOwnValues() throws {
        try fillShelf()
        let request: FetchRequest<Media> = Media.fetchRequest()
        request.fetchBatchSize = 2
        request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
        let items = try viewContext.fetch(request)
        XCTAssertEqual(items.map(\.title), ["Blue", "Dune", "Dune, read aloud"])
        XCTAssertEqual((items[0] as? Album)?.tracks, 10)
        XCTAssertEqual((items[2] as? Audiobook)?.narrator, "Scott Brick")
        let idRequest = FetchRequest<ManagedObjectID>(entityName: "Media")
        idRequest.resultType = .managedObjectIDResultType
        let ids = try viewContext.fetch(idRequest)
        XCTAssertEqual(Set(ids.map(\.entityName)), ["Book", "Audiobook", "Album"])
    }

    func testDictionaryResultsReadTheFamilyAndNameTheRightEntity() throws {
        try fillShelf()
        let request = FetchRequest<NSDictionary>(entityName: "Shelf")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "favourite"]
        let row = try XCTUnwrap(try viewContext.fetch(request).first)
        XCTAssertEqual((row["favourite"] as? ManagedObjectID)?.entityName, "Audiobook")
        let titles = FetchRequest<NSDictionary>(entityName: "Book")
        titles.resultType = .dictionaryResultType
        titles.propertiesToFetch = ["title", "pages"]
        titles.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
        XCTAssertEqual(try viewContext.fetch(titles).map { $0["title"] as? String }, ["Dune", "Dune, read aloud"])
    }

    // MARK: - Relationships into a hierarchy

    func testToManyAndToOneRelationshipsFindObjectsOfEachSubentity() throws {
        let shelfID = try fillShelf()
        let shelf = try XCTUnwrap(viewContext.object(with: shelfID) as? Shelf)
        XCTAssertEqual(Set(shelf.items.map { $0.entity.name }), ["Book", "Audiobook", "Album"])
        XCTAssertTrue(shelf.favourite is Audiobook, "a to-one to the abstract parent finds the audiobook")
        XCTAssertEqual((shelf.favourite as? Audiobook)?.narrator, "Scott Brick")
        let album = try XCTUnwrap(shelf.items.first { $0 is Album })
        XCTAssertTrue(album.shelf === shelf)
    }

    func testManyToManyRelationshipsThroughTheParent() throws {
        try fillShelf()
        let tag = ShelfTag(context: viewContext)
        tag.name = "favourites"
        let items = try viewContext.fetch(Media.fetchRequest())
        for item in items where item.title != "Dune" { item.tags.insert(tag) }
        try viewContext.save()
        viewContext.reset()
        let read = try XCTUnwrap(try viewContext.fetch(ShelfTag.fetchRequest()).first)
        XCTAssertEqual(Set(read.items.map { $0.entity.name }), ["Audiobook", "Album"])
        let tagged: FetchRequest<Media> = Media.fetchRequest()
        tagged.predicate = FetchPredicate(format: "ANY tags.name == %@", "favourites")
        XCTAssertEqual(titles(try viewContext.fetch(tagged)), ["Blue", "Dune, read aloud"])
    }

    func testAnObjectOfAnotherBranchCannotBeSetWhereASubentityIsExpected() throws {
        let shelf = Shelf(context: viewContext)
        shelf.name = "Hall"
        let album = Album(context: viewContext)
        album.title = "Blue"
        shelf.setValue(album, forKey: "favourite")
        XCTAssertTrue(shelf.favourite === album, "an album is a media")
        album.setValue(Set([shelf]) as Set<ManagedObject>, forKey: "tags")
        let error = assertPersistenceError(.managedObjectValidation) { try viewContext.save() }
        XCTAssertTrue(error?.message.contains("relates to Tag objects, not Shelf") == true, error?.message ?? "")
    }

    func testDeletingTheShelfCascadesToEveryKindOfItem() throws {
        let shelfID = try fillShelf()
        viewContext.delete(viewContext.object(with: shelfID))
        try viewContext.save()
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZMEDIA"), 0)
    }

    // MARK: - Abstract entities, constraints, changes

    func testAnAbstractEntityCannotHaveObjects() throws {
        let media = EntityDescription.insertNewObject(forEntityName: "Media", into: viewContext)
        XCTAssertNil(media.managedObjectContext, "the object stays out of the context")
        let error = assertPersistenceError(.coreData) { try viewContext.save() }
        XCTAssertEqual(error?.message, "Cannot create an object of the abstract entity Media: an abstract entity has objects only through its subentities. Insert one of Book, Audiobook, Album instead.")
    }

    func testTheParentsConstraintHoldsAcrossSubentities() throws {
        try fillShelf()
        let album = Album(context: viewContext)
        album.title = "Dune"
        let stored = assertPersistenceError(.managedObjectConstraintMerge) { try viewContext.save() }
        XCTAssertEqual(stored?.conflicts.first?.conflictingObjectIDs.map(\.entityName), ["Book"])
        viewContext.rollback()

        let book = Book(context: viewContext)
        book.title = "Twice"
        let other = Audiobook(context: viewContext)
        other.title = "Twice"
        let unsaved = assertPersistenceError(.managedObjectConstraintValidation) { try viewContext.save() }
        XCTAssertTrue(unsaved?.message.contains("2 Media objects in this save share title = \"Twice\"") == true, unsaved?.message ?? "")
    }

    func testChangesToInheritedAndOwnAttributesAreSavedAndMerged() throws {
        try fillShelf()
        let reader = container.newBackgroundContext()
        let audiobook = try XCTUnwrap(try viewContext.fetch(Audiobook.fetchRequest()).first)
        let readerCopy = try reader.performAndWait { try reader.existingObject(with: audiobook.objectID) as? Audiobook }
        _ = reader.performAndWait { readerCopy?.narrator }
        audiobook.title = "Dune (unabridged)"
        audiobook.narrator = "Simon Vance"
        try viewContext.save()
        reader.performAndWait { reader.refreshAllObjects() }
        XCTAssertEqual(reader.performAndWait { readerCopy?.title }, "Dune (unabridged)")
        XCTAssertEqual(reader.performAndWait { readerCopy?.narrator }, "Simon Vance")
    }

    func testBatchRequestsReachEveryEntityOfTheHierarchy() throws {
        // More in BatchHierarchyTests.
        try fillShelf()
        let update = BatchUpdateRequest(entityName: "Book")
        update.propertiesToUpdate = ["pages": 1]
        update.resultType = .updatedObjectIDsResultType
        XCTAssertEqual(try viewContext.execute(update).objectIDs?.map(\.entityName).sorted(), ["Audiobook", "Book"])
        let delete = BatchDeleteRequest(fetchRequest: FetchRequest<FetchRequestResult>(entityName: "Shelf"))
        delete.resultType = .resultTypeCount
        XCTAssertEqual(try viewContext.execute(delete).count, 4, "the shelf, and its items by cascade")
        XCTAssertEqual(try storeInteger("SELECT COUNT(*) FROM ZMEDIA"), 0)
    }

    func testEntitiesWithoutClassesWorkThroughKeyValueCoding() throws {
        let base = EntityDescription(name: "BaseEntity", isAbstract: true, properties: [
            .attribute("identifier", .uuid, optional: false), .attribute("name", .string, optional: false),
        ])
        let derived = EntityDescription(name: "DerivedEntity", parent: base, properties: [.attribute("extra", .string)])
        let plain = try makeContainer(model: try ManagedObjectModel(entities: [base, derived]))
        let object = EntityDescription.insertNewObject(forEntityName: "DerivedEntity", into: plain.viewContext)
        let identifier = UUID()
        object.setValue(identifier, forKey: "identifier")
        object.setValue("first", forKey: "name")
        object.setValue("more", forKey: "extra")
        try plain.viewContext.save()
        plain.viewContext.reset()
        let request = FetchRequest<ManagedObject>(entityName: "BaseEntity")
        request.predicate = FetchPredicate(format: "identifier == %@", identifier)
        let found = try XCTUnwrap(try plain.viewContext.fetch(request).first)
        XCTAssertEqual(found.entity.name, "DerivedEntity")
        XCTAssertEqual(found.value(forKey: "extra") as? String, "more")
        XCTAssertEqual(found.value(forKey: "name") as? String, "first")
    }

    // MARK: - The model drawn in Xcode

    func testTheXcodeModelMatchesTheCodeModelAndOpensItsStore() throws {
        let url = try temporaryFolder().appendingPathComponent("Library.sqlite")
        let code = try makeContainer(url: url, model: try LibraryModel.make())
        let book = Book(context: code.viewContext)
        book.title = "Emma"
        try code.viewContext.save()

        let file = try ManagedObjectModel(contentsOf: ModelFixtures.url("Library.xcdatamodel"),
                                          managedObjectClasses: [Media.self, Book.self, Audiobook.self, Album.self, Shelf.self, ShelfTag.self])
        XCTAssertEqual(file.versionHash, try LibraryModel.make().versionHash)
        XCTAssertEqual(file.warnings, [])
        XCTAssertEqual(file.entitiesByName["Audiobook"]?.superentity?.name, "Book")
        XCTAssertEqual(file.entitiesByName["Media"]?.isAbstract, true)
        let reopened = try makeContainer(url: url, model: file)
        XCTAssertEqual(try reopened.viewContext.fetch(Media.fetchRequest()).map(\.title), ["Emma"])
        let album = Album(context: reopened.viewContext)
        album.title = "Blue"
        try reopened.viewContext.save()
        XCTAssertEqual(album.objectID.primaryKey, 2, "keys continue from the store's counter")
    }
}
