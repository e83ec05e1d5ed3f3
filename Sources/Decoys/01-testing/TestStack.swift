import Foundation
import KataSupport
import Persistence

/// Lesson 1's ``TestStack`` with known mistakes (see `Decoy`).
public final class TestStack {
    public let container: PersistentContainer

    public init() throws {
        // Mistake: every stack builds its own model, so several loaded models claim the same classes.
        let model = Decoy.isActive("model-per-stack") ? try BookshelfModel.make() : try BookshelfModel.shared()
        container = PersistentContainer(name: BookshelfModel.name, managedObjectModel: model)
        var url = URL(fileURLWithPath: "/dev/null")
        // Mistake: every stack opens the same file on disk, as the naive manager does — tests see each other's
        // books and whatever earlier runs left behind.
        if Decoy.isActive("shared-store-file") {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-decoy-bookshelf.sqlite")
        }
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        // Mistake: the container is described but never loaded, so it has no store at all.
        if Decoy.isActive("stack-never-loads") { return }
        nonisolated(unsafe) var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
    }

    public var mainContext: ManagedObjectContext { container.viewContext }

    public func newBackgroundContext() -> ManagedObjectContext {
        container.newBackgroundContext()
    }
}
