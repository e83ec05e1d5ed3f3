import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) import Persistence

/// A model for batch requests: every delete rule on every kind of relationship (to-one keys, ordered children,
/// join tables, a self-reference), cascades two levels deep, and an entity with two uniqueness constraints.
///
/// Folder ─cascade→ Deck ─cascade, ordered→ Card ─cascade→ Note
///                  Deck ─deny→ Review          Card ─no action→ Bookmark
///                  Deck ←cascade─ Review (to-one)
///                                              Card ⇄ Tag (many-to-many; Tag's side cascades)
/// Node ─deny→ Node (children), Node.parent nullify
enum BatchModel {
    final class Folder: ManagedObject {
        @Managed var name: String
        @Managed var decks: Set<Deck>

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Folder> {
            FetchRequest<Folder>(entityName: "Folder")
        }
    }

    final class Deck: ManagedObject {
        @Managed var name: String
        @Managed var folder: Folder?
        @Managed var cards: NSOrderedSet
        /// The cards as an array, the way an app wraps an ordered relationship's `NSOrderedSet`.
        var cardList: [Card] {
            get { cards.array as! [Card] }
            set { cards = NSOrderedSet(array: newValue) }
        }
        @Managed var reviews: Set<Review>

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Deck> {
            FetchRequest<Deck>(entityName: "Deck")
        }
    }

    final class Card: ManagedObject {
        @Managed var front: String
        @Managed var deck: Deck?
        @Managed var notes: Set<Note>
        @Managed var tags: Set<Tag>
        @Managed var bookmarks: Set<Bookmark>

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Card> {
            FetchRequest<Card>(entityName: "Card")
        }
    }

    final class Note: ManagedObject {
        @Managed var text: String?
        @Managed var card: Card?

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Note> {
            FetchRequest<Note>(entityName: "Note")
        }
    }

    final class Tag: ManagedObject {
        @Managed var name: String
        @Managed var cards: Set<Card>

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Tag> {
            FetchRequest<Tag>(entityName: "Tag")
        }
    }

    final class Bookmark: ManagedObject {
        @Managed var label: String?
        @Managed var card: Card?

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Bookmark> {
            FetchRequest<Bookmark>(entityName: "Bookmark")
        }
    }

    final class Review: ManagedObject {
        @Managed var score: Int
        @Managed var deck: Deck?

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Review> {
            FetchRequest<Review>(entityName: "Review")
        }
    }

    final class Node: ManagedObject {
        @Managed var name: String
        @Managed var parent: Node?
        @Managed var children: Set<Node>

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Node> {
            FetchRequest<Node>(entityName: "Node")
        }
    }

    final class Keyed: ManagedObject {
        @Managed var code: String
        @Managed var slot: NSNumber?
        @Managed var label: String?

        /// A request for this entity, typed: the class method Xcode's code generation writes.
        class func fetchRequest() -> FetchRequest<Keyed> {
            FetchRequest<Keyed>(entityName: "Keyed")
        }
    }

    static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Folder", managedObjectClass: Folder.self, properties: [
                .attribute("name", .string, optional: false),
                .toMany("decks", "Deck", inverse: "folder", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Deck", managedObjectClass: Deck.self, properties: [
                .attribute("name", .string, optional: false),
                .toOne("folder", "Folder", inverse: "decks"),
                .toMany("cards", "Card", inverse: "deck", ordered: true, deleteRule: .cascade),
                .toMany("reviews", "Review", inverse: "deck", deleteRule: .deny),
            ]),
            EntityDescription(name: "Card", managedObjectClass: Card.self, properties: [
                .attribute("front", .string, optional: false),
                .toOne("deck", "Deck", inverse: "cards"),
                .toMany("notes", "Note", inverse: "card", deleteRule: .cascade),
                .toMany("tags", "Tag", inverse: "cards"),
                .toMany("bookmarks", "Bookmark", inverse: "card", deleteRule: .noAction),
            ]),
            EntityDescription(name: "Note", managedObjectClass: Note.self, properties: [
                .attribute("text", .string),
                .toOne("card", "Card", inverse: "notes"),
            ]),
            EntityDescription(name: "Tag", managedObjectClass: Tag.self, properties: [
                .attribute("name", .string, optional: false),
                .toMany("cards", "Card", inverse: "tags", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Bookmark", managedObjectClass: Bookmark.self, properties: [
                .attribute("label", .string),
                .toOne("card", "Card", inverse: "bookmarks"),
            ]),
            EntityDescription(name: "Review", managedObjectClass: Review.self, properties: [
                .attribute("score", .integer64, optional: false),
                .toOne("deck", "Deck", inverse: "reviews", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Node", managedObjectClass: Node.self, properties: [
                .attribute("name", .string, optional: false),
                .toOne("parent", "Node", inverse: "children"),
                .toMany("children", "Node", inverse: "parent", deleteRule: .deny),
            ]),
            EntityDescription(name: "Keyed", managedObjectClass: Keyed.self, properties: [
                .attribute("code", .string, optional: false),
                .attribute("slot", .integer32),
                .attribute("label", .string),
            ], uniquenessConstraints: [["code"], ["slot"]]),
        ])
    }
}
