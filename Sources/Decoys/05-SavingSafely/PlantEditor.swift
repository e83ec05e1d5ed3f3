import KataSupport
import Persistence

/// Lesson 5's ``PlantEditor`` with a known mistake (see `Decoy`).
public final class PlantEditor {
    public let plant: Plant
    public let context: ManagedObjectContext

    public init(plant: Plant, in context: ManagedObjectContext) {
        self.plant = plant
        self.context = context
    }

    public func rename(to name: String) {
        plant.name = name
    }

    public func save() throws {
        try context.saveOrRollback()
    }

    public func cancel() throws {
        if Decoy.isActive("cancel-forgets-one-object") {
            // Mistake: only this plant is re-read; the context keeps its other unsaved changes.
            context.refresh(plant, mergeChanges: false)
        } else {
            context.rollback()
        }
    }
}
