import Foundation
import KataSupport
import Persistence

/// The arrangement of *Practical Core Data* (document 000): a private-queue *writer* context on the coordinator,
/// the only context that writes to the store, and a main-queue context for the UI that is its child.
///
/// Lesson 7, katas 6–7. Check with `swift run lessons check 7`.
public final class WriterStack: Sendable {
    /// The private-queue context on the coordinator: it alone saves to the store.
    public let writerContext: ManagedObjectContext
    /// A main-queue child of ``writerContext``: reads, edits, and everything the UI shows.
    public let mainContext: ManagedObjectContext

    /// Takes a loaded container (the app's, or a test's in-memory one) and sets up the two contexts.
    public init(container: PersistentContainer) throws {
        throw KataNotDone(lesson: 7)
    }

    /// Call on the main queue. Saves what the main context holds all the way to the store, without making the main
    /// queue wait while the store is written, and calls `completion` once with the outcome, after that write — a
    /// failed save, of either context, as a failure. When the store write fails, the main context no longer holds
    /// what failed by the time the failure is reported. The main context's new objects come out of it with IDs that
    /// any context can look up.
    public func save(completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        completion(.failure(KataNotDone(lesson: 7)))
    }
}
