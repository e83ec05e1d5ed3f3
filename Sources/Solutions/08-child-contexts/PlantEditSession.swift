import KataSupport
import Persistence

/// An edit screen's session: one plant, edited in a child context of the context it came from. Committing pushes
/// the edit into that parent and saves the parent; discarding throws the child's work away. Until then the parent —
/// usually the app's view context — holds nothing of the edit.
public final class PlantEditSession {
    /// The context the edit is committed to: the one the plant came from.
    public let parent: ManagedObjectContext
    /// The session's child context, on the main queue like the screen that uses it.
    public let context: ManagedObjectContext
    /// The session's copy of the plant, in ``context``.
    public let plant: Plant
    /// Whether a commit can still save the edit: `false` once the parent's save has failed (see ``commit()``).
    public var isOpen: Bool { failure == nil }

    /// The parent's save error that closed the session.
    private var failure: (any Error)?

    /// Opens an edit of `plant`, an object of `parent`, saved or not: a child context reads through its parent, so
    /// it also finds objects the parent has inserted and not saved yet. Throws (`existingObject(with:)`'s error) when
    /// the plant exists neither in the parent nor in the store.
    public init(editing plant: Plant, in parent: ManagedObjectContext) throws {
        self.parent = parent
        context = ManagedObjectContext(.mainQueue)
        context.parent = parent
        // A plant the parent has only inserted is an update in the child, not an insert, so commit's permanent IDs
        // never reach it, and after the parent's save the child's copy would keep an ID no row has. The parent
        // still holds it as an insert: it can give the plant its permanent ID now, without saving anything.
        if plant.objectID.isTemporaryID { try parent.obtainPermanentIDs(for: [plant]) }
        guard let copy = try context.existingObject(with: plant.objectID) as? Plant else {
            throw CocoaError(.managedObjectReferentialIntegrity, userInfo: [NSLocalizedDescriptionKey: "\(plant.objectID) is not a plant"])
        }
        self.plant = copy
    }

    /// Opens a session for a plant that does not exist yet: it is inserted in the child, so discarding the session
    /// leaves no trace of it anywhere.
    public init(newPlantIn parent: ManagedObjectContext) throws {
        self.parent = parent
        context = ManagedObjectContext(.mainQueue)
        context.parent = parent
        plant = Plant(context: context)
    }

    /// Changes the name, in the child only.
    public func rename(to name: String) {
        plant.name = name
    }

    /// Saves the edit all the way to the store: the child into the parent, then the parent. Returns `false`, and
    /// saves nothing, when there is nothing to save.
    ///
    /// - Throws: the child's error when the edit itself cannot be saved (the edit stays in the session, to be fixed,
    ///   and the session stays open); the parent's error when the parent cannot save (the parent is rolled back
    ///   first, so it is clean again, and the session is closed: the edit is gone from both contexts). A closed
    ///   session throws that error again rather than report that there was nothing to save.
    @discardableResult
    public func commit() throws -> Bool {
        if let failure { throw failure }                   // the edit is gone: `false` would read as "nothing to do"
        guard context.hasChanges else { return false }     // nothing to push, so no reason to save the parent
        // A new plant keeps a temporary ID in the child even after the parent's save: give it its permanent one
        // now, while the child still holds it as an insert.
        try context.obtainPermanentIDs(for: Array(context.insertedObjects))
        try context.save()                                 // one level up: into the parent, not the store
        do {
            try parent.save()                              // now the store
        } catch {
            parent.rollback()                              // a failed save must not stay behind in the parent
            failure = error                                // and the child has nothing left to push: closed
            throw error
        }
        return true
    }

    /// Throws the edit away. Nothing of it ever reached the parent, so there is nothing to undo there.
    public func discard() throws {
        context.rollback()
    }
}
