import Foundation
import KataSupport
import Persistence

/// Writes on a background context, reads on the main one. Both contexts are injected, so tests hand it the
/// contexts of an in-memory store: the container's `viewContext` and a background context on the same store.
/// Every method may be called from any thread: each context is used only inside its own
/// `perform`/`performAndWait`, and only object IDs cross between them.
public final class EpisodeManager: Sendable {
    public let mainContext: ManagedObjectContext
    public let backgroundContext: ManagedObjectContext

    public init(mainContext: ManagedObjectContext, backgroundContext: ManagedObjectContext) {
        self.mainContext = mainContext
        self.backgroundContext = backgroundContext
    }

    /// Inserts an episode on the background context's queue and saves it to the store.
    public func add(title: String) throws {
        let background = backgroundContext
        if Decoy.isActive("add-episode-off-queue") {
            // Uses the private-queue context on whatever thread the caller is on.
            let episode = Episode(context: background)
            episode.title = title
            try Self.saveOrRollback(background)
        } else if Decoy.isActive("add-episode-with-perform") {
            // Queues the work and returns before it has run.
            background.perform {
                let episode = Episode(context: background)
                episode.title = title
                try? Self.saveOrRollback(background)
            }
        } else if Decoy.isActive("add-episode-waits-on-a-semaphore") {
            // Waits by hand for work queued on the background queue: a deadlock when called on that queue.
            let done = DispatchSemaphore(value: 0)
            background.perform {
                let episode = Episode(context: background)
                episode.title = title
                try? Self.saveOrRollback(background)
                done.signal()
            }
            done.wait()
        } else if Decoy.isActive("add-episode-saves-the-main-context") {
            // Inserts on the right queue, then saves the context the UI reads instead of the one that holds it.
            background.performAndWait {
                let episode = Episode(context: background)
                episode.title = title
            }
            let main = mainContext
            try main.performAndWait { try Self.saveOrRollback(main) }
        } else if Decoy.isActive("add-episode-ignores-a-failed-save") {
            // The right context and queue, but a failed save is dropped: the caller hears nothing of it.
            background.performAndWait {
                let episode = Episode(context: background)
                episode.title = title
                try? background.save()
            }
        } else if Decoy.isActive("add-episode-replaces-the-error") {
            // Rolls back, but throws an error of its own: the save's validation error (1570 and its details) is lost.
            do {
                try background.performAndWait {
                    let episode = Episode(context: background)
                    episode.title = title
                    try Self.saveOrRollback(background)
                }
            } catch {
                throw CocoaError(.fileWriteUnknown)
            }
        } else if Decoy.isActive("add-episode-without-rollback") {
            // Throws a failed save on, but leaves its changes behind: every later save fails with them.
            try background.performAndWait {
                let episode = Episode(context: background)
                episode.title = title
                try background.save()
            }
        } else if Decoy.isActive("add-episode-on-the-main-context") {
            // The right queue for the context it uses — but it is the main one: the write blocks the UI.
            let main = mainContext
            try main.performAndWait {
                let episode = Episode(context: main)
                episode.title = title
                try Self.saveOrRollback(main)
            }
        } else {
            try background.performAndWait {
                let episode = Episode(context: background)
                episode.title = title
                try Self.saveOrRollback(background)
            }
        }
    }

