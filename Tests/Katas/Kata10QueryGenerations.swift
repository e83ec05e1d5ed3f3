import Foundation
import KataSupport
import Persistence
import XCTest
// The code under test: your starters, or (for `lessons verify`) the reference solutions or the decoys.
#if Solutions
import Solutions
#elseif Decoys
import Decoys
#else
import Workbook
#endif

/// Lesson 10 — Query generations. A podcast app's episode list stays still while an import saves the feed page by
/// page (kata 1), shows everything once it ends (2), still opens an episode the import deleted (3), reads a vanished
/// episode safely whatever `shouldDeleteInaccessibleFaults` says (4), and keeps its pin through merges (5) and its
/// own writes (6).
final class Kata10QueryGenerations: KataCase {
    override class var lesson: Int { 10 }
    override class var folder: String { "10-query-generations" }
    override class func makeModel() throws -> ManagedObjectModel { try model.get() }

    private static let model = Result { try PodcastModel.make() }

    /// The feed before the import, as the list shows it.
    private let feed = ["1 Pilot", "2 Second wind", "3 Third time"]

    /// Saves the feed before the import through `writer` (the kata's context unless told); returns the episodes'
    /// IDs by number.
    @discardableResult
    private func saveFeed(through writer: ManagedObjectContext? = nil) throws -> [Int: ManagedObjectID] {
        let writer = writer ?? context
        return try writer.performAndWait {
            var ids: [Int: ManagedObjectID] = [:]
            for line in feed {
                let episode = Episode(context: writer)
                episode.number = Int(line.prefix(1))!
                episode.title = String(line.dropFirst(2))
                try writer.save()
                ids[episode.number] = episode.objectID
            }
            return ids
        }
    }

    /// One page of the import, saved by a background context: new episodes, renamed ones, deleted ones. Returns the
    /// IDs of the new episodes by number.
    @discardableResult
    private func importPage(insert: [Int] = [], rename: [Int: String] = [:], delete: [Int] = []) throws
        -> [Int: ManagedObjectID] {
        let importer = container.newBackgroundContext()
        return try importer.performAndWait {
            var inserted: [Int: Episode] = [:]
            for number in insert {
                let episode = Episode(context: importer)
                episode.number = number
                episode.title = "Episode \(number)"
                inserted[number] = episode
            }
            for episode in try importer.fetch(Episode.fetchRequest()) {
                if let title = rename[episode.number] { episode.title = title }
                if delete.contains(episode.number) { importer.delete(episode) }
            }
            try importer.save()
            return inserted.mapValues(\.objectID)
        }
    }

