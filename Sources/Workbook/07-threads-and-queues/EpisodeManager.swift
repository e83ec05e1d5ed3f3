import Foundation
import KataSupport
import Persistence

/// Writes on a background context, reads on the main one. Both contexts are injected, so tests hand it the
/// contexts of an in-memory store: the container's `viewContext` and a background context on the same store.
/// Every method may be called from any thread or task: use each context only inside its own
/// `perform`/`performAndWait`, and let only object IDs cross between them.
///
/// Lesson 7, katas 2–5. Check with `swift run lessons check 7`.
public final class EpisodeManager: Sendable {
    public let mainContext: ManagedObjectContext
    public let backgroundContext: ManagedObjectContext

    public init(mainContext: ManagedObjectContext, backgroundContext: ManagedObjectContext) {
        self.mainContext = mainContext
        self.backgroundContext = backgroundContext
    }

    /// Inserts an episode and saves it to the store — the work done by the background context, on its queue.
    /// Returns when that is done, even when called on the background context's own queue. When the save fails, throws
    /// its error and leaves the background context as it was at its last save, so that its next save starts clean.
    public func add(title: String) throws {
        throw KataNotDone(lesson: 7)
    }

    /// Marks as listened the episode with this ID — the caller's object stays with the caller (usually on the main
    /// context's queue); only its `objectID` is handed over. The change is made and saved by the background context,
    /// and the method returns when that is done. Throws when there is no such episode in the store any more; when
    /// the save fails, throws its error and leaves the background context as it was at its last save.
    public func markListened(_ episodeID: ManagedObjectID) throws {
        throw KataNotDone(lesson: 7)
    }

    /// The titles of the episodes not listened to yet, sorted by title, read on the main context.
    public func unlistenedTitles() async throws -> [String] {
        throw KataNotDone(lesson: 7)
    }
}
