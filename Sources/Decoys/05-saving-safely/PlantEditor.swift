import KataSupport
import Persistence

/// Lesson 5's ``PlantEditor`` with known mistakes (see `Decoy`).
public final class PlantEditor {
    public let context: ManagedObjectContext
    public let plant: Plant
    /// The caller's context, which some mistakes reach for.
    private let callersContext: ManagedObjectContext?

    public init(plant: Plant, container: PersistentContainer) throws {
        context = ManagedObjectContext(.mainQueue)
        context.persistentStoreCoordinator = container.persistentStoreCoordinator
        callersContext = plant.managedObjectContext
        // Mistake: the caller's object itself is kept instead of the editor's own copy, looked up by objectID.
        if Decoy.isActive("editor-keeps-callers-object") {
            self.plant = plant
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
        try context.saveOrRollback()
    }

    public func cancel() throws {
        // Mistake: reset() instead of rollback(): the edit is gone, and with it the editor's plant.
        if Decoy.isActive("cancel-resets") { return context.reset() }
        // Mistake: "to be safe" the caller's context is rolled back too, throwing away its unsaved work.
        if Decoy.isActive("cancel-rolls-back-callers-context") { callersContext?.rollback() }
        context.rollback()
    }
}
