import Foundation
import KataSupport
import Persistence

/// A throw-away Core Data stack for tests: the Bookshelf model over a private in-memory SQLite store, so each
/// test starts empty, no test sees another's data, and nothing is left on disk.
public final class TestStack {
    public let container: PersistentContainer

    // region: test-stack
    public init(storeURL: URL? = nil) throws {
        container = PersistentContainer(name: BookshelfModel.name, managedObjectModel: try BookshelfModel.shared())
        // `/dev/null` gives this container a store of its own in memory: real SQLite, nothing on disk.
        let url = storeURL ?? URL(fileURLWithPath: "/dev/null")
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
    }
    // endregion: test-stack

    /// The main-queue context; tests run on the main thread, so they may use it directly.
    public var mainContext: ManagedObjectContext { container.viewContext }

    /// A private-queue context on the same store, for code under test that writes in the background.
    public func newBackgroundContext() -> ManagedObjectContext {
        container.newBackgroundContext()
    }
}
