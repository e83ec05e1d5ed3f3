import Foundation
import KataSupport
import Persistence

/// Imports episodes in the background — the work an app does when a feed arrives from the network — and hands the
/// results to the main queue without ever waiting for it.
public final class EpisodeImporter: Sendable {
    public let container: PersistentContainer
    /// The importer's own private-queue context, used by ``importForDisplay(_:completion:)``.
    public let context: ManagedObjectContext

    public init(container: PersistentContainer) {
        self.container = container
        context = container.newBackgroundContext()
    }

    // region: background-task
    /// Inserts one episode per title on a new background context and saves it. Calls `completion` on that context's
    /// queue with the saved episodes' IDs — permanent ones, which any context can look up — or with the error.
    public func importEpisodes(_ titles: [String],
                               completion: @escaping @Sendable (Result<[ManagedObjectID], any Error>) -> Void) {
        container.performBackgroundTask { context in
            let episodes = titles.map { title in
                let episode = Episode(context: context)
                episode.title = title
                return episode
            }
            do {
                try context.save()
                completion(.success(episodes.map(\.objectID)))     // after the save: the IDs are permanent now
            } catch {
                context.rollback()
                completion(.failure(error))
            }
        }
    }
    // endregion: background-task

    // region: for-display
    /// Inserts and saves the episodes on ``context``, then calls `completion` on the main queue with the same
    /// episodes as objects of the container's `viewContext` (or with the error, on the main queue too, after rolling
    /// ``context`` back). Returns at once: the caller never waits for the import.
    public func importForDisplay(_ titles: [String],
                                 completion: @escaping @Sendable (Result<[Episode], any Error>) -> Void) {
        let context = self.context
        let viewContext = container.viewContext
        context.perform {
            let ids: [ManagedObjectID]
            do {
                let episodes = titles.map { title in
                    let episode = Episode(context: context)
                    episode.title = title
                    return episode
                }
                try context.save()
                ids = episodes.map(\.objectID)
            } catch {
                context.rollback()
                DispatchQueue.main.async { completion(.failure(error)) }
                return
            }
            // Hand the IDs over and return: `perform`, not `performAndWait`. This queue never waits for the main
            // one, so the main thread may wait for this queue without a deadlock.
            viewContext.perform {
                completion(Result { try ids.compactMap { try viewContext.existingObject(with: $0) as? Episode } })
            }
        }
    }
    // endregion: for-display
}
