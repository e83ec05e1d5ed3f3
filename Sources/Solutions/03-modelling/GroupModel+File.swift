import Foundation
import KataSupport
@_spi(ModelLoading) import Persistence

extension GroupModel {
    // region: model-file
    /// The same model, drawn in Xcode's format and loaded by name, the way an app starts its stack.
    ///
    /// The container finds `<name>.xcdatamodeld` in the bundle it is given; a wrong name does not stop the
    /// program but comes back as the store's load error, so the error must be looked at.
    public static func containerFromModelFile(named name: String = GroupModelFile.name) throws -> PersistentContainer {
        let container = PersistentContainer(name: name, bundle: GroupModelFile.bundle)
        // Before loading: the descriptions say where the stores go.
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        nonisolated(unsafe) var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }
    // endregion: model-file
}
