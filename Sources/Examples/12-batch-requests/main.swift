import Foundation
import KataSupport
// Persistence-only: BatchUpdateExpression, where Core Data takes an NSExpression.
@_spi(BatchUpdateExpression) import Persistence

// Lesson 12's runnable example: a flashcard app whose maintenance jobs are batch requests. A batch update leaves
// the view context stale until its IDs are merged; a merge policy lets an editor save over it; a batch delete's IDs
// take the deleted decks and their cards out of the view context; a batch insert with a uniqueness constraint is an
// upsert; and deleting a thousand decks three ways. `swift run lessons run 12`.

func makeContainer() throws -> PersistentContainer {
    let container = PersistentContainer(name: FlashcardsModel.name, managedObjectModel: try FlashcardsModel.make())
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
    container.loadPersistentStores { _, error in
        if let error { print("could not load the store: \(error)") }
    }
    return container
}

/// Three decks: Spanish (3 cards, in boxes 2, 3 and 4), Spanish verbs (1 card, box 5), German (archived, 2 cards).
@discardableResult
func saveDecks(in context: ManagedObjectContext) throws -> [String: FlashcardDeck] {
    var decks: [String: FlashcardDeck] = [:]
    for (code, name, archived, cards) in [("es", "Spanish", false, [("hola", 2), ("gato", 3), ("perro", 4)]),
                                          ("es-verbs", "Spanish verbs", false, [("hablar", 5)]),
                                          ("de", "German", true, [("Hund", 2), ("Katze", 1)])] {
        let deck = FlashcardDeck(context: context)
        deck.code = code
        deck.name = name
        deck.archived = archived
        for (front, box) in cards {
            let card = Flashcard(context: context)
            card.front = front
            card.box = box
            card.deck = deck
        }
        decks[code] = deck
    }
    try context.save()
    return decks
}

/// The cards of a deck as the context holds them: "front box", by front.
func boxes(_ deck: FlashcardDeck) -> String {
    deck.cards.sorted { $0.front < $1.front }.map { "\($0.front) \($0.box)" }.joined(separator: " · ")
}

/// Puts the cards of a deck back in box 1 with a batch update, and merges the IDs into the view context only.
@discardableResult
func restartDeck(named name: String, in container: PersistentContainer) throws -> [ManagedObjectID] {
    let background = container.newBackgroundContext()
    let moved = try background.performAndWait {
        let request = BatchUpdateRequest(entityName: "Flashcard")
        request.predicate = FetchPredicate(format: "deck.name == %@", name)
        request.propertiesToUpdate = ["box": 1]
        request.resultType = .updatedObjectIDsResultType
        let result = try background.execute(request) as? BatchUpdateResult
        return result?.result as? [ManagedObjectID] ?? []
    }
    ManagedObjectContext.mergeChanges(
        fromRemoteContextSave: [ManagedObjectContext.NotificationKey.updatedObjects.rawValue: moved],
        into: [container.viewContext])
    return moved
}

/// A catalog import: one batch insert of the decks' codes and names. Returns the IDs written.
func importCatalog(_ entries: [DeckEntry], into container: PersistentContainer) throws -> [ManagedObjectID] {
    let background = container.newBackgroundContext()
    background.mergePolicy = MergePolicy.mergeByPropertyObjectTrump          // what an upsert needs on Apple's platforms
    let written = try background.performAndWait {
        let request = BatchInsertRequest(entityName: "FlashcardDeck",
                                         objects: entries.map { ["code": $0.code, "name": $0.name] })
        request.resultType = .objectIDs
        let result = try background.execute(request) as? BatchInsertResult
        return result?.result as? [ManagedObjectID] ?? []
    }
    ManagedObjectContext.mergeChanges(
        fromRemoteContextSave: [ManagedObjectContext.NotificationKey.updatedObjects.rawValue: written],
        into: [container.viewContext])
    return written
}

