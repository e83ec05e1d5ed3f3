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
        // Mistake: nothing to import is taken as nothing to report; the caller waits for ever.
        if Decoy.isActive("import-empty-never-completes") && titles.isEmpty { return }
        if Decoy.isActive("import-on-the-view-context") {
            // Works with the main-queue context on a background thread.
            let context = container.viewContext
            DispatchQueue.global().async {
                let episodes = titles.map { title in
                    let episode = Episode(context: context)
                    episode.title = title
                    return episode
                }
                completion(Result {
                    try context.save()
                    return episodes.map(\.objectID)
                })
            }
            return
        }
        if Decoy.isActive("import-on-the-importers-context") {
            // A private queue on the store, but the importer's long-lived context instead of a context for the task.
            let context = self.context
            context.perform {
                let episodes = titles.map { title in
                    let episode = Episode(context: context)
                    episode.title = title
                    return episode
                }
                do {
                    try context.save()
                    completion(.success(episodes.map(\.objectID)))
                } catch {
                    context.rollback()
                    completion(.failure(error))
                }
            }
            return
        }
        container.performBackgroundTask { context in
            let episodes = titles.map { title in
                let episode = Episode(context: context)
                episode.title = title
                return episode
            }
            // Collected before the save, the IDs are the objects' temporary ones.
            let early = Decoy.isActive("import-reports-temporary-ids") ? episodes.map(\.objectID) : nil
            if Decoy.isActive("import-failure-reported-as-success") {
                try? context.save()                                    // a failed save is not noticed
                completion(.success(episodes.map(\.objectID)))
                return
            }
            if Decoy.isActive("import-failure-never-reported") {
                guard (try? context.save()) != nil else { return }     // the caller waits for ever
                completion(.success(episodes.map(\.objectID)))
                return
            }
            if Decoy.isActive("import-failure-reported-twice") {
                do {
                    try context.save()
                } catch {
                    context.rollback()
                    completion(.failure(error))                        // no return: the success below runs too
                }
                completion(.success(episodes.map(\.objectID)))
                return
            }
            do {
                if Decoy.isActive("import-never-saves") {
                    try context.obtainPermanentIDs(for: episodes)      // real IDs, but nothing written
                } else {
                    try context.save()
                }
                completion(.success(early ?? episodes.map(\.objectID)))
            } catch {
                context.rollback()
                completion(.failure(error))
            }
        }
    }
    // endregion: background-task

    // region: for-display
    /// Inserts and saves the episodes on ``context``, then calls `completion` on the main queue with the same
    /// episodes as objects of the container's `viewContext` (or with the error).
    public func importForDisplay(_ titles: [String],
                                 completion: @escaping @Sendable (Result<[Episode], any Error>) -> Void) {
        let context = self.context
        let viewContext = container.viewContext
        // Mistake: nothing to import is taken as nothing to report; the screen waits for ever.
        if Decoy.isActive("import-for-display-empty-never-completes") && titles.isEmpty { return }
        if Decoy.isActive("import-for-display-waits-for-the-import") {
            // Hands over with perform, but imports with performAndWait: the caller — the main thread — waits for the
            // whole import.
            let ids: [ManagedObjectID]
            do {
                ids = try context.performAndWait {
                    let episodes = titles.map { title in
                        let episode = Episode(context: context)
                        episode.title = title
                        return episode
                    }
                    try context.save()
                    return episodes.map(\.objectID)
                }
            } catch {
                context.performAndWait { context.rollback() }
                DispatchQueue.main.async { completion(.failure(error)) }
                return
            }
            viewContext.perform {
                completion(Result { try ids.compactMap { try viewContext.existingObject(with: $0) as? Episode } })
            }
            return
        }
        if Decoy.isActive("import-for-display-failure-reported-twice") {
            context.perform {
                let episodes = titles.map { title in
                    let episode = Episode(context: context)
                    episode.title = title
                    return episode
                }
                do {
                    try context.save()
                } catch {
                    context.rollback()
                    DispatchQueue.main.async { completion(.failure(error)) }   // no return: the hand-over runs too
                }
                let ids = episodes.map(\.objectID)
                viewContext.perform {
                    completion(Result { try ids.compactMap { try viewContext.existingObject(with: $0) as? Episode } })
                }
            }
            return
        }
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
                if Decoy.isActive("hands-over-background-objects") {
                    // The importer's own objects go to the main queue.
                    nonisolated(unsafe) let objects = episodes
                    DispatchQueue.main.async { completion(.success(objects)) }
                    return
                }
            } catch {
                // Mistake "import-for-display-without-rollback": the failed insert stays in the importer's context,
                // and every later import fails with it.
                if !Decoy.isActive("import-for-display-without-rollback") { context.rollback() }
                // Mistake "import-for-display-failure-off-the-main-queue": the failure is reported on this queue.
                if Decoy.isActive("import-for-display-failure-off-the-main-queue") {
                    completion(.failure(error))
                } else {
                    DispatchQueue.main.async { completion(.failure(error)) }
                }
                return
            }
            // Hand the IDs over and return: `perform`, not `performAndWait`. This queue never waits for the main
            // one, so the main thread may wait for this queue without a deadlock.
            if Decoy.isActive("waits-for-the-main-queue") {
                // This queue now waits for the main one: a deadlock whenever the main thread waits for this queue.
                viewContext.performAndWait {
                    completion(Result { try ids.compactMap { try viewContext.existingObject(with: $0) as? Episode } })
                }
                return
            }
            if Decoy.isActive("hands-over-with-main-sync") {
                // Waits on this queue for the main queue: a deadlock whenever the main thread waits for this queue.
                DispatchQueue.main.sync {
                    completion(Result { try ids.compactMap { try viewContext.existingObject(with: $0) as? Episode } })
                }
                return
            }
            if Decoy.isActive("completion-on-the-background-queue") {
                // Looks the objects up in the viewContext, but on this queue, and calls the completion here.
                completion(Result { try ids.compactMap { try viewContext.existingObject(with: $0) as? Episode } })
                return
            }
            if Decoy.isActive("hands-over-by-title") {
                // Hands over nothing but the titles and finds the episodes again in the view context by title,
                // ordered in Swift: any older episode with the same title is as good a match.
                viewContext.perform {
                    completion(Result {
                        let request = FetchRequest<Episode>(entityName: "Episode")
                        request.predicate = FetchPredicate(format: "title IN %@", titles)
                        let found = try viewContext.fetch(request)
                        return titles.compactMap { title in found.first { $0.title == title } }
                    })
                }
                return
            }
            viewContext.perform {
                completion(Result { try ids.compactMap { try viewContext.existingObject(with: $0) as? Episode } })
            }
        }
    }
    // endregion: for-display
}
