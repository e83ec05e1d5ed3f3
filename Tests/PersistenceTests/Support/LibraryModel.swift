import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) import Persistence

// A library shelf of media: an abstract entity with subentities, one of them with a subentity of its own.
//
//   Media (abstract: title, shelf, tags)
//   ├── Book (length: Integer 32, pages)
//   │   └── Audiobook (narrator)
//   └── Album (length: Double, tracks)

class Media: ManagedObject {
    @Managed var title: String
    @Managed var shelf: Shelf?
    @Managed var tags: Set<ShelfTag>

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Media> {
        FetchRequest<Media>(entityName: "Media")
    }
}

class Book: Media {
    @Managed var length: NSNumber?
    @Managed var pages: Int

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Book> {
        FetchRequest<Book>(entityName: "Book")
    }
}

final class Audiobook: Book {
    @Managed var narrator: String?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Audiobook> {
        FetchRequest<Audiobook>(entityName: "Audiobook")
    }
}

final class Album: Media {
    @Managed var length: NSNumber?
    @Managed var tracks: Int

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Album> {
        FetchRequest<Album>(entityName: "Album")
    }
}

final class Shelf: ManagedObject {
    @Managed var name: String
    @Managed var favourite: Media?
    @Managed var items: Set<Media>

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Shelf> {
        FetchRequest<Shelf>(entityName: "Shelf")
    }
}

final class ShelfTag: ManagedObject {
    @Managed var name: String
    @Managed var items: Set<Media>

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<ShelfTag> {
        FetchRequest<ShelfTag>(entityName: "ShelfTag")
    }
}

enum LibraryModel {
    /// The library in code: the same entities as Fixtures/Models/Library.xcdatamodel.
    static func make() throws -> ManagedObjectModel {
        let media = EntityDescription(name: "Media", managedObjectClass: Media.self, isAbstract: true, properties: [
            .attribute("title", .string, optional: false),
            .toOne("shelf", "Shelf", inverse: "items"),
            .toMany("tags", "Tag", inverse: "items"),
        ], uniquenessConstraints: [["title"]])
        let book = EntityDescription(name: "Book", managedObjectClass: Book.self, parent: media, properties: [
            .attribute("length", .integer32),
            .attribute("pages", .integer32, optional: false, defaultValue: 0),
        ])
        let audiobook = EntityDescription(name: "Audiobook", managedObjectClass: Audiobook.self, parent: book, properties: [
            .attribute("narrator", .string),
        ])
        let album = EntityDescription(name: "Album", managedObjectClass: Album.self, parent: media, properties: [
            .attribute("length", .double),
            .attribute("tracks", .integer16, optional: false, defaultValue: 0),
        ])
        return try ManagedObjectModel(entities: [
            media, book, audiobook, album,
            EntityDescription(name: "Shelf", managedObjectClass: Shelf.self, properties: [
                .attribute("name", .string, optional: false),
                .toOne("favourite", "Media", inverse: nil),
                .toMany("items", "Media", inverse: "shelf", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Tag", managedObjectClass: ShelfTag.self, properties: [
                .attribute("name", .string, optional: false),
                .toMany("items", "Media", inverse: "tags"),
            ]),
        ])
    }
}