    /// What the store holds now, read through a new context: "number title", by number.
    private func stored() throws -> [String] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let request: FetchRequest<Episode> = Episode.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.number, ascending: true)]
            return try reader.fetch(request).map { "\($0.number) \($0.title)" }
        }
    }

    /// What the list shows: "number title", in its order.
    private func shown(_ screen: EpisodeListScreen) -> [String] {
        screen.episodes.map { "\($0.number) \($0.title)" }
    }

    /// Lets the main queue run what is waiting on it, such as automatic merges into the view context.
    private func drainMainQueue() throws {
        let drained = expectation(description: "main queue drained")
        DispatchQueue.main.async { drained.fulfill() }
        try expect(XCTWaiter().wait(for: [drained], timeout: 5) == .completed,
                   "the main queue did not run for five seconds: is something on it waiting for another context?")
    }

    /// Why a pinned list moved, from what the context says after `importWillStart()`.
    private func whyNotPinned(tokenAfterPin: QueryGenerationToken?, mergingAfterPin: Bool) -> String {
        if mergingAfterPin {
            return "Automatic merging is still on, and a merge moves a pinned context to the newest data: switch "
                + "automaticallyMergesChangesFromParent off while the list is pinned (Core Data does not support "
                + "automatic merging on a context pinned to an older generation at all)."
        }
        if tokenAfterPin == nil {
            return "Right after importWillStart() the context had no query generation token: it was not pinned to "
                + "a snapshot. Passing nil — which is what an unpinned context's own queryGenerationToken is — means "
                + "\"do not pin\"; QueryGenerationToken.current pins the context at its next read, so read once "
                + "(reload) before the import saves anything."
        }
        return "The context is pinned, yet the list moved: is something saving, resetting or merging into the "
            + "screen's context during the import? Each of those moves it to the newest data."
    }

    /// Fails unless the screen's context still reads the feed of before the import: the later katas build on kata 1.
    private func expectPinned() throws {
        let count = try context.count(for: Episode.fetchRequest())
        try expect(count == feed.count, "during the import the screen's context counts \(count) episodes, not "
            + "\(feed.count): the list is not pinned. Solve kata 1 (importWillStart()) first.")
    }

    // MARK: Pinning the list

    func test01_listStaysStillWhileTheImportSavesPages() {
        kata(1, in: "EpisodeListScreen.swift", "importWillStart()") {
            try saveFeed()
            let screen = EpisodeListScreen(container: container)
            try screen.reload()
            try screen.importWillStart()
            let token = context.queryGenerationToken
            let merging = context.automaticallyMergesChangesFromParent
            try importPage(insert: [4, 5])
            try screen.reload()
            try expect(shown(screen) == feed, "while the import runs, the list should keep showing \(feed); after "
                + "its first page was saved it shows \(shown(screen)). "
                + whyNotPinned(tokenAfterPin: token, mergingAfterPin: merging))
            try importPage(insert: [6], rename: [1: "Pilot (remastered)"], delete: [3])
            try screen.reload()
            try expect(shown(screen) == feed, "after a page that renamed episode 1 and deleted episode 3 the list "
                + "shows \(shown(screen)), not \(feed). "
                + whyNotPinned(tokenAfterPin: token, mergingAfterPin: merging))
            let inStore = try stored()
            try expect(inStore.count == 5, "the store should hold the imported pages (\(inStore)).")
        }
    }

    // MARK: Moving forward

    func test02_finishedImportShowsEverything() {
        kata(2, in: "EpisodeListScreen.swift", "importDidFinish()") {
            try saveFeed()
            let screen = EpisodeListScreen(container: container)
            try screen.reload()
            try screen.importWillStart()
            try importPage(insert: [4, 5])
            try importPage(insert: [6], rename: [1: "Pilot (remastered)"], delete: [2])
            try screen.reload()
            try expect(shown(screen) == feed, "the list moved during the import (\(shown(screen))): solve kata 1 "
                + "first.")
            let pilot = screen.episodes[0]              // held by the screen, say by an open detail view
            pilot.listened = true                       // and marked there, not saved yet
            defer { context.rollback() }
            try screen.importDidFinish()
            let expected = try stored()
            let now = shown(screen)
            if now == feed {
                try expect(false, "after importDidFinish() the list still shows the snapshot \(feed). Fetching and "
                    + "refreshing read the generation the context is pinned to: move it to the newest one first "
                    + "(setQueryGenerationFrom with .current).")
            }
            if now.count == feed.count && expected.count != feed.count {
                try expect(false, "after importDidFinish() the list shows \(now): the episodes were not fetched "
                    + "again. Reload after moving to the newest generation.")
            }
            if now.contains("1 Pilot") && expected.contains("1 Pilot (remastered)") {
                try expect(false, "after importDidFinish() the list shows \(now): the new episodes are there, but "
                    + "episode 1 keeps the title it had in the snapshot, because objects already in memory keep "
                    + "their values when the generation moves. refreshAllObjects(), once the context reads the new "
                    + "generation, makes them read it.")
            }
            try expect(now == expected, "after importDidFinish() the list shows \(now); the store holds \(expected).")
            try expect(!context.automaticallyMergesChangesFromParent, "this screen's context did not merge other "
                + "contexts' saves automatically before the import, and after importDidFinish() it does: put back what "
                + "importWillStart() found, not true. A screen that never asked for automatic merging would now be "
                + "moved forward, and redrawn, by every save of the app.")
            try expect(pilot.managedObjectContext === context && screen.episodes.first === pilot, "after "
                + "importDidFinish() the episode the screen held before (episode 1) "
                + (pilot.managedObjectContext == nil ? "belongs to no context any more" : "is not the one the list shows")
                + ": the context forgot the objects it held (reset()), so a detail view holding one now holds a dead "
                + "object. Move the context to the newest generation and refresh the objects in memory instead: "
                + "they stay the same objects and read the new values.")
            try expect(pilot.listened && pilot.hasChanges, "after importDidFinish() the episode the screen had marked "
                + "as heard, unsaved, is no longer marked: moving to the newest data threw away the user's unsaved "
                + "change. Refreshing with mergeChanges: false drops an object's pending changes; refreshAllObjects() "
                + "keeps them and lays them over the new values.")
        }
    }

    // MARK: Faults inside a snapshot

    func test03_openingAnEpisodeTheImportDeleted() {
        kata(3, in: "EpisodeListScreen.swift", "episode(with:)") {
            // The feed comes from another context: the screen's context has loaded none of it yet.
            let ids = try saveFeed(through: container.newBackgroundContext())
            let screen = EpisodeListScreen(container: container)
            let linked = try screen.episode(with: ids[3]!)
            try expect(linked?.title == "Third time", "a link opened episode 3 before the list was loaded, and "
                + "episode(with:) returned \(linked.map { "\"\($0.title)\"" } ?? "nil") instead of the episode "
                + "\"Third time\". The store has its row; the screen's context just has not read it yet. "
                + "registeredObject(for:) looks only at what the context holds in memory: use a lookup that goes to "
                + "the store when the context does not have the object.")
            try expect(linked?.managedObjectContext === context, "episode(with:) returned an episode of another "
                + "context; the screen shows and edits objects of its own context only.")
            try screen.reload()
            try screen.importWillStart()
            let added = try importPage(insert: [4], delete: [2])
            try expectPinned()
            // A memory warning: every object of the list becomes a fault again, and reads its row when next used.
            context.refreshAllObjects()
            let second = try require(try screen.episode(with: ids[2]!), "episode(with:) found nothing for episode "
                + "2, which the pinned list still shows (the import deleted it after the pin). The screen's "
                + "snapshot still has its row: look it up in the screen's own context, which reads that snapshot, "
                + "not in a new context, which reads the newest data.")
            try expect(second.managedObjectContext === context, "episode(with:) returned an episode of another "
                + "context; the screen shows and edits objects of its own context only.")
            try expect(second.title == "Second wind", "episode 2 reads \"\(second.title)\" instead of \"Second "
                + "wind\": a fault in a pinned context fires from the snapshot, where the row still exists.")
            let listed = screen.episodes.map(\.title)
            try expect(listed == ["Pilot", "Second wind", "Third time"], "the list's own faults read \(listed) "
                + "after the import deleted episode 2: the list is not pinned (kata 1).")
            let unknown = try screen.episode(with: added[4]!)
            try expect(unknown == nil, "episode(with:) returned an episode for number 4, which the import saved "
                + "after the pin, so the screen's snapshot has no row for it; its title reads "
                + "\"\(unknown?.title ?? "")\". object(with:) never checks that a row exists and hands back a fault "
                + "that reads empty; existingObject(with:) checks, and throws when there is none.")
            // The user swipes episode 3 away in the list: deleted in the screen's context, not saved yet.
            let swiped = try require(try screen.episode(with: ids[3]!), "episode(with:) found nothing for episode 3, "
                + "which the screen's snapshot has.")
            context.delete(swiped)
            let reopened = try screen.episode(with: ids[3]!)
            try expect(reopened == nil, "episode(with:) returned episode 3 after the screen itself deleted it (not "
                + "saved yet): a detail view would open an episode the list no longer shows. A lookup by ID hands "
                + "back an object the context has registered as it is, deleted or not.")
            try expect(swiped.isDeleted && context.deletedObjects.contains(swiped), "episode(with:) undid the "
                + "screen's unsaved deletion of episode 3: looking must leave the context's changes as they are.")
        }
    }

    // MARK: Faults whose row is gone

    func test04_aVanishedEpisodeHasNoTitle() {
        kata(4, in: "EpisodeListScreen.swift", "title(of:)") {
            let ids = try saveFeed()
            let screen = EpisodeListScreen(container: container)
            try screen.reload()                             // not pinned: no import is running
            let deleter = container.newBackgroundContext()
            try deleter.performAndWait {
                for number in [2, 3] { deleter.delete(try deleter.existingObject(with: ids[number]!)) }
                try deleter.save()
            }
            try expect(screen.episodes.count == 3, "reload() shows \(shown(screen)) instead of \(feed). reload() "
                + "came written: if you changed it, put it back as it was.")
            let first = screen.episodes[0], second = screen.episodes[1], third = screen.episodes[2]
            // The screen still holds episode 2 loaded, with its old values, as a screen that has shown it does.
            let title = try screen.title(of: second)
            try expect(title == nil, "title(of:) returned \(title.map { "\"\($0)\"" } ?? "nil") for an episode "
                + "whose row another context deleted, while the screen's context still holds it loaded. An object "
                + "in memory keeps its old values whatever happens to its row, and existingObject(with:) hands back "
                + "an object the context holds without reading the store. Ask the store itself whether the row is "
                + "still there, and return nil when it is not.")
            // Episode 3 is a fault again, as after a memory warning: reading it would fire it.
            context.refresh(third, mergeChanges: false)
            try expect(try screen.title(of: third) == nil, "title(of:) returned a title for an episode whose row is "
                + "gone and which the context holds as a fault. With shouldDeleteInaccessibleFaults on (the default), "
                + "a fault whose row is gone fires quietly: the object reads as deleted, with every value empty — an "
                + "empty title is not a title. Return nil when the episode no longer exists.")
            first.listened = true                           // the user's mark, not saved yet
            let kept = try screen.title(of: first)
            try expect(kept == "Pilot", "title(of:) returned \(kept.map { "\"\($0)\"" } ?? "nil") for episode 1, "
                + "which still exists; expected \"Pilot\".")
            try expect(first.listened && first.hasChanges, "title(of:) threw away the unsaved change of episode 1 "
                + "(its mark as heard): refreshing an object without merging its changes discards them. Asking "
                + "whether the episode still exists must leave the episode as it is.")
            // The user swipes episode 1 away: deleted in the screen's context, not saved yet.
            context.delete(first)
            let swiped = try screen.title(of: first)
            try expect(swiped == nil, "title(of:) returned \(swiped.map { "\"\($0)\"" } ?? "nil") for an episode the "
                + "screen itself has deleted (not saved yet): for the screen it is gone. Its row is still in the "
                + "store, so a question that looks only at the saved rows misses the deletion; a fetch or a count "
                + "matches the context's unsaved changes too, unless includesPendingChanges is switched off.")
            try expect(first.isDeleted && context.deletedObjects.contains(first), "title(of:) undid the screen's "
                + "unsaved deletion of episode 1: asking must leave the context's changes as they are.")
            context.rollback()                              // the user undoes the swipe

            context.refresh(third, mergeChanges: false)
            context.shouldDeleteInaccessibleFaults = false
            let strict = try screen.title(of: third)
            try expect(strict == nil, "with shouldDeleteInaccessibleFaults off, title(of:) returned "
                + "\(strict.map { "\"\($0)\"" } ?? "nil") for an episode whose row is gone; expected nil.")
            first.listened = true
            do {
                try context.save()
            } catch let error as CocoaError where error.code == .managedObjectReferentialIntegrity {
                try expect(false, "title(of:) fired the fault of an episode whose row is gone while "
                    + "shouldDeleteInaccessibleFaults was off. Core Data throws an exception at that moment (a "
                    + "crash in Swift); Persistence reports it at the next save, which failed: \(error.localizedDescription) "
                    + "Ask the store whether the episode still exists before reading any of its values.")
            }

            // Pinned now, as during an import: episode 1 is deleted afterwards, but the list's snapshot has it.
            try context.setQueryGenerationFrom(.current)
            try screen.reload()
            try deleter.performAndWait {
                deleter.delete(try deleter.existingObject(with: ids[1]!))
                try deleter.save()
            }
            let pinned = try screen.title(of: first)
            try expect(pinned == "Pilot", "with the screen's context pinned to a snapshot that still holds episode 1, "
                + "title(of:) returned \(pinned.map { "\"\($0)\"" } ?? "nil") instead of \"Pilot\": it asked "
                + "about the newest data, where another context has deleted it since. Ask in the screen's own "
                + "context, which reads its generation; a new context reads the newest one.")
        }
    }

    // MARK: What moves a pinned context

    func test05_mergesDoNotMoveThePinnedList() {
        kata(5, in: "EpisodeListScreen.swift", "importWillStart() and importDidFinish()") {
            context.automaticallyMergesChangesFromParent = true        // the app keeps its list current (lesson 9)
            try saveFeed()
            let screen = EpisodeListScreen(container: container)
            try screen.reload()
            try screen.importWillStart()
            let token = context.queryGenerationToken
            let merging = context.automaticallyMergesChangesFromParent
            try screen.importWillStart()                                // a second tap on refresh, before page 1
            try importPage(insert: [4, 5])
            try drainMainQueue()
            try screen.reload()
            try expect(shown(screen) == feed, "the app merges other contexts' saves automatically; during the "
                + "import the list shows \(shown(screen)) instead of \(feed). "
                + whyNotPinned(tokenAfterPin: token, mergingAfterPin: merging))
            try screen.importDidFinish()
            let inStore = try stored()
            try expect(shown(screen) == inStore, "after importDidFinish() the list shows \(shown(screen)); the "
                + "store holds \(inStore) (kata 2).")
            try expect(context.automaticallyMergesChangesFromParent, "importDidFinish() left automatic merging off: "
                + "the app had it on before the import, so turn it back on once the list is on the newest data — "
                + "or later saves never reach the list. Here importWillStart() ran twice, as a second tap on refresh "
                + "makes it: the second call finds merging off, switched off by the first, and must not forget what "
                + "the first call found.")
            try importPage(insert: [7])
            try drainMainQueue()
            try screen.reload()
            try expect(shown(screen).last == "7 Episode 7", "a save after the import did not reach the list "
                + "(\(shown(screen))): with automatic merging back on, each merge moves the context forward.")
        }
    }

    func test06_markingAnEpisodeKeepsTheListPinned() {
        kata(6, in: "EpisodeListScreen.swift", "markListened(_:)") {
            try saveFeed()
            let screen = EpisodeListScreen(container: container)
            try screen.reload()
            try screen.importWillStart()
            try importPage(insert: [4, 5])
            try expectPinned()
            let pilot = try require(screen.episodes.first, "the list is empty before the import: solve kata 1 first.")
            let timing = SaveTiming(container: container, screen: context)
            try screen.markListened(pilot)
            timing.callReturned()
            _ = eventually(1) { timing.savedAfterReturn != nil }     // a save still on its way, if one is coming
            timing.stop()
            try expect(timing.savedAfterReturn != true, "markListened(_:) returned before the mark was saved: the "
                + "save ran on another queue after the call had come back (a block handed to perform or "
                + "performBackgroundTask, not waited for). The caller goes on as if the mark were in the store — "
                + "the list, a \"Marked as heard\" message — and an error of that save reaches nobody. Return once "
                + "the write has finished.")
            let heard = try container.newBackgroundContext().performAndWaitListened()
            try expect(heard == ["1"], "after markListened(_:) on episode 1, the store says these episodes were "
                + "heard: \(heard). "
                + (context.hasChanges ? "The change sits unsaved in the screen's context: a context saves only its "
                    + "own objects. Hand the other context the episode's objectID and change its own copy."
                    : "Save the change."))
            try screen.reload()
            try expect(shown(screen) == feed, "after markListened(_:) the pinned list shows \(shown(screen)) "
                + "instead of \(feed): saving the screen's own context moves it to the newest data, import and all. "
                + "While the list is pinned, write through another context, by objectID.")
            try expect(!context.hasChanges, "markListened(_:) left unsaved changes in the screen's context.")

            // A save can fail on a device: the disk is full, or the locked phone keeps the store's file closed. The
            // kata makes the next mark's save fail (it slips an episode without a title into the saving context).
            let second = screen.episodes[1]
            let sabotage = FailingSave(container: container, screen: context)
            var thrown: (any Error)?
            do { try screen.markListened(second) } catch { thrown = error }
            sabotage.stop()
            try expect(sabotage.failedSaves > 0, "marking episode 2 as heard saved nothing through a context of its "
                + "own.")
            try expect(thrown != nil, "the save of episode 2's mark failed (error 1570, made by the kata), and "
                + "markListened(_:) returned as if it had worked: the error was swallowed (try?, or a catch that "
                + "does nothing). The user believes the episode is marked; let the error reach the caller, which can "
                + "say so.")
            let heardAfterFailure = try container.newBackgroundContext().performAndWaitListened()
            try expect(heardAfterFailure == ["1"], "after the failed mark of episode 2 the store says these episodes "
                + "were heard: \(heardAfterFailure), not [\"1\"].")
            try expectPinned()
            try screen.importDidFinish()
            try expect(screen.episodes.first?.listened == true, "after the import the list's episode 1 is still not "
                + "marked as heard: importDidFinish() should refresh the objects in memory (kata 2).")
        }
    }
}

