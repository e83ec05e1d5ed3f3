import KataSupport
import Persistence

/// The contexts of an app that writes in the background and reads on the main queue, arranged as Apple recommends:
/// the container's main-queue context for the UI, and a private-queue context for writes that saves straight to
/// the store — with the UI context taking in those saves by itself.
///
/// Lesson 7, kata 1. Check with `swift run lessons check 7`.
public final class EpisodeStack {
    /// The container's `viewContext`: reads, and everything the UI shows. It must show the background context's
    /// saves without anyone refetching.
    public let mainContext: ManagedObjectContext
    /// A private-queue context for creates, updates and deletes, attached to the store (a sibling of
    /// ``mainContext``, not its child).
    public let backgroundContext: ManagedObjectContext

    /// Takes a loaded container (the app's, or a test's in-memory one) and sets up its two contexts.
    public init(container: PersistentContainer) throws {
        throw KataNotDone(lesson: 7)
    }
}
