import KataSupport
import Persistence

/// Lesson 8's ``PlantEditSession`` with known mistakes (see `Decoy`).
public final class PlantEditSession {
    public let parent: ManagedObjectContext
    public let context: ManagedObjectContext
    public let plant: Plant
    public var isOpen: Bool { failure == nil }
    private var failure: (any Error)?

    public init(editing plant: Plant, in parent: ManagedObjectContext) throws {
        self.parent = parent
        context = Self.makeContext(parent: parent)
        // Mistake: the caller's object is edited directly; the child context holds nothing.
        if Decoy.isActive("edits-callers-object") {
            self.plant = plant
            return
        }
        // Mistake: the parent is saved so that a plant it has only inserted gets a permanent ID the child can look
        // up — writing the caller's unsaved work to the store just to open a screen.
        if Decoy.isActive("open-saves-parent") && plant.objectID.isTemporaryID {
            try parent.save()
        }
        // Mistake "open-keeps-temporary-id": the plant the parent has only inserted is looked up under its temporary
        // ID; the child's copy is an update, which commit's permanent IDs skip, so it keeps that ID after the
        // parent's save and the next commit pushes an ID the parent no longer has.
        if !Decoy.isActive("open-keeps-temporary-id"), plant.objectID.isTemporaryID {
            try parent.obtainPermanentIDs(for: [plant])
        }
        // Mistake: object(with:) never fails — for a plant that no longer exists it hands back a fault, and the
        // screen opens on a plant whose row is gone (it reads as empty and counts as deleted).
        if Decoy.isActive("open-with-object-with"), let copy = context.object(with: plant.objectID) as? Plant {
            self.plant = copy
            return
        }
        // Mistake: the source's fallback — when the child cannot find the plant, edit the caller's object instead.
        if Decoy.isActive("open-falls-back-to-callers-plant") {
            self.plant = (try? context.existingObject(with: plant.objectID) as? Plant) ?? plant
            return
        }
        guard let copy = try context.existingObject(with: plant.objectID) as? Plant else {
            throw CocoaError(.managedObjectReferentialIntegrity, userInfo: [NSLocalizedDescriptionKey: "\(plant.objectID) is not a plant"])
        }
        self.plant = copy
    }

    public init(newPlantIn parent: ManagedObjectContext) throws {
        self.parent = parent
        context = Self.makeContext(parent: parent)
        plant = Plant(context: context)
    }

    private static func makeContext(parent: ManagedObjectContext) -> ManagedObjectContext {
        let context = ManagedObjectContext(.mainQueue)
        // Mistake: lesson 5's editor — a context of its own on the store, not a child of the plant's context.
        if Decoy.isActive("session-on-coordinator") {
            context.persistentStoreCoordinator = parent.persistentStoreCoordinator
        } else {
            context.parent = parent
        }
        return context
    }

    public func rename(to name: String) {
        plant.name = name
    }

    @discardableResult
    public func commit() throws -> Bool {
        // A session whose parent could not save must not commit again: with nothing left in the child, it would
        // return false, which the screen takes for "nothing to save", and close as if the edit were stored.
        // Mistake "closed-session-commits-again": the session says it is closed, but commit() carries on.
        if !Decoy.isActive("closed-session-commits-again"), let failure { throw failure }
        if Decoy.isActive("change-check-on-parent") {
            // Mistake: the parent is asked for changes instead of the child, so the caller's unrelated unsaved
            // work counts as an edit and is saved with it (and a real edit, not yet pushed, counts as nothing).
            guard parent.hasChanges else { return false }
        } else if Decoy.isActive("change-check-on-plant") {
            // Mistake: only the session's plant is asked for changes, so a session that added a plant is "unchanged".
            guard plant.hasChanges else { return false }
        } else if !Decoy.isActive("commit-without-change-check") {
            // (Mistake "commit-without-change-check": no check, so the parent is saved for nothing.)
            guard context.hasChanges else { return false }
        }
        // Mistake: permanent IDs are never asked for, so a new plant keeps its temporary ID in the child.
        if !Decoy.isActive("no-permanent-ids") && !Decoy.isActive("permanent-ids-after-save")
            && !Decoy.isActive("permanent-ids-in-parent") {
            // Mistake: permanent IDs only for the session's own plant; anything else the session added keeps a
            // temporary ID in the child.
            try context.obtainPermanentIDs(for: Decoy.isActive("permanent-id-for-plant-only")
                ? (plant.isInserted ? [plant] : []) : Array(context.insertedObjects))
        }
        // Mistake: the parent is saved first, while the edit is still in the child; the child's save then leaves
        // the edit unsaved in the parent.
        if Decoy.isActive("commit-parent-first") {
            try parent.save()
            try context.save()
            return true
        }
        do {
            try context.save()
        } catch {
            // Mistake: lesson 5's reflex applied to the child: the user's edit is thrown away with the failure.
            if Decoy.isActive("child-failure-rolled-back") { context.rollback() }
            // Mistake: every failure closes the session, also the child's own, which the user could have fixed.
            if Decoy.isActive("any-failure-closes-session") { failure = error }
            throw error
        }
        // Mistake: the permanent IDs are asked for in the parent, after the push: the parent's plant gets one, the
        // session's copy keeps its temporary ID.
        if Decoy.isActive("permanent-ids-in-parent") {
            try parent.obtainPermanentIDs(for: Array(parent.insertedObjects))
        }
        // Mistake: the child is saved and the parent is not: the edit waits in the parent, never in the store.
        if Decoy.isActive("commit-child-only") { return true }
        do {
            try parent.save()
        } catch {
            // Mistake: the source's version — the error is printed and the commit looks like a success.
            if Decoy.isActive("parent-failure-swallowed") {
                parent.rollback()
                print("could not save the parent context: \(error)")
                return true
            }
            // Mistake: the parent keeps the failed edit, and every later save of it fails too.
            if Decoy.isActive("parent-failure-without-rollback") { throw error }
            // Mistake: reset() instead of rollback(): every object the app holds leaves the parent.
            if Decoy.isActive("parent-failure-reset") {
                parent.reset()
                throw error
            }
            // Mistake: the failed push is undone by refreshing the parent's changed objects; a plant the push
            // inserted or deleted stays in the parent and spoils every later save.
            if Decoy.isActive("parent-failure-refreshed") {
                for object in parent.updatedObjects { parent.refresh(object, mergeChanges: false) }
                failure = error
                throw error
            }
            parent.rollback()
            // Mistake: the session stays open after its edit is gone — the reference solution's old design.
            if !Decoy.isActive("parent-failure-leaves-session-open") { failure = error }
            throw error
        }
        // Mistake: permanent IDs asked for after the saves: the plant is no longer an insert in the child, and what
        // it gets then is undocumented by Apple (in Persistence, a second ID that no row has).
        if Decoy.isActive("permanent-ids-after-save") {
            try context.obtainPermanentIDs(for: [plant])
        }
        return true
    }

    public func discard() throws {
        // Mistake: "to be sure" the parent is rolled back too, throwing away its unsaved work.
        if Decoy.isActive("discard-rolls-back-parent") { parent.rollback() }
        // Mistake: the child is emptied with reset() instead of rolled back: the screen's plant is forgotten with it.
        if Decoy.isActive("discard-resets-child") {
            context.reset()
            return
        }
        // Mistake: only the session's plant is refreshed from the parent; anything else the session did stays.
        if Decoy.isActive("discard-refreshes-the-plant") {
            context.refresh(plant, mergeChanges: false)
            return
        }
        context.rollback()
    }
}
