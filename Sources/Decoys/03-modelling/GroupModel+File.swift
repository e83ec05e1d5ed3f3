import Foundation
import KataSupport
@_spi(ModelLoading) import Persistence

extension GroupModel {
    public static func containerFromModelFile(named name: String = GroupModelFile.name) throws -> PersistentContainer {
        // Mistake: the model is named by its file name, extension and all.
        let modelName = Decoy.isActive("model-named-with-extension") ? name + ".xcdatamodeld" : name
        let container: PersistentContainer
        if Decoy.isActive("trusts-load-error") {
            // Mistake: the container is made by name and the load handler is trusted to report a missing model.
            container = PersistentContainer(name: modelName, bundle: GroupModelFile.bundle)
        } else if Decoy.isActive("code-model-beside-file") {
            // Mistake: the file is looked up, so a wrong name still throws, but the model handed over is the one
            // written in code: the container works, and whatever is drawn in the file never reaches it.
            guard GroupModelFile.bundle.url(forResource: modelName, withExtension: "xcdatamodeld") != nil else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "\(modelName).xcdatamodeld"])
            }
            container = PersistentContainer(name: modelName, managedObjectModel: try GroupModel.make())
        } else {
            guard let url = GroupModelFile.bundle.url(forResource: modelName, withExtension: "xcdatamodeld"),
                  let model = ManagedObjectModel(contentsOf: url) else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "\(modelName).xcdatamodeld"])
            }
            container = PersistentContainer(name: modelName, managedObjectModel: model)
        }
        let inMemory = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        // Mistake: the store keeps the default description, a file in the user's data folder.
        if !Decoy.isActive("store-on-disk") && !Decoy.isActive("memory-after-load") {
            container.persistentStoreDescriptions = inMemory
        }
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        // Mistake: the descriptions are changed after loading, when the file store is already open.
        if Decoy.isActive("memory-after-load") { container.persistentStoreDescriptions = inMemory }
        if let loadError { throw loadError }
        return container
    }
}
