import Foundation
import KataSupport
import Persistence

/// Imports episodes in the background — the work an app does when a feed arrives from the network — and hands the
/// results on without ever waiting for the main queue.
///
/// Lesson 7, katas 8–9. Check with `swift run lessons check 7`.
public final class EpisodeImporter: Sendable {
    public let container: PersistentContainer
    /// The importer's own private-queue context, used by ``importForDisplay(_:completion:)``.
    public let context: ManagedObjectContext

    public init(container: PersistentContainer) {
        self.container = container
        context = container.newBackgroundContext()
    }

    /// Inserts one episode per title on a new background context (the container makes one for the task) and saves
    /// it. Calls `completion` on that context's queue with the saved episodes' IDs, in the order of the titles —
    /// IDs any context can look up — or with the error of a save that failed. Calls it once either way.
    public func importEpisodes(_ titles: [String],
                               completion: @escaping @Sendable (Result<[ManagedObjectID], any Error>) -> Void) {
        completion(.failure(KataNotDone(lesson: 7)))
    }

    /// Inserts and saves the episodes on ``context``, then calls `completion` on the main queue with the same
    /// episodes, in the order of the titles, as objects of the container's `viewContext` (or with the error, on the
    /// main queue too, leaving ``context`` as it was at its last save). Returns at once: its caller, usually the main
    /// thread, never waits for the import.
    public func importForDisplay(_ titles: [String],
                                 completion: @escaping @Sendable (Result<[Episode], any Error>) -> Void) {
        completion(.failure(KataNotDone(lesson: 7)))
    }
}
