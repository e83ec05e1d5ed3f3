import Foundation
import KataSupport
import Persistence

/// The to-do app's stack. The app, its widget and its calendar import all write to one store file, so the store
/// keeps a persistent history of every transaction and tells the app when the file changes.
public enum TodoStack {
    /// A loaded container on the store at `storeURL` (`/dev/null` for a private in-memory store), recording
    /// persistent history from its first open and posting remote-change notifications; the view context signs
    /// its saves as ``TodoAuthor/app``. On Apple's platforms the stack also sets the view context's
    /// `stalenessInterval` to 0, so that a merge of another writer's changes is never filled from cached row data
    /// (lesson 11); Persistence keeps no row cache and has no such property, so there is nothing to set here.
    public static func makeContainer(storeURL: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: TodoModel.name, managedObjectModel: try TodoModel.shared())
        let description = PersistentStoreDescription(url: storeURL)
        // Both options before the store is loaded: the store reads them once, when it opens.
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        description.setOption(true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        container.persistentStoreDescriptions = [description]
        nonisolated(unsafe) var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        container.viewContext.name = "viewContext"
        container.viewContext.transactionAuthor = TodoAuthor.app
        return container
    }
}
