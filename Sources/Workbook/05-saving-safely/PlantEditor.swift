import KataSupport
import Persistence

/// An edit of one plant that the user can save or cancel, in a context the editor owns.
///
/// Lesson 5, katas 2–3. Check with `swift run lessons check 5`.
public final class PlantEditor {
    /// The editor's own main-queue context, on the same store as the caller's.
    public let context: ManagedObjectContext
    /// The editor's copy of the plant, in ``context``.
    public let plant: Plant

    /// Makes the editor's context on `container`'s coordinator and looks up its own copy of `plant` there — a
    /// saved plant of the caller's context.
    public init(plant: Plant, container: PersistentContainer) throws {
        throw KataNotDone(lesson: 5)
    }

    /// Changes the name, in memory only.
    public func rename(to name: String) {
        plant.name = name
    }

    /// Saves the edit — everything the editor's context holds; when that fails, the editor's context is back to its
    /// last saved state and the error is thrown, and a later Save of the same edit can still succeed.
    public func save() throws {
        throw KataNotDone(lesson: 5)
    }

    /// Discards the edit: the editor's context returns to its last saved state. The caller's context, and any
    /// unsaved work in it, is not touched.
    public func cancel() throws {
        throw KataNotDone(lesson: 5)
    }
}
