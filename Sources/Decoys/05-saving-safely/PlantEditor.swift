import KataSupport
import Persistence

/// Lesson 5's ``PlantEditor`` with known mistakes (see `Decoy`).
public final class PlantEditor {
    public let context: ManagedObjectContext
    public let plant: Plant
    /// The caller's context, which some mistakes reach for.
    private let callersContext: ManagedObjectContext?

    public init(plant: Plant, container: PersistentContainer) throws {
        callersContext = plant.managedObjectContext
        // Mistake: the editor simply works in the caller's context, so cancelling rolls back everything in it.
        if Decoy.isActive("editor-in-callers-context"), let callersContext {
            context = callersContext
            self.plant = plant
            return
        }
        context = ManagedObjectContext(.mainQueue)
        // Mistake: the editor's context is a child of the caller's, so its save only reaches the caller's context,
        // and save() then saves the caller's context too — with whatever unrelated work is pending there.
        if Decoy.isActive("editor-child-saves-parent") {
            context.parent = callersContext
        } else {
            context.persistentStoreCoordinator = container.persistentStoreCoordinator
        }
        // Mistake: the caller's object itself is kept instead of the editor's own copy, looked up by objectID.
        if Decoy.isActive("editor-keeps-callers-object") {
            self.plant = plant
            return
        }
        // Mistake: the editor finds its copy by the plant's name, not by its objectID: with two plants of the
        // same name it may edit the other one.
        if Decoy.isActive("editor-finds-plant-by-name") {
            let request: FetchRequest<Plant> = Plant.fetchRequest()
            request.predicate = FetchPredicate(format: "name == %@", plant.name)
            guard let copy = try context.fetch(request).first else {
                throw CocoaError(.managedObjectReferentialIntegrity)
            }
            self.plant = copy
            return
        }
        // Mistake: object(with:) never checks that the row exists, so a plant deleted before the edit opens gives
        // an editor on a fault that fails only when it is first read.
        if Decoy.isActive("editor-object-with"), let copy = context.object(with: plant.objectID) as? Plant {
            self.plant = copy
            return
        }
        guard let copy = try context.existingObject(with: plant.objectID) as? Plant else {
            throw CocoaError(.managedObjectReferentialIntegrity, userInfo: [NSLocalizedDescriptionKey: "\(plant.objectID) is not a plant"])
        }
        self.plant = copy
    }

    public func rename(to name: String) {
        plant.name = name
    }

    public func save() throws {
        // Mistake: the editor's save throws its error but leaves the failed edit in the editor's context.
        if Decoy.isActive("editor-save-without-rollback") { return try context.save() }
        // Mistake: only the plant is asked whether anything changed, so a Save whose only change is a new plant
        // (a cutting) stores nothing.
        if Decoy.isActive("editor-save-checks-plant-only"), !plant.hasChanges { return }
        // Mistake: the failed save is rolled back and nothing more: after a conflict the editor keeps its stale
        // copy of the plant, and every later Save conflicts again.
        if Decoy.isActive("editor-rollback-without-refresh") {
            do {
                try context.save()
            } catch {
                context.rollback()
                throw error
            }
            return
        }
        try context.saveOrRollback()
        if Decoy.isActive("editor-child-saves-parent") { try callersContext?.save() }
    }

    public func cancel() throws {
        // Mistake: reset() instead of rollback(): the edit is gone, and with it the editor's plant.
        if Decoy.isActive("cancel-resets") { return context.reset() }
        // Mistake: only the plant is re-read from the store; anything else the edit added stays in the context.
        if Decoy.isActive("cancel-refreshes-plant") { return context.refresh(plant, mergeChanges: false) }
        // Mistake: "to be safe" the caller's context is rolled back too, throwing away its unsaved work.
        if Decoy.isActive("cancel-rolls-back-callers-context") { callersContext?.rollback() }
        context.rollback()
    }
}