print("1. A batch update writes the store and tells no context")
do {
    let container = try makeContainer()
    let context = container.viewContext
    let spanish = try saveDecks(in: context)["es"]!
    print("   view context before:  Spanish: \(boxes(spanish))")
    let counter = SaveCounter()
    // region: stale
    let background = container.newBackgroundContext()
    let moved = try background.performAndWait {
        // Every card of the deck coded "es" goes up a box, computed from each row's own value.
        let request = BatchUpdateRequest(entityName: "Flashcard")
        request.propertiesToUpdate = ["box": BatchUpdateExpression.key("box") + 1]
        request.predicate = FetchPredicate(format: "deck.code == %@", "es")
        request.resultType = .updatedObjectIDsResultType
        // execute(_:) returns the base class, as Core Data's: cast it, then cast its result.
        let result = try background.execute(request) as? BatchUpdateResult
        return result?.result as? [ManagedObjectID] ?? []
    }
    print("   \(moved.count) cards moved up a box in SQL; did-save notifications: \(counter.count)")
    print("   view context after:   Spanish: \(boxes(spanish))")
    // endregion: stale
    let reader = container.newBackgroundContext()
    let stored = try reader.performAndWait {
        let request: FetchRequest<Flashcard> = Flashcard.fetchRequest()
        request.predicate = FetchPredicate(format: "deck.code == 'es'")
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Flashcard.front, ascending: true)]
        return try reader.fetch(request).map { "\($0.front) \($0.box)" }.joined(separator: " · ")
    }
    print("   the store holds:      Spanish: \(stored)")

    print("")
    print("2. Merging the IDs the request returned")
    // region: merge
    ManagedObjectContext.mergeChanges(
        fromRemoteContextSave: [ManagedObjectContext.NotificationKey.updatedObjects.rawValue: moved],
        into: [container.viewContext])
    print("   view context after mergeChanges(fromRemoteContextSave:into:): Spanish: \(boxes(spanish))")
    // endregion: merge
}

print("")
print("3. An editor saves a card whose row a batch update changed")
for policy in [MergePolicy.error, .mergeByPropertyObjectTrump] {
    let container = try makeContainer()
    let hola = try saveDecks(in: container.viewContext)["es"]!.cards.first { $0.front == "hola" }!
    // region: editor-conflict
    let editor = ManagedObjectContext(.mainQueue)    // the edit screen's own context
    editor.persistentStoreCoordinator = container.persistentStoreCoordinator
    editor.mergePolicy = policy
    let card = try editor.existingObject(with: hola.objectID) as! Flashcard
    card.front = "¡hola!"                                      // the user types…
    try restartDeck(named: "Spanish", in: container)           // …a batch job runs, merged into the view context
    print("   \(policy): before saving, the editor shows box \(card.box);", terminator: " ")
    do {
        try editor.save()
        print("saved: \(card.front) in box \(card.box)")
    } catch {
        print("the save failed: error \((error as NSError).code), \(error.localizedDescription)")
    }
    // endregion: editor-conflict
}
do {
    let container = try makeContainer()
    let gato = try saveDecks(in: container.viewContext)["es"]!.cards.first { $0.front == "gato" }!
    // region: policy-not-merge
    let editor = ManagedObjectContext(.mainQueue)
    editor.persistentStoreCoordinator = container.persistentStoreCoordinator
    editor.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
    let card = try editor.existingObject(with: gato.objectID) as! Flashcard
    print("   the editor shows gato in box \(card.box); the user changes nothing", terminator: "")
    try restartDeck(named: "Spanish", in: container)
    try editor.save()                                          // nothing to save, so nothing to merge
    print(", saves: still box \(card.box)", terminator: "")
    // endregion: policy-not-merge
    let reader = container.newBackgroundContext()
    let stored = try reader.performAndWait { (try reader.existingObject(with: gato.objectID) as! Flashcard).box }
    print(" (the store has box \(stored))")
}