/// When the saves of other contexts than the screen's ran, against the moment `markListened(_:)` returned. A save
/// on another thread while the call is still running is held until the call returns (or two seconds pass), so a
/// save the call does not wait for is seen as late every time, not only when it happens to lose the race.
private final class SaveTiming: @unchecked Sendable {
    private let lock = NSLock()
    private var returned = false
    private var late: Bool?
    private var observer: (any NSObjectProtocol)?
    private let callingThread = Thread.current

    init(container: PersistentContainer, screen: ManagedObjectContext) {
        observer = observeSaves(besides: screen, in: container) { [unowned self] _ in
            if Thread.current !== self.callingThread {
                let deadline = Date(timeIntervalSinceNow: 2)
                while !self.lock.withLock({ self.returned }) && Date() < deadline {
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }
            self.lock.withLock { self.late = (self.late ?? false) || self.returned }
        }
    }

    /// Whether a save ran after the call returned; nil while none has run.
    var savedAfterReturn: Bool? { lock.withLock { late } }
    func callReturned() { lock.withLock { returned = true } }
    func stop() { if let observer { NotificationCenter.default.removeObserver(observer) }; observer = nil }
}

/// Makes every save of another context than the screen's fail with a missing title (1570), as a save fails on a
/// device whose disk is full.
private final class FailingSave: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var observer: (any NSObjectProtocol)?

