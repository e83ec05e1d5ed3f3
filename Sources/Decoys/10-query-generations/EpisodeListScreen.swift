import Foundation
import KataSupport
import Persistence

/// Lesson 10's ``EpisodeListScreen`` with known mistakes (see `Decoy`).
public final class EpisodeListScreen {
    public let context: ManagedObjectContext
    public let container: PersistentContainer
    public private(set) var episodes: [Episode] = []
    private var mergedAutomatically = false
    private var importing = false

    public init(container: PersistentContainer) {
        self.container = container
        context = container.viewContext
    }

    public func reload() throws {
        let request: FetchRequest<Episode> = Episode.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.number, ascending: true)]
        episodes = try context.fetch(request)
    }

    public func importWillStart() throws {
        // Mistake: every call records the setting, so a second call during the import records the "off" that the
        // first call set, and importDidFinish() leaves automatic merging off for good.
        if !importing || Decoy.isActive("pin-twice-forgets-merging") {
            mergedAutomatically = context.automaticallyMergesChangesFromParent
        }
        importing = true
        // Mistake: automatic merging stays on, and every merged page moves the pinned list forward.
        if !Decoy.isActive("pin-keeps-auto-merge") { context.automaticallyMergesChangesFromParent = false }
        // Mistake: the context's own token, which is nil while it is not pinned — and nil means "do not pin".
        if Decoy.isActive("pin-with-own-token") {
            try context.setQueryGenerationFrom(context.queryGenerationToken)
            return try reload()
        }
        // Mistake: the list is read first and pinned afterwards; .current waits for the next read, which comes after
        // the import's first page.
        if Decoy.isActive("pin-after-read") {
            try reload()
            return try context.setQueryGenerationFrom(.current)
        }
        // Mistake: a context of its own is pinned, not the screen's, which goes on reading the newest data.
        if Decoy.isActive("pin-wrong-context") {
            let reader = container.newBackgroundContext()
            try reader.performAndWait {
                try reader.setQueryGenerationFrom(.current)
                _ = try reader.count(for: Episode.fetchRequest())
            }
            return try reload()
        }
        try context.setQueryGenerationFrom(.current)
        // Mistake: nothing is read, so the snapshot is taken at the first reload — after the import's first page.
        if Decoy.isActive("pin-without-read") { return }
        try reload()
    }

    public func importDidFinish() throws {
        importing = false
        // Mistake: reset() brings the newest data too, but forgets every episode the screen holds.
        if Decoy.isActive("finish-by-reset") {
            context.reset()
            try reload()
            context.automaticallyMergesChangesFromParent = mergedAutomatically
            return
        }
        // Mistake: a new context is moved to the newest generation; the screen's stays on its snapshot.
        if Decoy.isActive("finish-repins-new-context") {
            let reader = container.newBackgroundContext()
            try reader.performAndWait { try reader.setQueryGenerationFrom(.current) }
            context.refreshAllObjects()
            try reload()
            context.automaticallyMergesChangesFromParent = mergedAutomatically
            return
        }
        // Mistake: each listed episode is refreshed and its unsaved changes dropped (mergeChanges: false), instead
        // of letting the context refresh everything it holds and keep what the user had not saved yet.
        if Decoy.isActive("finish-refreshes-listed-episodes") {
            try context.setQueryGenerationFrom(.current)
            for episode in episodes { context.refresh(episode, mergeChanges: false) }
            try reload()
            context.automaticallyMergesChangesFromParent = mergedAutomatically
            return
        }
        // Mistake: the objects are refreshed while the context still reads the old snapshot, then it is moved.
        if Decoy.isActive("finish-refreshes-before-moving") {
            context.refreshAllObjects()
            try context.setQueryGenerationFrom(.current)
            try reload()
            context.automaticallyMergesChangesFromParent = mergedAutomatically
            return
        }
        // Mistake: automatic merging goes back on first, while the context is still pinned to the import's old
        // snapshot — the pairing Core Data's header calls unsupported — and the context is moved only afterwards.
        if Decoy.isActive("finish-merges-before-moving") {
            context.automaticallyMergesChangesFromParent = mergedAutomatically
            try context.setQueryGenerationFrom(.current)
            context.refreshAllObjects()
            return try reload()
        }
        // Mistake: the list stays on its snapshot; refreshing only reads the snapshot again.
        if !Decoy.isActive("finish-stays-pinned") { try context.setQueryGenerationFrom(.current) }
        // Mistake: objects already in memory keep the values of the old snapshot.
        if !Decoy.isActive("finish-without-refresh") { context.refreshAllObjects() }
        // Mistake: the list keeps the array it fetched before the import.
        if !Decoy.isActive("finish-without-reload") { try reload() }
        // Mistake: automatic merging, switched off for the import, stays off.
        if Decoy.isActive("finish-turns-merging-on") {
            // Mistake: automatic merging is switched on at the end, whatever it was before the import.
            context.automaticallyMergesChangesFromParent = true
        } else if !Decoy.isActive("finish-leaves-auto-merge-off") {
            context.automaticallyMergesChangesFromParent = mergedAutomatically
        }
    }

    public func episode(with id: ManagedObjectID) throws -> Episode? {
        // Mistake: object(with:) never checks that the row exists; it hands back a fault that reads empty.
        if Decoy.isActive("detail-object-with") { return context.object(with: id) as? Episode }
        // Mistake: registeredObject(for:) looks only in memory: an episode the screen has not loaded yet is nil.
        if Decoy.isActive("detail-registered-object") { return context.registeredObject(for: id) as? Episode }
        // Mistake: the episode is looked up in a fresh context, which reads the newest data, not the list's snapshot.
        if Decoy.isActive("detail-fresh-context") {
            let reader = container.newBackgroundContext()
            let found = reader.performAndWait { (try? reader.existingObject(with: id)) != nil }
            return found ? context.object(with: id) as? Episode : nil
        }
        // Mistake: an episode the screen deleted (not saved yet) is still registered, and handed back as it is.
        if Decoy.isActive("detail-returns-screen-deleted") { return try? context.existingObject(with: id) as? Episode }
        guard let episode = try? context.existingObject(with: id) as? Episode, !episode.isDeleted else { return nil }
        return episode
    }

    public func title(of episode: Episode) throws -> String? {
        // Mistake: an episode whose row is gone reads as deleted with an empty title, and "" is shown as its title.
        if Decoy.isActive("title-ignores-deleted") { return episode.title }
        // Mistake: isDeleted is asked before the title; a loaded episode whose row another context deleted is not
        // deleted in this context, and keeps its old title.
        if Decoy.isActive("title-checks-is-deleted") { return episode.isDeleted ? nil : episode.title }
        // Mistake: the episode is refreshed to read its row again, which fires its fault whether the row is there
        // or not.
        if Decoy.isActive("title-refreshes-first") {
            context.refresh(episode, mergeChanges: false)
            let title = episode.title
            return episode.isDeleted || title.isEmpty ? nil : title
        }
        // Mistake: the fault is fired first and the deletion checked afterwards; that is an exception in Core Data
        // when shouldDeleteInaccessibleFaults is false.
        if Decoy.isActive("title-fires-fault") {
            let title = episode.title
            return episode.isDeleted ? nil : title
        }
        // Mistake: existingObject(with:) is taken for a store read; for an episode the context holds, loaded, it
        // returns that object as it is, and its old title.
        if Decoy.isActive("title-trusts-existing-object") {
            guard let existing = try? context.existingObject(with: episode.objectID) as? Episode else { return nil }
            return existing.title
        }
        // Mistake: the episode is refreshed so that existingObject(with:) goes to the store; the refresh throws away
        // any unsaved change of the episode.
        if Decoy.isActive("title-refreshes-then-looks-up") {
            context.refresh(episode, mergeChanges: false)
            guard let found = try? context.existingObject(with: episode.objectID) as? Episode else { return nil }
            return found.title
        }
        // Mistake: the store is asked by the episode's number, and reading the number fires a fault whose row is
        // gone (an exception in Core Data when shouldDeleteInaccessibleFaults is off).
        if Decoy.isActive("title-counts-by-number") {
            let byNumber: FetchRequest<Episode> = Episode.fetchRequest()
            byNumber.predicate = FetchPredicate(format: "number == %d", episode.number)
            return try context.count(for: byNumber) == 1 ? episode.title : nil
        }
        let stillThere: FetchRequest<Episode> = Episode.fetchRequest()
        stillThere.predicate = FetchPredicate(format: "SELF == %@", episode.objectID)
        // Mistake: only the saved rows are asked, so an episode the screen deleted and has not saved yet still counts.
        if Decoy.isActive("title-count-without-pending") { stillThere.includesPendingChanges = false }
        // Mistake: the check is made in a new context, which reads the newest data, not the screen's generation.
        let checker = Decoy.isActive("title-checks-fresh-context") ? container.newBackgroundContext() : context
        let found = try checker.performAndWait { try checker.count(for: stillThere) }
        guard found == 1 else { return nil }
        return episode.title
    }

    public func markListened(_ episode: Episode) throws {
        // Mistake: the pinned context saves, and a save moves it to the newest data: the import shows up.
        if Decoy.isActive("listened-saved-on-screen") {
            episode.listened = true
            return try context.save()
        }
        // Mistake: the screen unpins, saves its own edit, and pins again: the new pin is the newest generation.
        if Decoy.isActive("listened-repinned-after-save") {
            try context.setQueryGenerationFrom(nil)
            episode.listened = true
            try context.save()
            try context.setQueryGenerationFrom(.current)
            return
        }
        let id = episode.objectID
        // Mistake: the write is handed to a background task that nobody waits for, and its save's error is dropped:
        // the call returns before anything is saved, and a failed save reaches nobody.
        if Decoy.isActive("listened-not-awaited") {
            container.performBackgroundTask { writer in
                guard let copy = try? writer.existingObject(with: id) as? Episode else { return }
                copy.listened = true
                try? writer.save()
            }
            return
        }
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            // Mistake: the screen's own object is changed, and the writer context has nothing to save.
            if Decoy.isActive("listened-object-across-contexts") {
                episode.listened = true
                return try writer.save()
            }
            guard let copy = try writer.existingObject(with: id) as? Episode else { return }
            copy.listened = true
            // Mistake: the save waits its turn, but its error is swallowed, and the caller hears of no failure.
            if Decoy.isActive("listened-swallows-save-error") {
                _ = try? writer.save()
                return
            }
            try writer.save()
        }
        // Mistake: the screen's own copy is marked too, to show it at once: an unsaved change in the pinned context,
        // which its next save takes along with the newest generation.
        if Decoy.isActive("listened-also-on-screen") { episode.listened = true }
        // Mistake: the writer's save is merged into the screen so the mark shows at once; the merge moves the pinned
        // list to the newest data.
        if Decoy.isActive("listened-merged-into-screen") {
            let updated = [ManagedObjectContext.NotificationKey.updatedObjects.rawValue: [id]]
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: updated, into: [context])
        }
    }
}
