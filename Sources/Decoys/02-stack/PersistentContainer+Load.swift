import Foundation
import KataSupport
import Persistence

extension PersistentContainer {
    /// Lesson 2's load helper with a known mistake (see `Decoy`).
    public static func load(name: String, model: ManagedObjectModel, url: URL) throws -> PersistentContainer {
        // Mistake: Core Data's convenience initialiser looks the model up by name, ignoring the one handed in —
        // a second copy of the model at best, and none at all where no compiled model has that name.
        // Mistake (`helper-ignores-name`): the app's name is written in, and the caller's `name` never used — every
        // container is called "Garden", whatever its store.
        let name = Decoy.isActive("helper-ignores-name") ? "Garden" : name
        let container = Decoy.isActive("helper-finds-model-by-name")
            ? PersistentContainer(name: name) : PersistentContainer(name: name, managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        // Mistake: the store is described but never loaded; the container comes back without one.
        if Decoy.isActive("helper-never-loads") { return container }
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        // Mistake: the error is dropped, and a container without a store is handed out.
        if let loadError, !Decoy.isActive("helper-drops-load-error") { throw loadError }
        return container
    }
}
