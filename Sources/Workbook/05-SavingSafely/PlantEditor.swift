import KataSupport
import Persistence

/// An edit of one plant that the user can save or cancel, made directly in `context`.
///
/// Lesson 5, katas 2–3. Check with `swift run lessons check 5`.
public final class PlantEditor {
    public let plant: Plant
    public let context: ManagedObjectContext

    public init(plant: Plant, in context: ManagedObjectContext) {
        self.plant = plant
        self.context = context
    }

    /// Changes the name, in memory only.
    public func rename(to name: String) {
        plant.name = name
    }

    /// Saves the edit; when that fails, the context is back to its last saved state and the error is thrown.
    public func save() throws {
        throw KataNotDone(lesson: 5)
    }

    /// Discards the edit: the context returns to its last saved state — every unsaved change in it, not only this
    /// plant's.
    public func cancel() throws {
        throw KataNotDone(lesson: 5)
    }
}
