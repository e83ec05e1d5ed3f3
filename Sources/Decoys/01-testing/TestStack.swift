import Foundation
import KataSupport
import Persistence

/// Lesson 1's ``TestStack`` with known mistakes (see `Decoy`).
public final class TestStack {
    public let container: PersistentContainer

    public init(storeURL: URL? = nil) throws {
        // Mistake: every stack builds its own model, so several loaded models claim the same classes.
        let model = Decoy.isActive("model-per-stack") ? try BookshelfModel.make() : try BookshelfModel.shared()
        container = PersistentContainer(name: BookshelfModel.name, managedObjectModel: model)
        var url = storeURL ?? URL(fileURLWithPath: "/dev/null")
        // Mistake: always /dev/null — the URL a test hands in is dropped, so its store is never where it asked.
        if Decoy.isActive("stack-ignores-store-url") { url = URL(fileURLWithPath: "/dev/null") }
        // Mistake: every stack opens the same file on disk, as the naive manager does — tests see each other's
        // books and whatever earlier runs left behind.
        if Decoy.isActive("shared-store-file"), storeURL == nil {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-decoy-bookshelf.sqlite")
        }
        // Mistake: the file a test hands in is deleted first "so the stack starts empty" — which destroys the one
        // thing such a file is for, a store reopened as after a relaunch.
        if Decoy.isActive("stack-deletes-store-file"), let storeURL {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storeURL.path + suffix) }
        }
        let description = PersistentStoreDescription(url: url)
        // Mistake: the classic test set-up, Core Data's in-memory store type. On Apple platforms it is not SQLite:
        // batch requests and persistent history fail there, and predicates the app's SQLite store refuses pass.
        if Decoy.isActive("stack-in-memory-store-type"), storeURL == nil {
            description.type = NSInMemoryStoreType
        }
        container.persistentStoreDescriptions = [description]
        // Mistake: the container is described but never loaded, so it has no store at all.
        if Decoy.isActive("stack-never-loads") { return }
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in
            // Mistake: the error is printed, as sample code does, and the test goes on with a stack without a store.
            if let error, Decoy.isActive("stack-prints-load-error") { print("could not load the test store: \(error)") }
            loadError = error
        }
        // Mistake: the load error is swapped for one of the stack's own, which tells a failing test only that
        // something went wrong, not which file problem it was.
        if loadError != nil, Decoy.isActive("stack-wraps-load-error") { throw StackFailure.loadFailed }
        if let loadError, !Decoy.isActive("stack-prints-load-error") { throw loadError }
    }

    /// The decoy's own error type (`stack-wraps-load-error`).
    enum StackFailure: Error { case loadFailed }

    public var mainContext: ManagedObjectContext { container.viewContext }

    public func newBackgroundContext() -> ManagedObjectContext {
        container.newBackgroundContext()
    }
}
