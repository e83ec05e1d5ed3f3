import Foundation
@_spi(ModelBuilding) import Persistence

final class Deck: ManagedObject {
    @Managed var name: String
    @Managed var cards: Set<DeckCard>

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Deck> {
        FetchRequest<Deck>(entityName: "Deck")
    }
}

final class DeckCard: ManagedObject {
    @Managed var front: String
    @Managed var deck: Deck?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<DeckCard> {
        FetchRequest<DeckCard>(entityName: "DeckCard")
    }
}

/// Document 004's delete: 10,000 decks of 10 cards each, deleted three ways; each way on a store filled afresh.
enum DeleteLab {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Deck", managedObjectClass: Deck.self, properties: [
                .attribute("name", .string, optional: false),
                .toMany("cards", "Card", inverse: "deck", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Card", managedObjectClass: DeckCard.self, properties: [
                .attribute("front", .string, optional: false),
                .toOne("deck", "Deck", inverse: "cards", deleteRule: .nullify),
            ]),
        ])
    }

    static func run(decks: Int, reporter: LabReporter) throws {
        let model = try model()
        try deleteWith("child context", decks: decks, model: model, reporter: reporter) { store in
            // The document's set-up: a private-queue child of the view context. Its save goes into the view
            // context, on the main queue, whose own save then writes to the store.
            let view = store.container.viewContext
            let child = ManagedObjectContext(.privateQueue)
            child.parent = view
            try child.performAndWait {
                for deck in try child.fetch(FetchRequest<Deck>(entityName: "Deck")) { child.delete(deck) }
                try child.save()
            }
            try view.performAndWait { try view.save() }
        }
        try deleteWith("context saving to the store", decks: decks, model: model, reporter: reporter) { store in
            let context = store.container.newBackgroundContext()
            try context.performAndWait {
                for deck in try context.fetch(FetchRequest<Deck>(entityName: "Deck")) { context.delete(deck) }
                try context.save()
            }
        }
        try deleteWith("batch delete", decks: decks, model: model, reporter: reporter) { store in
            let context = store.container.newBackgroundContext()
            try context.performAndWait {
                let decks = FetchRequest<FetchRequestResult>(entityName: "Deck")
                _ = try context.execute(BatchDeleteRequest(fetchRequest: decks))
            }
        }
    }

    private static func deleteWith(_ name: String, decks: Int, model: ManagedObjectModel, reporter: LabReporter,
                                   _ delete: (LabStore) throws -> Void) throws {
        let store = try LabStore(model: model)
        try fill(store, decks: decks, reporter: reporter, label: "filling \(decks) decks for: \(name)")
        try reporter.measure(name, note: { $0 }) { () throws -> String in
            try delete(store)
            let reader = store.container.newBackgroundContext()
            let left = try reader.performAndWait {
                (try reader.count(for: FetchRequest<Deck>(entityName: "Deck")),
                 try reader.count(for: FetchRequest<DeckCard>(entityName: "Card")))
            }
            return "\(left.0) decks and \(left.1) cards left"
        }
    }

    private static func fill(_ store: LabStore, decks: Int, reporter: LabReporter, label: String) throws {
        let context = store.container.newBackgroundContext()
        let page = 1_000
        try context.performAndWait {
            var made = 0
            while made < decks {
                for number in made..<min(decks, made + page) {
                    let deck = Deck(context: context)
                    deck.name = "Deck \(number)"
                    for side in 0..<10 {
                        let card = DeckCard(context: context)
                        card.front = "Card \(side) of deck \(number)"
                        card.deck = deck
                    }
                }
                try context.save()
                context.reset()
                made = min(decks, made + page)
                reporter.progress(label, done: made, total: decks)
            }
        }
    }
}
