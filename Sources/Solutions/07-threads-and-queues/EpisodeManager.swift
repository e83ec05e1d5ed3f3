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

    /// Inserts an episode on the background context's queue and saves it to the store. A failed save is rolled back
    /// (a long-lived context would fail every later save with it) and thrown.
    public func add(title: String) throws {
        let background = backgroundContext
        try background.performAndWait {            // re-entrant: fine even when called on this queue already
            let episode = Episode(context: background)
            episode.title = title
            try Self.saveOrRollback(background)
        }
    }

    /// Marks as listened the episode with this ID, on the background context: only the ID crosses over (it may be
    /// read anywhere and handed to any context); the background context looks up its own copy.
    public func markListened(_ episodeID: ManagedObjectID) throws {
        let background = backgroundContext
        try background.performAndWait {
            guard let mine = try background.existingObject(with: episodeID) as? Episode else { return }
            mine.listened = true
            try Self.saveOrRollback(background)
        }
    }

    /// The titles of the episodes not listened to yet, sorted, read on the main context — from any thread or task.
    public func unlistenedTitles() async throws -> [String] {
        let main = mainContext
        return try await main.perform {
            let request: FetchRequest<Episode> = Episode.fetchRequest()
            request.predicate = FetchPredicate(format: "listened == %@", NSNumber(value: false))
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.title, ascending: true)]
            return try main.fetch(request).map(\.title)    // values leave the block, never the objects
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
