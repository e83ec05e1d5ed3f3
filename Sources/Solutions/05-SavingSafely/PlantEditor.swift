import KataSupport
import Persistence

/// An edit of one plant that the user can save or cancel. It works directly in `context`, so cancelling rolls
/// back *everything* unsaved there; give it a context with no other pending work (save first, or use a child
/// context — lesson 8).
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

    // region: editor
    public func save() throws {
        try context.saveOrRollback()
    }

    public func cancel() throws {
        context.rollback()
    }
    // endregion: editor
}
