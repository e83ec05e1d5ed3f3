import KataSupport
import Persistence

/// The contexts of an app that writes in the background and reads on the main queue, arranged as Apple recommends:
/// the container's main-queue `viewContext` for the UI, and a private-queue context of its own for writes, a
/// *sibling* of the view context on the same coordinator.
public final class EpisodeStack {
    /// The container's `viewContext`: reads, and everything the UI shows. Merges background saves automatically.
    public let mainContext: ManagedObjectContext
    /// A private-queue context on the store (no parent): creates, updates, deletes.
    public let backgroundContext: ManagedObjectContext
    /// The hand-made merger of "merges-by-hand-waiting-for-the-main-queue".
    private var observer: (any NSObjectProtocol)?

    /// Takes a loaded container (the app's, or a test's in-memory one) and sets up its two contexts.
    public init(container: PersistentContainer) throws {
        mainContext = container.viewContext
        if !Decoy.isActive("merging-not-switched-on") && !Decoy.isActive("merging-switched-on-the-background-context")
            && !Decoy.isActive("merges-by-hand-waiting-for-the-main-queue") {
            mainContext.automaticallyMergesChangesFromParent = true
        }
        if Decoy.isActive("background-child-of-the-view-context") {
            // The "complex" arrangement: its saves stop in the view context, in memory.
            backgroundContext = ManagedObjectContext(.privateQueue)
            backgroundContext.parent = mainContext
        } else if Decoy.isActive("background-is-the-view-context") {
            backgroundContext = container.viewContext          // writes on the main queue
        } else {
            backgroundContext = container.newBackgroundContext()
        }
        if Decoy.isActive("merging-switched-on-the-background-context") {
            // The switch on the context that writes, not on the one that must take in the writes.
            backgroundContext.automaticallyMergesChangesFromParent = true
        }
        backgroundContext.name = "background"
        if Decoy.isActive("merges-by-hand-waiting-for-the-main-queue") {
            // Instead of the switch, a did-save observer that merges into the view context with performAndWait from
            // the saving context's queue: that queue now waits for the main one.
            let main = mainContext
            observer = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveObjectsNotification, object: backgroundContext, queue: nil
            ) { note in
                nonisolated(unsafe) let note = note
                main.performAndWait { main.mergeChanges(fromContextDidSave: note) }
            }
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }
}
