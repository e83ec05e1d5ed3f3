import Foundation
import KataSupport
import Persistence

/// The flashcard app's work on many objects at once, done in SQL by batch requests on a background context. A
/// batch request changes the store past every context and tells none of them, so each job passes the IDs it
/// changed to ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)`` for the view context.
public final class FlashcardLibrary {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    // region: restart-deck
    /// Puts every card of the deck named `name` back in box 1 with one batch update, and brings the view context
    /// up to date. Returns how many cards it moved.
    public func restartDeck(named name: String) throws -> Int {
        let background = container.newBackgroundContext()
        let moved = try background.performAndWait {
            let request = BatchUpdateRequest(entityName: "Flashcard")
            request.predicate = FetchPredicate(format: "deck.name == %@", name)
            request.propertiesToUpdate = ["box": 1]
            request.resultType = .updatedObjectIDsResultType
            let result = try background.execute(request) as? BatchUpdateResult
            return result?.result as? [ManagedObjectID] ?? []
        }
        // Merged once performAndWait has returned: the merge runs on the view context's queue, and the background
        // context's queue need not be held meanwhile.
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [ManagedObjectContext.NotificationKey.updatedObjects.rawValue: moved],
            into: [container.viewContext])
        return moved.count
    }
    // endregion: restart-deck

    // region: delete-archived
    /// Deletes every archived deck — and, by the cascade rule, its cards — with one batch delete, and removes
    /// them from the view context. Returns how many objects went, cards included.
    public func deleteArchivedDecks() throws -> Int {
        let background = container.newBackgroundContext()
        let deleted = try background.performAndWait {
            // Whether the result lists the rows the cascade deletes is undocumented on Apple's platforms: the cards'
            // IDs are read first, so that they leave the view context either way.
            let cards = FetchRequest<ManagedObjectID>(entityName: "Flashcard")
            cards.resultType = .managedObjectIDResultType
            cards.predicate = FetchPredicate(format: "deck.archived == YES")
            let cardIDs = try background.fetch(cards)
            // Untyped, as the batch delete takes it: a FetchRequest<FlashcardDeck> does not convert.
            let archived = FetchRequest<FetchRequestResult>(entityName: "FlashcardDeck")
            archived.predicate = FetchPredicate(format: "archived == YES")
            let request = BatchDeleteRequest(fetchRequest: archived)
            request.resultType = .resultTypeObjectIDs
            let result = try background.execute(request) as? BatchDeleteResult
            let ids = result?.result as? [ManagedObjectID] ?? []
            let listed = Set(ids)
            return ids + cardIDs.filter { !listed.contains($0) }
        }
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [ManagedObjectContext.NotificationKey.deletedObjects.rawValue: deleted],
            into: [container.viewContext])
        return deleted.count
    }
    // endregion: delete-archived

    // region: import-catalog
    /// Brings the decks up to date with the server's catalog in one batch insert: a deck whose code is new is
    /// inserted, a deck the store has already is renamed in place — same row, same cards, `archived` untouched —
    /// because `code` is unique. Returns how many decks it wrote.
    public func importCatalog(_ entries: [DeckEntry]) throws -> Int {
        let background = container.newBackgroundContext()
        // A batch insert upserts only under this policy (and a uniqueness constraint); under the default, .error, a
        // code the store has already is refused.
        background.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        let written = try background.performAndWait {
            // Only the keys the catalog knows: what a stored row keeps of the keys not given is undocumented.
            let rows: [[String: Any]] = entries.map { ["code": $0.code, "name": $0.name] }
            let request = BatchInsertRequest(entityName: "FlashcardDeck", objects: rows)
            request.resultType = .objectIDs
            let result = try background.execute(request) as? BatchInsertResult
            return result?.result as? [ManagedObjectID] ?? []
        }
        // New rows and updated rows alike: listed as updated, the view context refreshes the decks it holds and
        // leaves the others to its next fetch.
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [ManagedObjectContext.NotificationKey.updatedObjects.rawValue: written],
            into: [container.viewContext])
        return written.count
    }
    // endregion: import-catalog
}
