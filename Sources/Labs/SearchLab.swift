import Foundation
@_spi(ModelBuilding) import Persistence

final class SearchCard: ManagedObject {
    @Managed var text: String

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<SearchCard> {
        FetchRequest<SearchCard>(entityName: "SearchCard")
    }
}

/// Document 004's search: cards whose text is a random permutation of "LaSErBeAmZ", three `contains[cd]` terms.
enum SearchLab {
    static let letters = Array("LaSErBeAmZ")
    /// Every tenth card has accents, so diacritic folding has something to do.
    static let accented: [Character: Character] = ["a": "á", "E": "É", "e": "è"]
    static let terms = ["la", "se", "am"]

    static func run(rows: Int, reporter: LabReporter) throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Card", managedObjectClass: SearchCard.self,
                              properties: [.attribute("text", .string, optional: false)]),
        ])
        let store = try LabStore(model: model)
        var random = SeededGenerator(seed: 2017)
        var made = 0
        let fill = BatchInsertRequest(entityName: "Card") { row in
            guard made < rows else { return true }
            var text = letters.shuffled(using: &random)
            if made % 10 == 0 { text = text.map { accented[$0] ?? $0 } }
            row["text"] = String(text)
            made += 1
            reporter.progress("filling \(rows) cards", done: made, total: rows)
            return false
        }
        let filler = store.container.newBackgroundContext()
        try filler.performAndWait { _ = try filler.execute(fill) }

        let predicate = FetchPredicate(format: terms.map { _ in "text CONTAINS[cd] %@" }.joined(separator: " AND "),
                                           argumentArray: terms)
        func found(_ count: Int) -> String { "\(count) cards match" }
        try measure(reporter, "count", store) { context in
            let request = FetchRequest<SearchCard>(entityName: "Card")
            request.predicate = predicate
            return found(try context.count(for: request))
        }
        try measure(reporter, "fetch", store) { context in
            let request = FetchRequest<SearchCard>(entityName: "Card")
            request.predicate = predicate
            return found(try context.fetch(request).count)
        }
        try measure(reporter, "fetch and read, as faults", store) { context in
            let request = FetchRequest<SearchCard>(entityName: "Card")
            request.predicate = predicate
            let cards = try context.fetch(request)
            return found(cards.reduce(0) { $0 + ($1.text.isEmpty ? 0 : 1) })
        }
        try measure(reporter, "fetch and read, not as faults", store) { context in
            let request = FetchRequest<SearchCard>(entityName: "Card")
            request.predicate = predicate
            request.returnsObjectsAsFaults = false
            let cards = try context.fetch(request)
            return found(cards.reduce(0) { $0 + ($1.text.isEmpty ? 0 : 1) })
        }
    }

    /// Times `body` in a new context of its own, so no measurement profits from an earlier one's objects.
    private static func measure(_ reporter: LabReporter, _ name: String, _ store: LabStore,
                                _ body: (ManagedObjectContext) throws -> String) throws {
        let context = store.container.newBackgroundContext()
        _ = try context.performAndWait {
            try reporter.measure(name, note: { $0 }) { try body(context) }
        }
    }
}
