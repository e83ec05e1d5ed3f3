import Foundation
import KataSupport
import Persistence

/// The episode list of a podcast app, on the container's main-queue context. While an import saves the feed page by
/// page in the background, the list must stay still; when the import ends, it must show everything at once.
///
/// Lesson 10, katas 1–6. Check with `swift run lessons check 10`.
public final class EpisodeListScreen {
    /// The screen's context: the container's `viewContext` (main queue).
    public let context: ManagedObjectContext
    /// The container, for writing through a context of the screen's own while the list is pinned.
    public let container: PersistentContainer
    /// The episodes the list shows, by number, as of the last ``reload()``.
    public private(set) var episodes: [Episode] = []

    public init(container: PersistentContainer) {
        self.container = container
        context = container.viewContext
    }

    /// Fetches the episodes again, by number, from whatever generation the context reads. (Given: written already.)
    public func reload() throws {
        let request: FetchRequest<Episode> = Episode.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.number, ascending: true)]
        episodes = try context.fetch(request)
    }

    /// Kata 1 (and 5): pin the list to the store as it is now, before the import saves its first page, so that
    /// ``reload()`` keeps showing the same episodes until ``importDidFinish()``. It may be called again before
    /// ``importDidFinish()`` (a second tap on refresh).
    public func importWillStart() throws {
        throw KataNotDone(lesson: 10)
    }

    /// Kata 2 (and 5): move the list to the newest data — what the import inserted, changed and deleted — and
    /// fetch the episodes again.
    public func importDidFinish() throws {
        throw KataNotDone(lesson: 10)
    }

    /// Kata 3: the screen's own episode for `id` (a detail view opened from a link), or nil when the generation
    /// the screen reads has no such episode, or when the screen itself has deleted it (not saved yet).
    public func episode(with id: ManagedObjectID) throws -> Episode? {
        throw KataNotDone(lesson: 10)
    }

    /// Kata 4: the title of an episode the screen holds, or nil when its row is gone from the store. It must work
    /// whatever the context's `shouldDeleteInaccessibleFaults` says.
    public func title(of episode: Episode) throws -> String? {
        throw KataNotDone(lesson: 10)
    }

    /// Kata 6: mark an episode as heard and save that to the store — without moving the pinned list to the newest
    /// data while an import is running. It returns once the mark is saved, and throws when the save fails.
    public func markListened(_ episode: Episode) throws {
        throw KataNotDone(lesson: 10)
    }
}
