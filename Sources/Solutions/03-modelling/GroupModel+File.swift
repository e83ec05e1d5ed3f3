import Foundation
import KataSupport
import Persistence

extension GroupModel {
    // region: model-file
    /// The same model, drawn in Xcode's format and loaded by name, the way an app starts its stack.
    ///
    /// A container made by name with a wrong name does not stop the program, and its stores still load (with no
    /// entities): the model is looked up first, so the typo is an error here and not a crash later.
    public static func containerFromModelFile(named name: String = GroupModelFile.name) throws -> PersistentContainer {
        // On Apple platforms: Bundle.main.url(forResource: name, withExtension: "momd").
        guard let url = GroupModelFile.bundle.url(forResource: name, withExtension: "xcdatamodeld"),
              let model = ManagedObjectModel(contentsOf: url) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name).xcdatamodeld"])
        }
        let container = PersistentContainer(name: name, managedObjectModel: model)
        // Before loading: the descriptions say where the stores go.
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        var loadError: (any Error)?                  // the handler has run when the call returns (lesson 1)
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }
    // endregion: model-file
}
