import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public final class CardEditor {
    public let context: ManagedObjectContext
    public let card: Flashcard

    public init(card: Flashcard, container: PersistentContainer) throws {
        if Decoy.isActive("editor-in-view-context") {
            // The edit happens in the view context, where every screen sees the unsaved text.
            context = container.viewContext
        } else {
            context = ManagedObjectContext(.mainQueue)
            context.persistentStoreCoordinator = container.persistentStoreCoordinator
        }
        if Decoy.isActive("editor-policy-on-view-context") {
            // A side effect: the whole app's main context changes its merge policy for one editor.
            container.viewContext.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        }
        if Decoy.isActive("editor-overwrite") {
            context.mergePolicy = MergePolicy.overwrite
        } else if Decoy.isActive("editor-store-trump") {
            context.mergePolicy = MergePolicy.mergeByPropertyStoreTrump
        } else if !Decoy.isActive("editor-without-policy") && !Decoy.isActive("editor-refresh-without-merge") {
            context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        }
        if Decoy.isActive("editor-keeps-callers-card") {
            self.card = card
            return
        }
        guard let copy = try context.existingObject(with: card.objectID) as? Flashcard else {
            throw CocoaError(.managedObjectReferentialIntegrity, userInfo: [NSLocalizedDescriptionKey: "\(card.objectID) is not a flashcard"])
        }
        self.card = copy
    }

    public func save() throws {
        // Refreshing without merging changes makes the save succeed — by throwing the user's edit away.
        if Decoy.isActive("editor-refresh-without-merge") { context.refresh(card, mergeChanges: false) }
        guard context.hasChanges else { return }
        do {
            try context.save()
        } catch {
            context.rollback()
            throw error
        }
    }
}
