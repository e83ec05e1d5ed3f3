import Foundation
import KataSupport
import Persistence

extension PersistentContainer {
    /// Lesson 2's load helper with a known mistake (see `Decoy`).
    public static func load(name: String, model: ManagedObjectModel, url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: name, managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        // Mistake: the store is described but never loaded; the container comes back without one.
        if Decoy.isActive("helper-never-loads") { return container }
        nonisolated(unsafe) var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        // Mistake: the error is dropped, and a container without a store is handed out.
        if let loadError, !Decoy.isActive("helper-drops-load-error") { throw loadError }
        return container
    }
}
