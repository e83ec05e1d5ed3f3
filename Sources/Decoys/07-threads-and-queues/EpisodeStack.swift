import KataSupport
import Persistence

/// The contexts of an app that writes in the background and reads on the main queue: the container's main-queue
/// context for the UI, and a private-queue context for writes that is a *child* of it. A child saves into its
/// parent, not into the store, so the UI context sees each background save at once; saving the parent then writes
/// it to the store (lesson 8 has the details).
public final class EpisodeStack {
    /// The container's `viewContext`: reads, and everything the UI shows.
    public let mainContext: ManagedObjectContext
    /// A private-queue child of ``mainContext``: creates, updates, deletes.
    public let backgroundContext: ManagedObjectContext

    // region: complex-stack
    /// Takes a loaded container (the app's, or a test's in-memory one) and sets up its two contexts.
    public init(container: PersistentContainer) throws {
        mainContext = container.viewContext
        if Decoy.isActive("background-on-the-store") {
            backgroundContext = container.newBackgroundContext()        // a sibling of the main context
        } else {
            backgroundContext = ManagedObjectContext(concurrencyType: .privateQueue)
            backgroundContext.parent = mainContext
        }
        if !Decoy.isActive("background-without-merge-policy") {
            backgroundContext.mergePolicy = .mergeByPropertyObjectTrump
        }
        backgroundContext.name = "background"
    }
    // endregion: complex-stack
}