    init(container: PersistentContainer, screen: ManagedObjectContext) {
        observer = observeSaves(besides: screen, in: container) { [unowned self] saver in
            _ = Episode(context: saver)          // posted on the saver's queue: no title, so the save fails
            self.lock.withLock { self.count += 1 }
        }
    }

    var failedSaves: Int { lock.withLock { count } }
    func stop() { if let observer { NotificationCenter.default.removeObserver(observer) }; observer = nil }
}

/// Calls `body` with each context of `container`'s coordinator other than `screen` as it is about to save, on that
/// context's queue; the token is for `removeObserver`.
private func observeSaves(besides screen: ManagedObjectContext, in container: PersistentContainer,
                          _ body: @escaping @Sendable (ManagedObjectContext) -> Void) -> any NSObjectProtocol {
    let coordinator = container.persistentStoreCoordinator
    return NotificationCenter.default.addObserver(
        forName: ManagedObjectContext.willSaveObjectsNotification, object: nil, queue: nil
    ) { note in
        guard let saver = note.object as? ManagedObjectContext, saver !== screen,
              saver.persistentStoreCoordinator === coordinator else { return }
        body(saver)
    }
}

private extension ManagedObjectContext {
    /// The numbers of the episodes marked as heard, read in this context on its queue.
    func performAndWaitListened() throws -> [String] {
        try performAndWait {
            let request: FetchRequest<Episode> = Episode.fetchRequest()
            request.predicate = FetchPredicate(format: "listened == YES")
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.number, ascending: true)]
            return try fetch(request).map { "\($0.number)" }
        }
    }
}
