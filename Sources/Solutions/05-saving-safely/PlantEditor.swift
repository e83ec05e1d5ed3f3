import KataSupport
import Persistence

/// An edit of one plant that the user can save or cancel. The editor owns its context, made for this edit alone,
/// so cancelling it — a rollback — can only discard the edit: unsaved work elsewhere in the app is not touched.
public final class PlantEditor {
    /// The editor's own main-queue context, on the same store as the caller's.
    public let context: ManagedObjectContext
    /// The editor's copy of the plant, in ``context``.
    public let plant: Plant

    // region: editor-init
    /// Opens an edit of `plant`, a saved plant of the caller's context. Only its `objectID` crosses over: the
    /// editor's context looks up a copy of its own.
    public init(plant: Plant, container: PersistentContainer) throws {
        context = ManagedObjectContext(.mainQueue)
        context.persistentStoreCoordinator = container.persistentStoreCoordinator
        guard let copy = try context.existingObject(with: plant.objectID) as? Plant else {
            throw CocoaError(.managedObjectReferentialIntegrity, userInfo: [NSLocalizedDescriptionKey: "\(plant.objectID) is not a plant"])
        }
        self.plant = copy
    }
    // endregion: editor-init

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
