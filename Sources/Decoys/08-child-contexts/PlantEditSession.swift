import KataSupport
import Persistence

/// Lesson 8's ``PlantEditSession`` with known mistakes (see `Decoy`).
public final class PlantEditSession {
    public let parent: ManagedObjectContext
    public let context: ManagedObjectContext
    public let plant: Plant

    public init(editing plant: Plant, in parent: ManagedObjectContext) throws {
        self.parent = parent
        context = Self.makeContext(parent: parent)
        // Mistake: the caller's object is edited directly; the child context holds nothing.
        if Decoy.isActive("edits-callers-object") {
            self.plant = plant
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
        // Mistake: no check for changes, so the parent — and whatever else it holds — is saved for nothing.
        if !Decoy.isActive("commit-without-change-check") {
            guard context.hasChanges else { return false }
        }
        // Mistake: permanent IDs are never asked for, so a new plant keeps its temporary ID in the child.
        if !Decoy.isActive("no-permanent-ids") && !Decoy.isActive("permanent-ids-after-save") {
            try context.obtainPermanentIDs(for: Array(context.insertedObjects))
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
            throw error
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
            parent.rollback()
            throw error
        }
        // Mistake: permanent IDs asked for after the saves: the plant is no longer an insert in the child, and gets
        // a second, new ID that no row has.
        if Decoy.isActive("permanent-ids-after-save") {
            try context.obtainPermanentIDs(for: [plant])
        }
        return true
    }

    public func discard() throws {
        // Mistake: "to be sure" the parent is rolled back too, throwing away its unsaved work.
        if Decoy.isActive("discard-rolls-back-parent") { parent.rollback() }
        context.rollback()
    }
}
