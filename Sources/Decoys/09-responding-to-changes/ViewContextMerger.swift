import Foundation
import Persistence

/// Lesson 9's ``ViewContextMerger`` with known mistakes (see `Decoy`).
public final class ViewContextMerger {
    public let viewContext: ManagedObjectContext
    private var observer: (any NSObjectProtocol)?
    private let container: PersistentContainer

    public init(container: PersistentContainer) {
        viewContext = container.viewContext
        self.container = container
    }

    public func mergeSaves(of other: ManagedObjectContext) throws {
        // Mistake: set up again, the merger registers a second observer and loses the first one's token.
        if !Decoy.isActive("merge-registers-twice") { stop() }
        if Decoy.isActive("merge-block-keeps-the-merger") {
            // Mistake: the block reaches the view context through the merger, so it holds the merger: never freed,
            // its deinit never removes the observer, and it merges for ever.
            nonisolated(unsafe) let merger = self
            observer = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveObjectsNotification, object: other, queue: nil
            ) { note in
                nonisolated(unsafe) let note = note
                let viewContext = merger.viewContext
                viewContext.perform { viewContext.mergeChanges(fromContextDidSave: note) }
            }
            return
        }
        let viewContext = self.viewContext
        // Mistake: nil hears every context that saves, of every store.
        var sender: ManagedObjectContext? = Decoy.isActive("merge-every-context") ? nil : other
        // Mistake: observes the context that has to stay current, as if it announced the saves it should hear of.
        if Decoy.isActive("merge-observes-view-context") { sender = viewContext }
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: sender, queue: nil
        ) { note in
            // Mistake: the merge runs here, on the saving context's queue.
            if Decoy.isActive("merge-off-queue") { return viewContext.mergeChanges(fromContextDidSave: note) }
            nonisolated(unsafe) let note = note
            // Mistake: the saving context's queue waits for the main queue, which may be waiting for it.
            if Decoy.isActive("merge-waits-on-view-queue") {
                return viewContext.performAndWait { viewContext.mergeChanges(fromContextDidSave: note) }
            }
            viewContext.perform {
                // Mistake: refreshing re-reads what the context holds; it learns nothing of new or deleted objects.
                if Decoy.isActive("merge-refreshes-instead") { return viewContext.refreshAllObjects() }
                if Decoy.isActive("merge-registers-by-fetching") {
                    // Mistake: merges the updates and deletions, and "registers" the new objects by fetching them,
                    // as if a fetch kept them in the context: nobody holds them, so they are gone again, and the
                    // context's observers were never told of them.
                    let ids = [ManagedObjectContext.NotificationKey.updatedObjects, .deletedObjects].reduce(
                        into: [AnyHashable: Any]()) { info, key in
                        info[key.rawValue] = (note.userInfo?[key.rawValue] as? Set<ManagedObject>)?.map(\.objectID) ?? []
                    }
                    ManagedObjectContext.mergeChanges(fromRemoteContextSave: ids, into: [viewContext])
                    _ = try? viewContext.fetch(FetchRequest<ManagedObject>(entityName: "Plant"))
                    return
                }
                viewContext.mergeChanges(fromContextDidSave: note)
            }
        }
        // Mistake: the token is not kept, so stop() cannot remove the observer, which goes on merging.
        if !Decoy.isActive("merge-observer-not-kept") { observer = token }
    }

    public func mergeAutomatically() throws {
        // Mistake: switched on for a background context, which is not the one that has to stay current.
        let target = Decoy.isActive("auto-merge-on-background") ? container.newBackgroundContext() : viewContext
        target.automaticallyMergesChangesFromParent = true
    }

    public func stop() {
        if let observer { NotificationCenter.default.removeObserver(observer) }
        observer = nil
    }

    deinit { stop() }
}