print("")
print("4. A batch delete, and merging the deleted IDs")
do {
    let container = try makeContainer()
    let context = container.viewContext
    let german = try saveDecks(in: context)["de"]!
    let hund = german.cards.first { $0.front == "Hund" }!
    // region: delete
    // This time the rows to delete are named by their IDs (one entity), not matched by a fetch request.
    let cleaner = container.newBackgroundContext()
    let deleted = try cleaner.performAndWait {
        let request = BatchDeleteRequest(objectIDs: [german.objectID])
        request.resultType = .resultTypeObjectIDs
        let result = try cleaner.execute(request) as? BatchDeleteResult
        return result?.result as? [ManagedObjectID] ?? []
    }
    print("   \(deleted.count) objects deleted in SQL: \(deleted.compactMap(\.entity.name).joined(separator: ", "))")
    print("   before merging: the view context still holds \(german.name) and \(hund.front) (box \(hund.box))")
    ManagedObjectContext.mergeChanges(
        fromRemoteContextSave: [ManagedObjectContext.NotificationKey.deletedObjects.rawValue: deleted],
        into: [context])
    let left = deleted.filter { context.registeredObject(for: $0) != nil }
    print("   after merging:  objects of theirs the view context still holds: \(left.count)")
    // endregion: delete
}

print("")
print("5. A batch insert with a uniqueness constraint is an upsert")
do {
    let container = try makeContainer()
    let context = container.viewContext
    let spanish = try saveDecks(in: context)["es"]!
    // region: upsert
    let catalog = [DeckEntry(code: "es", name: "Spanish (Castilian)"), DeckEntry(code: "fr", name: "French")]
    for run in 1...2 {
        let written = try importCatalog(catalog, into: container).count
        let decks = try context.count(for: FlashcardDeck.fetchRequest())
        print("   import \(run): \(written) decks written; the store has \(decks) decks; \"es\" is \(spanish.name), with \(spanish.cards.count) cards")
    }
    // endregion: upsert
    // The same import on a background context left with the default merge policy (.error).
    let plain = container.newBackgroundContext()
    do {
        try plain.performAndWait {
            _ = try plain.execute(BatchInsertRequest(entityName: "FlashcardDeck",
                                                     objects: catalog.map { ["code": $0.code, "name": $0.name] }))
        }
        print("   under the default merge policy: imported")
    } catch {
        let decks = try context.count(for: FlashcardDeck.fetchRequest())
        print("   under the default merge policy (.error): refused with \((error as NSError).code); the store still has \(decks) decks")
    }
}

print("")
print("6. Deleting 1,000 decks of 10 cards each, three ways (one run, this machine, debug build)")
do {
    let deckCount = 1_000
    func filled() throws -> PersistentContainer {
        let container = try makeContainer()
        let request = BatchInsertRequest(entityName: "FlashcardDeck",
                                         objects: (0..<deckCount).map { ["code": "d\($0)", "name": "Deck \($0)", "archived": true] })
        request.resultType = .objectIDs
        let result = try container.viewContext.execute(request) as? BatchInsertResult
        let ids = result?.result as? [ManagedObjectID] ?? []
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for id in ids {
                let deck = try context.existingObject(with: id) as! FlashcardDeck
                for number in 0..<10 {
                    let card = Flashcard(context: context)
                    card.front = "card \(number)"
                    card.deck = deck
                }
            }
            try context.save()
        }
        return container
    }
    func time(_ label: String, _ work: (PersistentContainer) throws -> Void) throws {
        let container = try filled()
        let start = Date()
        try work(container)
        let seconds = Date().timeIntervalSince(start)
        let left = try container.viewContext.count(for: Flashcard.fetchRequest())
        print("   \(label.padding(toLength: 40, withPad: " ", startingAt: 0))\(String(format: "%6.3f", seconds)) s   (cards left: \(left))")
    }
    // region: timing
    try time("through a child context:") { container in
        let parent = container.newBackgroundContext()
        try parent.performAndWait {
            let child = ManagedObjectContext(.privateQueue)
            child.parent = parent
            try child.performAndWait {
                for deck in try child.fetch(FlashcardDeck.fetchRequest()) { child.delete(deck) }
                try child.save()
            }
            try parent.save()
        }
    }
    try time("through a context saving to the store:") { container in
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for deck in try context.fetch(FlashcardDeck.fetchRequest()) { context.delete(deck) }
            try context.save()
        }
    }
    try time("as one batch delete:") { container in
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let decks = FetchRequest<FetchRequestResult>(entityName: "FlashcardDeck")
            _ = try context.execute(BatchDeleteRequest(fetchRequest: decks))
        }
    }
    // endregion: timing
}
