import Foundation
import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public final class FlashcardLibrary {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    private var updatedKey: String { ManagedObjectContext.NotificationKey.updatedObjects.rawValue }
    private var insertedKey: String { ManagedObjectContext.NotificationKey.insertedObjects.rawValue }
    private var deletedKey: String { ManagedObjectContext.NotificationKey.deletedObjects.rawValue }

    public func restartDeck(named name: String) throws -> Int {
        let background = container.newBackgroundContext()
        if Decoy.isActive("restart-by-saving") {
            // Loads every card and saves: correct in the store, but no batch — and the view context hears nothing.
            return try background.performAndWait {
                let request: FetchRequest<Flashcard> = Flashcard.fetchRequest()
                request.predicate = FetchPredicate(format: "deck.name == %@", name)
                let cards = try background.fetch(request)
                for card in cards { card.box = 1 }
                try background.save()
                return cards.count
            }
        }
        // Mistake: the batch runs in the view context, on the main queue, and is merged into that same context.
        let runner = Decoy.isActive("restart-on-view-context") ? container.viewContext : background
        func run() throws -> [ManagedObjectID] {
            let request = BatchUpdateRequest(entityName: "Flashcard")
            if Decoy.isActive("restart-beginswith") {
                request.predicate = FetchPredicate(format: "deck.name BEGINSWITH %@", name)
            } else if Decoy.isActive("restart-case-insensitive-name") {
                request.predicate = FetchPredicate(format: "deck.name ==[c] %@", name)
            } else if Decoy.isActive("restart-name-in-format") {
                // The name pasted into the format: fine for "Spanish", unparsable for "Mom's words".
                request.predicate = FetchPredicate(format: "deck.name == '\(name)'")
            } else if !Decoy.isActive("restart-without-predicate") {
                request.predicate = FetchPredicate(format: "deck.name == %@", name)
            }
            request.propertiesToUpdate = ["box": 1]
            request.resultType = .updatedObjectIDsResultType
            let result = try runner.execute(request) as? BatchUpdateResult
            return result?.result as? [ManagedObjectID] ?? []
        }
        // The background context used on the caller's thread, outside performAndWait.
        let moved = Decoy.isActive("restart-off-queue") ? try run() : try runner.performAndWait { try run() }
        if Decoy.isActive("restart-without-merge") { return moved.count }
        if Decoy.isActive("restart-refresh-all-objects") {
            // Re-reads every object of the view context instead of merging what the request changed.
            let viewContext = container.viewContext
            viewContext.performAndWait { viewContext.refreshAllObjects() }
            return moved.count
        }
        if Decoy.isActive("restart-policy-instead-of-merge") {
            container.viewContext.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
            return moved.count
        }
        let key = Decoy.isActive("restart-merged-as-inserted") ? insertedKey : updatedKey
        let target = Decoy.isActive("restart-merge-into-background") ? background : container.viewContext
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [key: moved], into: [target])
        return moved.count
    }

    public func deleteArchivedDecks() throws -> Int {
        let background = container.newBackgroundContext()
        if Decoy.isActive("delete-through-context") {
            // Deletes object by object and saves: the slow way, and the view context is not told either.
            return try background.performAndWait {
                let request: FetchRequest<FlashcardDeck> = FlashcardDeck.fetchRequest()
                request.predicate = FetchPredicate(format: "archived == YES")
                let decks = try background.fetch(request)
                let count = decks.reduce(0) { $0 + 1 + $1.cards.count }
                for deck in decks { background.delete(deck) }
                try background.save()
                return count
            }
        }
        // Mistake: the archived decks' IDs, fetched first, are what the batch delete deletes and what the view context
        // merges: the cards the cascade takes with them are named nowhere, and stay in the view context.
        if Decoy.isActive("delete-merges-fetched-deck-ids") {
            let ids = try background.performAndWait {
                let decks = FetchRequest<ManagedObjectID>(entityName: "FlashcardDeck")
                decks.resultType = .managedObjectIDResultType
                decks.predicate = FetchPredicate(format: "archived == YES")
                let ids = try background.fetch(decks)
                _ = try background.execute(BatchDeleteRequest(objectIDs: ids))
                return ids
            }
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: [deletedKey: ids], into: [container.viewContext])
            return ids.count
        }
        // Mistake: the batch delete runs in the view context, on the main queue, and is merged into it.
        let runner = Decoy.isActive("delete-on-view-context") ? container.viewContext : background
        let deleted = try runner.performAndWait {
            // The cards' IDs, read before the delete: whether its result lists the rows the cascade deletes is
            // undocumented on Apple's platforms.
            let cards = FetchRequest<ManagedObjectID>(entityName: "Flashcard")
            cards.resultType = .managedObjectIDResultType
            cards.predicate = FetchPredicate(format: "deck.archived == YES")
            let cardIDs = try runner.fetch(cards)
            let archived = FetchRequest<FetchRequestResult>(entityName: "FlashcardDeck")
            if !Decoy.isActive("delete-without-predicate") {
                archived.predicate = FetchPredicate(format: "archived == YES")
            }
            let request = BatchDeleteRequest(fetchRequest: archived)
            if Decoy.isActive("delete-status-only") {
                // The default result type: no IDs, so there is nothing to merge.
                let result = try runner.execute(request) as? BatchDeleteResult
                return (result?.result as? [ManagedObjectID] ?? [], try runner.count(for: archived))
            }
            request.resultType = .resultTypeObjectIDs
            let result = try runner.execute(request) as? BatchDeleteResult
            let listed = result?.result as? [ManagedObjectID] ?? []
            let ids = listed + cardIDs.filter { !Set(listed).contains($0) }
            return (ids, ids.count)
        }
        // Mistake: the view context forgets every object it holds instead of merging the deleted IDs: the deleted
        // decks are gone from it, and so is everything else on screen.
        if Decoy.isActive("delete-reset-view-context") {
            container.viewContext.reset()
            return deleted.1
        }
        let key = Decoy.isActive("delete-merged-as-updated") ? updatedKey : deletedKey
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [key: deleted.0], into: [container.viewContext])
        return deleted.1
    }

    public func importCatalog(_ entries: [DeckEntry]) throws -> Int {
        let background = container.newBackgroundContext()
        if Decoy.isActive("import-by-saving") {
            // New objects with the codes of stored decks: the save breaks the uniqueness constraint (133021).
            try background.performAndWait {
                for entry in entries {
                    let deck = FlashcardDeck(context: background)
                    deck.code = entry.code
                    deck.name = entry.name
                }
                try background.save()
            }
            return entries.count
        }
        if Decoy.isActive("import-upsert-in-swift") {
            // The upsert written by hand: fetch the stored decks, rename or insert, save — no batch request.
            try background.performAndWait {
                var byCode: [String: FlashcardDeck] = [:]
                for deck in try background.fetch(FlashcardDeck.fetchRequest()) { byCode[deck.code] = deck }
                for entry in entries {
                    let deck = byCode[entry.code] ?? FlashcardDeck(context: background)
                    deck.code = entry.code
                    deck.name = entry.name
                }
                try background.save()
            }
            let ids = try container.viewContext.fetch(FlashcardDeck.fetchRequest()).map(\.objectID)
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: [updatedKey: ids], into: [container.viewContext])
            return entries.count
        }
        // Mistake: the background context keeps the default merge policy (.error), so a code the store has already
        // is a clash the batch insert refuses (133021) instead of an update.
        if !Decoy.isActive("import-without-policy") { background.mergePolicy = MergePolicy.mergeByPropertyObjectTrump }
        // Mistake: the batch insert runs on the view context, whose merge policy is changed for it — for the whole
        // app, and on the main queue.
        if Decoy.isActive("import-on-view-context") {
            let viewContext = container.viewContext
            viewContext.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
            let written = try viewContext.performAndWait {
                let rows: [[String: Any]] = entries.map { ["code": $0.code, "name": $0.name] }
                let request = BatchInsertRequest(entityName: "FlashcardDeck", objects: rows)
                request.resultType = .objectIDs
                let result = try viewContext.execute(request) as? BatchInsertResult
                return result?.result as? [ManagedObjectID] ?? []
            }
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: [updatedKey: written], into: [viewContext])
            return written.count
        }
        // Mistake: the batch insert runs on the view context, whose policy is switched for it and put back at once:
        // the app's policy is as it was, but the main queue waited for the store.
        if Decoy.isActive("import-on-view-context-restoring-policy") {
            let viewContext = container.viewContext
            let written = try viewContext.performAndWait {
                let policy = viewContext.mergePolicy
                viewContext.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
                defer { viewContext.mergePolicy = policy }
                let rows: [[String: Any]] = entries.map { ["code": $0.code, "name": $0.name] }
                let request = BatchInsertRequest(entityName: "FlashcardDeck", objects: rows)
                request.resultType = .objectIDs
                let result = try viewContext.execute(request) as? BatchInsertResult
                return result?.result as? [ManagedObjectID] ?? []
            }
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: [updatedKey: written], into: [viewContext])
            return written.count
        }
        let written = try background.performAndWait {
            // Mistake: every row given in full, as a new deck would be: "archived": false un-archives a stored deck.
            let rows: [[String: Any]] = Decoy.isActive("import-full-rows")
                ? entries.map { ["code": $0.code, "name": $0.name, "archived": false] }
                : entries.map { ["code": $0.code, "name": $0.name] }
            let request = BatchInsertRequest(entityName: "FlashcardDeck", objects: rows)
            request.resultType = .objectIDs
            let result = try background.execute(request) as? BatchInsertResult
            return result?.result as? [ManagedObjectID] ?? []
        }
        if Decoy.isActive("import-without-merge") { return written.count }
        // Mistake: the view context re-reads every object it holds instead of merging the IDs: the names are new,
        // but no did-change notification names the decks that changed.
        if Decoy.isActive("import-refresh-all-objects") {
            let viewContext = container.viewContext
            viewContext.performAndWait { viewContext.refreshAllObjects() }
            return written.count
        }
        let key = Decoy.isActive("import-merged-as-inserted") ? insertedKey : updatedKey
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [key: written], into: [container.viewContext])
        return written.count
    }
}
