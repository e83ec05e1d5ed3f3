import KataSupport
import Persistence

/// The edit screen of one flashcard. It owns a main-queue context made for the edit alone, so the batch jobs,
/// which merge into the view context, never bring it up to date: a batch update can change the card's row while
/// the user types. The editor's merge policy decides what its save does then.
public final class CardEditor {
    /// The editor's own main-queue context, on the same store as the caller's.
    public let context: ManagedObjectContext
    /// The editor's copy of the card, in ``context``: the user's edits go here.
    public let card: Flashcard

    // region: editor-init
    /// Opens an edit of `card`, a saved card of the caller's context. Only its `objectID` crosses over.
    public init(card: Flashcard, container: PersistentContainer) throws {
        context = ManagedObjectContext(.mainQueue)
        context.persistentStoreCoordinator = container.persistentStoreCoordinator
        // A row changed under the edit is merged property by property at the save: what the user changed wins,
        // everything else takes the store's newer values (instead of failing with 133020).
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        guard let copy = try context.existingObject(with: card.objectID) as? Flashcard else {
            throw CocoaError(.managedObjectReferentialIntegrity, userInfo: [NSLocalizedDescriptionKey: "\(card.objectID) is not a flashcard"])
        }
        self.card = copy
    }
    // endregion: editor-init

    // region: editor-save
    /// Saves the edit; a failed save is rolled back, so the editor is clean again, and rethrown.
    public func save() throws {
        guard context.hasChanges else { return }
        do {
            try context.save()
        } catch {
            context.rollback()
            throw error
        }
    }
    // endregion: editor-save
}
