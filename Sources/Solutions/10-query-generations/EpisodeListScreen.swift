import Foundation
import KataSupport
import Persistence

/// The episode list of a podcast app, on the container's main-queue context. While an import saves the feed page by
/// page in the background, the list is pinned to a snapshot of the store, so rows do not come and go under the
/// user's finger; when the import ends, it moves to the newest data in one step.
public final class EpisodeListScreen {
    /// The screen's context: the container's `viewContext` (main queue).
    public let context: ManagedObjectContext
    /// The container, for writing through a context of the screen's own while the list is pinned.
    public let container: PersistentContainer
    /// The episodes the list shows, by number, as of the last ``reload()``.
    public private(set) var episodes: [Episode] = []
    /// Whether the context merged other contexts' saves automatically before the import; restored after it.
    private var mergedAutomatically = false
    /// Whether an import is under way: between ``importWillStart()`` and ``importDidFinish()``.
    private var importing = false

    public init(container: PersistentContainer) {
        self.container = container
        context = container.viewContext
    }

    // region: reload
    /// Fetches the episodes again, by number, from whatever generation the context reads.
    public func reload() throws {
        let request: FetchRequest<Episode> = Episode.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.number, ascending: true)]
        episodes = try context.fetch(request)
    }
    // endregion: reload

    // region: import-will-start
    /// Pins the list to the store as it is now, before the import saves its first page.
    public func importWillStart() throws {
        // A merge moves a pinned context to the newest data, so automatic merging is off while the list is pinned.
        // A second call during the import (another tap on refresh) finds it off: keep what the first call found.
        if !importing { mergedAutomatically = context.automaticallyMergesChangesFromParent }
        importing = true
        context.automaticallyMergesChangesFromParent = false
        try context.setQueryGenerationFrom(.current)
        try reload()            // .current takes its snapshot at the first read: read now, not after page 1
    }
    // endregion: import-will-start

    // region: import-did-finish
    /// Moves the list to the newest data: what the import inserted, changed and deleted.
    public func importDidFinish() throws {
        try context.setQueryGenerationFrom(.current)
        context.refreshAllObjects()         // objects in memory still hold their snapshot values
        try reload()
        context.automaticallyMergesChangesFromParent = mergedAutomatically
        importing = false
    }
    // endregion: import-did-finish

    // region: episode-with-id
    /// The screen's episode for `id` (a detail view opened from a link), or nil when the generation the screen
    /// reads has no such episode, or when the screen has deleted it and not saved yet.
    public func episode(with id: ManagedObjectID) throws -> Episode? {
        // existingObject(with:) hands back a registered object as it is, deleted or not.
        guard let episode = try? context.existingObject(with: id) as? Episode, !episode.isDeleted else { return nil }
        return episode
    }
    // endregion: episode-with-id

    // region: title-of
    /// The title of an episode the screen holds, or nil when its row is gone from the generation the context reads
    /// — without firing a fault for a row that is gone, so it works whatever `shouldDeleteInaccessibleFaults` says.
    /// The store is asked, not the context: a loaded episode reads its old values whatever happened to its row.
    public func title(of episode: Episode) throws -> String? {
        let stillThere: FetchRequest<Episode> = Episode.fetchRequest()
        stillThere.predicate = FetchPredicate(format: "SELF == %@", episode.objectID)
        guard try context.count(for: stillThere) == 1 else { return nil }
        return episode.title
    }
    // endregion: title-of

    // region: mark-listened
    /// Marks an episode as heard and saves that, without moving the list off its snapshot: the write goes through a
    /// context of its own, and the list's copy catches up when the import ends. It returns once the mark is saved
    /// (performAndWait), and a failed save reaches the caller.
    public func markListened(_ episode: Episode) throws {
        let id = episode.objectID            // only the ID crosses to the other context
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            guard let copy = try writer.existingObject(with: id) as? Episode else { return }
            copy.listened = true
            try writer.save()
        }
    }
    // endregion: mark-listened
}
