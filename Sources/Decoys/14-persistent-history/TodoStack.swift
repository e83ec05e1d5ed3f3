import Foundation
import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public enum TodoStack {
    public static func makeContainer(storeURL: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: TodoModel.name, managedObjectModel: try TodoModel.shared())
        var description = PersistentStoreDescription(url: storeURL)
        if Decoy.isActive("history-stack-ignores-store-url"), let byDefault = container.persistentStoreDescriptions.first {
            // The container's own description, options added: the store opens at the container's default place,
            // not in the app group the widget and the import share.
            description = byDefault
        }
        if !Decoy.isActive("history-option-after-loading") {
            description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        }
        if !Decoy.isActive("stack-without-remote-changes") {
            description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        }
        container.persistentStoreDescriptions = [description]
        nonisolated(unsafe) var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        if Decoy.isActive("history-option-after-loading") {
            // Too late: the store read its options when it opened, and keeps no history.
            description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        }
        container.viewContext.name = "viewContext"
        if !Decoy.isActive("view-context-unsigned") {
            container.viewContext.transactionAuthor = TodoAuthor.app
        }
        return container
    }
}