    /// Marks as listened the episode with this ID, on the background context: only the ID crosses over; the
    /// background context looks up its own copy.
    public func markListened(_ episodeID: ManagedObjectID) throws {
        let main = mainContext
        if Decoy.isActive("mark-listened-on-the-main-context") {
            // Changes and saves the main context's copy on its own (main) queue: the write blocks the UI.
            try main.performAndWait {
                guard let object = try main.existingObject(with: episodeID) as? Episode else { return }
                object.listened = true
                try Self.saveOrRollback(main)
            }
            return
        }
        if Decoy.isActive("mark-listened-copies-to-the-view-context") {
            // Brings the UI's copy up to date by hand instead of letting the view context merge the save.
            try main.performAndWait {
                (try main.existingObject(with: episodeID) as? Episode)?.listened = true
            }
        }
        let background = backgroundContext
        if Decoy.isActive("mark-listened-with-perform") {
            // Queues the change and returns at once: a block given to perform cannot throw, so a failed save is
            // rolled back in there and never reaches the caller.
            background.perform {
                guard let mine = try? background.existingObject(with: episodeID) as? Episode else { return }
                mine.listened = true
                do { try background.save() } catch { background.rollback() }
            }
            return
        }
        try background.performAndWait {
            if Decoy.isActive("mark-listened-on-callers-object") {
                // Looks the ID up in the main context and changes that object on the background queue.
                (try main.existingObject(with: episodeID) as? Episode)?.listened = true
            } else if Decoy.isActive("mark-listened-object-with") {
                // Mistake: object(with:) hands back a fault without asking the store; setting a value fires it on a
                // row that may be gone. The save afterwards fails, is rolled back and thrown: the caller hears an error.
                (background.object(with: episodeID) as? Episode)?.listened = true
            } else if Decoy.isActive("mark-listened-gone-ignored") {
                // Mistake: a lookup that fails is taken as "nothing to do", so for an episode deleted meanwhile the
                // call returns as if it had marked it.
                guard let mine = try? background.existingObject(with: episodeID) as? Episode else { return }
                mine.listened = true
            } else {
                guard let mine = try background.existingObject(with: episodeID) as? Episode else { return }
                mine.listened = true
            }
            if Decoy.isActive("mark-listened-saves-the-main-context") {
                return                               // the change waits in the background context, unsaved…
            }
            if Decoy.isActive("mark-listened-ignores-a-failed-save") {
                try? background.save()               // a failed save returns as if the episode were marked
                return
            }
            if Decoy.isActive("mark-listened-without-rollback") {
                try background.save()                // thrown on, but the failed changes stay in the context
                return
            }
            if Decoy.isActive("mark-listened-replaces-the-error") {
                // Rolls back, but the caller gets an error of the manager's own, not the save's.
                do { try Self.saveOrRollback(background) } catch { throw CocoaError(.fileWriteUnknown) }
                return
            }
            try Self.saveOrRollback(background)
        }
        if Decoy.isActive("mark-listened-saves-the-main-context") {
            try main.performAndWait { try Self.saveOrRollback(main) }   // …while the wrong context saves
        }
    }

    /// The titles of the episodes not listened to yet, sorted, read on the main context — from any thread or task.
    public func unlistenedTitles() async throws -> [String] {
        let main = mainContext
        if Decoy.isActive("titles-fetched-off-queue") {
            // Document 000's "BAD" example: the main context fetched on whatever thread runs this task.
            let request: FetchRequest<Episode> = Episode.fetchRequest()
            request.predicate = FetchPredicate(format: "listened == %@", NSNumber(value: false))
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.title, ascending: true)]
            return try main.fetch(request).map(\.title)
        }
        if Decoy.isActive("titles-read-outside-the-block") {
            // Fetches on the right queue, but the episodes leave the block and their titles are read on this task's
            // thread (document 000's BAD example, where the block's caller uses what it returns).
            let episodes = try main.performAndWait {
                let request: FetchRequest<Episode> = Episode.fetchRequest()
                request.predicate = FetchPredicate(format: "listened == %@", NSNumber(value: false))
                request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.title, ascending: true)]
                return try main.fetch(request)
            }
            return episodes.map(\.title)
        }
        if Decoy.isActive("titles-fetched-on-the-background-context") {
            // A context on its own queue, but the wrong one: the background context does not see what the main
            // context holds unsaved.
            let background = backgroundContext
            return try await background.perform {
                let request: FetchRequest<Episode> = Episode.fetchRequest()
                request.predicate = FetchPredicate(format: "listened == %@", NSNumber(value: false))
                request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.title, ascending: true)]
                return try background.fetch(request).map(\.title)
            }
        }
        return try await main.perform {
            let request: FetchRequest<Episode> = Episode.fetchRequest()
            // Mistake: on the right queue, but every episode is fetched and Swift picks and sorts the titles.
            if Decoy.isActive("titles-filtered-in-swift") {
                return try main.fetch(request).filter { !$0.listened }.map(\.title).sorted()
            }
            // Mistake: the predicate is there, the order is not: Swift sorts the titles the store returned.
            if Decoy.isActive("titles-sorted-in-swift") {
                request.predicate = FetchPredicate(format: "listened == %@", NSNumber(value: false))
                return try main.fetch(request).map(\.title).sorted()
            }
            if !Decoy.isActive("listened-ignored") {
                request.predicate = FetchPredicate(format: "listened == %@", NSNumber(value: false))
            }
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.title, ascending: true)]
            return try main.fetch(request).map(\.title)
        }
    }

    private static func saveOrRollback(_ context: ManagedObjectContext) throws {
        do {
            try context.save()
        } catch {
            context.rollback()
            throw error
        }
    }
}
