import KataSupport
import Persistence

/// The contexts of an app that writes in the background and reads on the main queue — document 003's "complex"
/// set-up.
///
/// Lesson 7, kata 1. Check with `swift run lessons check 7`.
public final class EpisodeStack {
    /// The container's `viewContext`: reads, and everything the UI shows.
    public let mainContext: ManagedObjectContext
    /// A private-queue context for creates, updates and deletes: a *child* of ``mainContext``, whose changes win
    /// (property by property) when they meet the main context's.
    public let backgroundContext: ManagedObjectContext

    /// Takes a loaded container (the app's, or a test's in-memory one) and sets up its two contexts.
    public init(container: PersistentContainer) throws {
        throw KataNotDone(lesson: 7)
    }
}
