import Foundation
import Persistence

extension PersistentContainer {
    // region: load-helper
    /// Makes a container for `model` with one store at `url`, loads it, and returns it — or throws the error
    /// the store reported. One call instead of four steps, and a load error becomes a `throw`, not a crash.
    public static func load(name: String, model: ManagedObjectModel, url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: name, managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }
    // endregion: load-helper
}
