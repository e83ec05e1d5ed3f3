import Foundation
import Persistence

/// Keeps a container's view context current with the saves of other contexts: by hand, from one context's
/// did-save notifications, or automatically.
public final class ViewContextMerger {
    public let viewContext: ManagedObjectContext
    /// The did-save observer of ``mergeSaves(of:)``; ``stop()`` removes it.
    private var observer: (any NSObjectProtocol)?

    public init(container: PersistentContainer) {
        viewContext = container.viewContext
    }

    // region: merge-by-hand
    /// From now on, merges every save of `other` into the view context, on the view context's queue.
    public func mergeSaves(of other: ManagedObjectContext) throws {
        stop()                                // one observer, or every save is merged twice
        let viewContext = self.viewContext    // the block holds the view context, never the merger
        observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: other, queue: nil
        ) { note in
            // Here we are on `other`'s queue. The merge belongs on the view context's queue, later.
            // Notification is not Sendable; this one may cross because merging reads only its object IDs.
            nonisolated(unsafe) let note = note
            viewContext.perform {
                viewContext.mergeChanges(fromContextDidSave: note)
            }
        }
    }
    // endregion: merge-by-hand

    // region: merge-automatically
    /// From now on, the view context merges the saves of every other context on the same coordinator by itself.
    public func mergeAutomatically() throws {
        viewContext.automaticallyMergesChangesFromParent = true
    }
    // endregion: merge-automatically

    /// Stops merging by hand.
    public func stop() {
        if let observer { NotificationCenter.default.removeObserver(observer) }
        observer = nil
    }

    deinit { stop() }
}
