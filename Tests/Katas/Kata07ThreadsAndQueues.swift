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

/// Lesson 7 — Threads and queues. Kata 1: Apple's arrangement (a background context on the store, a view context
/// that merges its saves); 2–5: a manager that writes on the background context and reads on the main one, called
/// from other threads and tasks; 6–7: the writer arrangement of *Practical Core Data*, document 000 (a private-queue
/// writer on the store, the UI context its child); 8–9: an importer that works in the background and hands its
/// results to the main queue without waiting for it, or its caller waiting for the import. Katas 2, 4, 6, 8 and 9
/// also make a save fail.
///
/// Several katas call the code under test from a background thread and wait for it with a time limit, so that a
/// deadlock fails the kata instead of hanging the run. Several record which context saved, and on which thread,
/// from the contexts' did-save notifications: the end state alone does not show where the work was done.
final class Kata07ThreadsAndQueues: KataCase {
    override class var lesson: Int { 7 }
    override class var folder: String { "07-threads-and-queues" }
    override class func makeModel() throws -> ManagedObjectModel { try PodcastModel.shared() }

    /// How long a call made on another thread may take before the kata calls it a deadlock.
    private static let patience: TimeInterval = 5

    /// A value handed from one thread to another.
    private final class Box<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value?
        var value: Value? { lock.withLock { stored } }
        func set(_ value: Value) { lock.withLock { stored = value } }
    }

    /// Values collected from several threads, in order.
    private final class Recorder<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [Value] = []
        var values: [Value] { lock.withLock { stored } }
        func append(_ value: Value) { lock.withLock { stored.append(value) } }
    }

    /// One save, as its did-save notification reported it: which context, on which thread, how many objects.
    private struct Save {
        let context: ManagedObjectContext
        let onMainThread: Bool
        let inserted: Int
        let updated: Int
    }

    /// Records every save of every context until the kata ends, from `ManagedObjectContext.didSaveObjectsNotification`.
    /// Persistence posts it from inside the save, on the thread that runs the save (Apple's reference says only that
    /// a context "posts notifications to the same thread that creates it").
    private func recordSaves() -> Recorder<Save> {
        let saves = Recorder<Save>()
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                           object: nil, queue: nil) { note in
            guard let saver = note.object as? ManagedObjectContext else { return }
            let info = note.userInfo ?? [:]
            func count(_ key: ManagedObjectContext.NotificationKey) -> Int {
                (info[key.rawValue] as? Set<ManagedObject>)?.count ?? 0
            }
            saves.append(Save(context: saver, onMainThread: Thread.isMainThread,
                              inserted: count(.insertedObjects), updated: count(.updatedObjects)))
        }
        nonisolated(unsafe) let observer = token
        addTeardownBlock { NotificationCenter.default.removeObserver(observer) }
        return saves
    }

    // region: another-thread
    /// Runs `body` on a background thread — as a network callback would — and waits for it, at most
    /// ``patience`` seconds, while the main queue stays free. Returns what it returned, rethrows what it threw,
    /// and fails the kata with `deadlock` when it did not finish in time.
    private func onAnotherThread<T>(_ deadlock: @autoclosure () -> String,
                                    _ body: @escaping @Sendable () throws -> T) throws -> T {
        let result = Box<Result<T, any Error>>()
        let done = expectation(description: "call on another thread")
        DispatchQueue.global().async {
            result.set(Result { try body() })
            done.fulfill()
        }
        // Waiting on an expectation keeps the main queue running, so the call may use the viewContext.
        let waited = XCTWaiter().wait(for: [done], timeout: Self.patience)
        try expect(waited == .completed, deadlock())
        return try require(result.value, "the call on another thread returned nothing.").get()
    }
    // endregion: another-thread

    /// Lets the main queue run until everything queued on it so far has run — the merges a background save queued
    /// for the view context among them.
    private func drainMainQueue() {
        let drained = XCTestExpectation(description: "main queue drained")
        DispatchQueue.main.async { drained.fulfill() }
        _ = XCTWaiter().wait(for: [drained], timeout: Self.patience)
    }

    /// Apple's arrangement, made here so the manager's katas do not depend on kata 1: the kata's view context merges
    /// the saves of the store's other contexts, and a new background context on the same store does the writing.
    private func recommendedBackground() -> ManagedObjectContext {
        context.automaticallyMergesChangesFromParent = true
        let background = container.newBackgroundContext()
        background.name = "background"
        return background
    }

    /// Title and listened flag of every episode in the store, sorted by title, read through a context of its own.
    private func stored() throws -> [String] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let request: FetchRequest<Episode> = Episode.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.title, ascending: true)]
            return try reader.fetch(request).map { $0.title + ($0.listened ? " (listened)" : "") }
        }
    }

    /// Episodes saved through the kata's main context.
    private func savedEpisodes(_ titles: String...) throws -> [Episode] {
        let episodes = titles.map { title in
            let episode = Episode(context: context)
            episode.title = title
            return episode
        }
        try context.save()
        return episodes
    }

    /// Fails the kata when the write was not saved by `background`, or was saved by the main context.
    private func expectWrittenBy(_ background: ManagedObjectContext, _ saves: [Save], _ what: String) throws {
        try expect(!saves.contains { $0.context === context }, "\(what) was saved by mainContext, on the main "
            + "queue: the store has it, but the UI would have waited for the write. Make the change in "
            + "backgroundContext and save that one, on its queue.")
        // When nothing reached the store, the kata's own checks say why.
        guard try !stored().isEmpty else { return }
        try expect(saves.contains { $0.context === background }, "\(what) reached the store, but backgroundContext "
            + "never saved: the write was done by another context. Make the change in backgroundContext and save it.")
    }

    /// Fails the kata when the caller got another error than the save's own: a validation error (1570, a mandatory
    /// property missing) that the code replaced with one of its own loses what the save refused, and why.
    private func expectSavesOwnError(_ code: Int?, _ call: String) throws {
        guard let code else { return }
        try expect(code == 1570, "\(call) threw an error with code \(code), not the save's own (1570: a mandatory "
            + "property is missing): the caller, and the log a crash report carries, learn only that something "
            + "failed — not which object the store refused, nor why. After the rollback, throw the save's error as "
            + "it is.")
    }

    /// Fails the kata when `background` still holds changes: the work was done there, but no save of that context
    /// took it to the store.
    private func expectSaved(by background: ManagedObjectContext, _ what: String) throws {
        let unsaved = background.performAndWait { background.hasChanges }
        try expect(!unsaved, "\(what) is still unsaved in backgroundContext, so the store never got it: save the "
            + "context that made the change, on its queue — saving another context does not save this one.")
    }

    // MARK: Apple's arrangement: a background context on the store, a view context that merges

    func test01_stackWritesBesideTheViewContextWhichMerges() {
        kata(1, in: "EpisodeStack.swift", "init(container:)") {
            let stack = try EpisodeStack(container: container)
            try expect(stack.mainContext === container.viewContext, "mainContext is not the container's "
                + "viewContext: the UI reads the main-queue context the container already has.")
            let background = stack.backgroundContext
            try expect(background.concurrencyType == .privateQueueConcurrencyType,
                       "backgroundContext is a main-queue context"
                + (background === stack.mainContext ? " (it is mainContext itself)" : "") + ": writes belong on a "
                + "private queue of their own, or they block the UI. The container makes such a context for you.")
            try expect(background.parent == nil, "backgroundContext has a parent"
                + (background.parent === stack.mainContext ? ", the main context" : "") + ": its saves stop in "
                + "that context, in memory, and reach the store only when the parent saves. In Apple's arrangement "
                + "the background context sits on the store, beside the view context, and its saves go to disk.")
            // The main context shows an episode; the background context changes its own copy and saves, on its own
            // queue, while the main thread waits for it (as an app's main thread does in a performAndWait on that
            // context): whatever the save sets off must not wait for the main queue.
            let pilot = try savedEpisodes("Pilot")[0]
            let id = pilot.objectID
            let outcome = Box<Result<Void, any Error>>()
            let saved = DispatchSemaphore(value: 0)
            background.perform {
                outcome.set(Result {
                    let mine = try background.existingObject(with: id) as? Episode
                    mine?.listened = true
                    try background.save()
                })
                saved.signal()
            }
            let savedInTime = saved.wait(timeout: .now() + 2) == .success
            drainMainQueue()                                // frees a save stuck waiting for the main queue
            try expect(savedInTime, "the background context's save did not finish while the main thread waited for "
                + "it (two seconds): something its save set off waits for the main queue — a merge into the view "
                + "context with performAndWait, or DispatchQueue.main.sync — and the main queue was waiting for the "
                + "save. On a device both wait for ever. Let the view context merge on its own queue, in its own time.")
            let deadline = Date() + Self.patience
            while outcome.value == nil && Date() < deadline { RunLoop.main.run(until: Date() + 0.01) }
            try require(outcome.value, "the background context's save never finished.").get()
            drainMainQueue()
            let inStore = try stored()
            try expect(inStore == ["Pilot (listened)"], "after backgroundContext saved Pilot as listened, the "
                + "store holds \(inStore).")
            try expect(pilot.listened, "the store has Pilot listened, but the main context's Pilot — the one the UI "
                + "shows — still reads not listened: the view context does not take in the background context's "
                + "saves. It can be told to merge them by itself.")
        }
    }

    // MARK: The manager: writes on the background context, reads on the main one

    func test02_addWritesOnTheBackgroundContext() {
        kata(2, in: "EpisodeManager.swift", "add(title:)") {
            let background = recommendedBackground()
            let manager = EpisodeManager(mainContext: context, backgroundContext: background)
            let saves = recordSaves()
            let savedBeforeReturning = try onAnotherThread("add(title:) did not return within "
                + "\(Int(Self.patience)) s: it waits for something that never comes. Use "
                + "backgroundContext.performAndWait, which runs the work and returns.") { () -> Bool in
                try manager.add(title: "Pilot")
                return !saves.values.isEmpty                // a save, by any context, before add returned
            }
            background.performAndWait {}                    // let anything add(title:) queued there finish
            try expectSaved(by: background, "the episode")
            try expectWrittenBy(background, saves.values, "the episode")
            try expect(savedBeforeReturning, "add(title:) returned before the episode was saved: the work had not "
                + "run yet when add returned. perform only queues a block and returns at once; performAndWait runs "
                + "it and returns when it is done.")
            let inStore = try stored()
            try expect(inStore == ["Pilot"], "after add(title: \"Pilot\") the store holds \(inStore).")

            // A save that fails: other code left an episode without its mandatory title in the background context,
            // so the next save of that context fails (1570), whoever calls it.
            background.performAndWait { _ = Episode(context: background) }
            let failure = try onAnotherThread("add(title:) did not return within \(Int(Self.patience)) s.") { () -> Int? in
                do {
                    try manager.add(title: "Finale")
                    return nil
                } catch {
                    return (error as NSError).code
                }
            }
            let storedThen = try stored()
            try expect(failure != nil, "add(title: \"Finale\") returned normally, but the background context's save "
                + "failed (it also held an episode without its mandatory title): the caller believes Finale is stored, "
                + "and the store holds \(storedThen). A save that fails must reach the caller as an error.")
            try expectSavesOwnError(failure, "add(title:)")
            let leftBehind = background.performAndWait { background.hasChanges }
            try expect(!leftBehind, "after its save failed, add(title:) left the failed changes in the background "
                + "context: every later save of that context fails with the same error (lesson 5), so the app can "
                + "never add an episode again. Put the context back to its last saved state before throwing.")
            try onAnotherThread("add(title:) did not return within \(Int(Self.patience)) s.") {
                try manager.add(title: "Bonus")
            }
            let afterwards = try stored()
            try expect(afterwards == ["Bonus", "Pilot"], "after a failed add(title:) and a good one the store holds "
                + "\(afterwards), not [\"Bonus\", \"Pilot\"].")
        }
    }

    func test03_addWorksWhenCalledOnTheQueueItself() {
        kata(3, in: "EpisodeManager.swift", "add(title:)") {
            let background = recommendedBackground()
            let manager = EpisodeManager(mainContext: context, backgroundContext: background)
            let saves = recordSaves()
            let count = try onAnotherThread("add(title:) called from inside backgroundContext.performAndWait did "
                + "not return within \(Int(Self.patience)) s: a deadlock. The code waits for work it queued on the "
                + "very queue it is running on — which cannot start until the code returns. performAndWait is "
                + "re-entrant (on its own queue it runs the block at once); perform followed by a semaphore or a "
                + "group is not.") {
                try background.performAndWait {
                    try manager.add(title: "Pilot")
                    return try background.count(for: Episode.fetchRequest())
                }
            }
            try expectSaved(by: background, "the episode")
            try expectWrittenBy(background, saves.values, "the episode")
            try expect(count == 1, "inside backgroundContext.performAndWait, add(title:) returned before its "
                + "episode was in the background context (found \(count)): perform only queues the work; "
                + "performAndWait does it before returning, even when called on its own queue.")
            let inStore = try stored()
            try expect(inStore == ["Pilot"], "add(title:) called on the background queue did not store the "
                + "episode; the store holds \(inStore).")
        }
    }

    func test04_markListenedHandsOverTheObjectID() {
        kata(4, in: "EpisodeManager.swift", "markListened(_:)") {
            let background = recommendedBackground()
            // Keeps every object it registers, saved or not, so the kata can see afterwards which episode changed
            // there (by default a context keeps an unchanged object only while something holds it, as on Core Data).
            background.retainsRegisteredObjects = true
            let manager = EpisodeManager(mainContext: context, backgroundContext: background)
            let episodes = try savedEpisodes("Pilot", "Finale")
            let pilot = episodes[0]                               // the caller's object, from the main context
            let pilotID = pilot.objectID                          // what the caller hands over
            let saves = recordSaves()
            try onAnotherThread("markListened(_:) did not return within \(Int(Self.patience)) s.") {
                try manager.markListened(pilotID)
            }
            try expectSaved(by: background, "the change")
            let inStore = try stored()
            try expect(inStore == ["Finale", "Pilot (listened)"], "after markListened(Pilot) the store holds "
                + "\(inStore), not [\"Finale\", \"Pilot (listened)\"]. Change the background context's own copy of "
                + "the episode, then save the background context.")
            try expectWrittenBy(background, saves.values, "the change")
            let changedInBackground = background.performAndWait {
                background.registeredObjects.contains { ($0 as? Episode)?.listened == true }
            }
            try expect(changedInBackground, "the store has the change, but it was not made in the background "
                + "context: the episode that changed belongs to another context. Look the ID up in "
                + "backgroundContext, change the copy it gives you, and save backgroundContext.")
            drainMainQueue()
            try expect(pilot.listened, "the store has Pilot listened, but the main context's Pilot still reads "
                + "not listened after the view context merged the save.")
            try expect(!context.hasChanges, "after markListened(_:) the main context holds unsaved changes: its "
                + "Pilot was changed by hand. The view context merges the background save by itself; leave the "
                + "caller's object alone.")

            // A save that fails: other code left an episode without its mandatory title in the background context,
            // so the next save of that context fails (1570), whoever calls it.
            let finale = episodes[1]
            let finaleID = finale.objectID
            background.performAndWait { _ = Episode(context: background) }
            let failure = try onAnotherThread("markListened(_:) did not return within \(Int(Self.patience)) s.") {
                () -> Int? in
                do {
                    try manager.markListened(finaleID)
                    return nil
                } catch {
                    return (error as NSError).code
                }
            }
            background.performAndWait {}                    // let anything markListened(_:) queued there finish
            let storedThen = try stored()
            try expect(failure != nil, "markListened(Finale) returned normally, but the background context's save "
                + "failed (it also held an episode without its mandatory title): the caller believes Finale is marked, "
                + "and the store holds \(storedThen). A save that fails must reach the caller as an error — and an "
                + "error raised in work that runs after markListened(_:) has returned has no caller left to reach.")
            try expectSavesOwnError(failure, "markListened(_:)")
            let leftBehind = background.performAndWait { background.hasChanges }
            try expect(!leftBehind, "after its save failed, markListened(_:) threw, but left the failed changes in the "
                + "background context. Every later save of that context fails with the same error until someone "
                + "clears them — and the save that finally succeeds writes Finale as listened, after its caller was "
                + "told that marking it had failed. Put the context back to its last saved state before throwing.")
            try expect(storedThen == ["Finale", "Pilot (listened)"], "after a failed markListened(Finale) the store "
                + "holds \(storedThen), not [\"Finale\", \"Pilot (listened)\"].")
            drainMainQueue()
            try expect(!finale.listened && !context.hasChanges, "after a failed markListened(Finale) the main "
                + "context's Finale reads \(finale.listened ? "listened" : "not listened") and the main context "
                + "\(context.hasChanges ? "holds" : "has no") unsaved changes: the UI shows a change the store never "
                + "got. Only a save that succeeded may reach the view context.")

            // An episode deleted by another part of the app after its ID was handed over.
            let trailerID = try savedEpisodes("Trailer")[0].objectID
            let remover = container.newBackgroundContext()
            try remover.performAndWait {
                remover.delete(try remover.existingObject(with: trailerID))
                try remover.save()
            }
            let goneFailure = try onAnotherThread("markListened(_:) did not return within \(Int(Self.patience)) s.") {
                () -> Bool in
                do {
                    try manager.markListened(trailerID)
                    return false
                } catch {
                    return true
                }
            }
            // existingObject(with:) asks the store and registers nothing when the row is gone; object(with:) hands
            // back a fault without asking, and the first value set on it fires the fault on a row that is gone.
            let faultOnGoneRow = background.performAndWait { background.registeredObject(for: trailerID) != nil }
            try expect(!faultOnGoneRow, "markListened(Trailer), for an episode deleted from the store, made the "
                + "background context hold an object for it: the ID was turned into an object without asking the "
                + "store whether the episode still exists (object(with:) hands back a fault and never checks), and "
                + "changing it fired that fault on a row that is gone. Core Data then raises \"could not fulfill a "
                + "fault\", or, depending on the context's shouldDeleteInaccessibleFaults, treats the object as "
                + "deleted; either way the caller does not hear \"this episode is gone\" from the lookup. Look the "
                + "ID up with the call that checks the store and throws when the object no longer exists.")
            try expect(goneFailure, "markListened(Trailer) returned normally for an episode deleted from the store "
                + "after its ID was handed over: the caller believes it is marked, and nothing was. The lookup's "
                + "\"no such object\" is news for the caller — the list it came from is out of date — not a reason "
                + "to return quietly. Let the caller hear that the episode is gone.")
        }
    }

    func test05_titlesCanBeReadFromAnyTask() {
        kata(5, in: "EpisodeManager.swift", "unlistenedTitles()") {
            let manager = EpisodeManager(mainContext: context, backgroundContext: recommendedBackground())
            let episodes = try savedEpisodes("Pilot", "Finale", "Bonus")
            episodes[0].listened = true
            try context.save()
            // The UI has just added an episode, not saved yet: the list on screen shows it, so the titles must too.
            let aftershow = Episode(context: context)
            aftershow.title = "Aftershow"
            defer { context.rollback() }
            // Called from a task that is not on the main actor: the caller is not on the main context's queue.
            // The SQL debug log (Core Data's -com.apple.CoreData.SQLDebug 1) shows what the store was asked.
            let (titles, log) = try SQLLog.capture {
                try onAnotherThread("unlistenedTitles() did not return within \(Int(Self.patience)) s.") {
                    try Self.awaitResult { try await manager.unlistenedTitles() }
                }
            }
            try expect(titles != ["Bonus", "Finale"], "unlistenedTitles() returned \(titles), without \"Aftershow\": "
                + "the main context holds that new episode, unsaved, and the UI shows it. A fetch in the main context "
                + "includes the context's unsaved changes; a fetch in any other context sees only the store. Read "
                + "the titles in the main context, on its queue.")
            try expect(titles == ["Aftershow", "Bonus", "Finale"], "unlistenedTitles() returned \(titles), not "
                + "[\"Aftershow\", \"Bonus\", \"Finale\"]: the titles of the episodes not listened to — the main "
                + "context's unsaved one included — sorted by title.")
            let fetches = log.fetches(from: "ZEPISODE")
            guard let fetch = fetches.last else {
                try expect(false, "unlistenedTitles() returned the right titles, but the SQL debug log shows no fetch "
                    + "of the episodes' table (ZEPISODE) while it ran:\n\(log.quoted())\nFetch them with a fetch "
                    + "request in the main context.")
                return
            }
            let read = fetches.reduce(0) { $0 + $1.rows }
            try expect(fetch.whereClause?.contains("ZLISTENED") ?? false && read <= titles.count, "unlistenedTitles() "
                + "returned the right titles, but the store read \(read) episodes to find \(titles.count), with\n    "
                + "\(fetch.sql)\nwhich does not ask for the unlistened ones: Swift picked them afterwards. Put the "
                + "condition in the fetch request's predicate, so the store reads only those.")
            try expect(fetch.orderBy?.contains("ZTITLE") ?? false, "unlistenedTitles() returned the titles in order, "
                + "but the store ran\n    \(fetch.sql)\nwith no ORDER BY: Swift sorted them afterwards. A sort "
                + "descriptor on the title makes the store return them in order.")
        }
    }

    /// Runs an async call from a detached task (never on the main actor) and waits for it on this thread.
    private static func awaitResult<T: Sendable>(_ call: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Box<Result<T, any Error>>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { result.set(.success(try await call())) } catch { result.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        guard let value = result.value else { throw KataSetupError(message: "the task ended without a result") }
        return try value.get()
    }

    // MARK: Practical Core Data's arrangement: a private-queue writer on the store, the UI context its child

    /// What one call of `save(completion:)` reported: each call of its completion, with what the store held then.
    private func saveThroughWriter(_ stack: WriterStack) throws -> [(result: Result<Void, any Error>, stored: [String])] {
        let calls = Recorder<(result: Result<Void, any Error>, stored: [String])>()
        let done = XCTestExpectation(description: "save(completion:)")
        done.assertForOverFulfill = false
        let reader = container.newBackgroundContext()
        stack.save { result in
            let inStore = reader.performAndWait {
                ((try? reader.fetch(Episode.fetchRequest())) ?? []).map(\.title).sorted()
            }
            calls.append((result, inStore))
            done.fulfill()
        }
        let waited = XCTWaiter().wait(for: [done], timeout: Self.patience)
        try expect(waited == .completed, "save(completion:) never called its completion (waited "
            + "\(Int(Self.patience)) s): call it once the writer's save is done, whatever happened.")
        // Let both queues finish what they were given, so a second call of the completion shows.
        let writer = stack.writerContext
        writer.performAndWait {}
        drainMainQueue()
        writer.performAndWait {}
        let reported = calls.values
        if case .failure(let notDone as KataNotDone)? = reported.first?.result { throw notDone }
        return reported
    }

    func test06_writerWritesTheStoreOffTheMainQueue() {
        kata(6, in: "WriterStack.swift", "init(container:) and save(completion:)") {
            let stack = try WriterStack(container: container)
            let writer = stack.writerContext
            let main = stack.mainContext
            try expect(writer.concurrencyType == .privateQueueConcurrencyType,
                       "writerContext is a main-queue context: it writes "
                + "the store, and on the main queue that blocks the UI. Give it a private queue of its own.")
            try expect(writer.parent == nil && writer.persistentStoreCoordinator === container.persistentStoreCoordinator,
                       "writerContext is not attached to the container's coordinator"
                        + (writer.parent != nil ? " (it has a parent)" : "") + ": it is the one context that writes "
                        + "to the store, so it sits directly on the coordinator.")
            try expect(main !== container.viewContext, "mainContext is the container's viewContext, which belongs to "
                + "the container and is attached to its coordinator. Make a main-queue context of your own, with "
                + "the writer as its parent.")
            try expect(main.concurrencyType == .mainQueueConcurrencyType,
                       "mainContext is a private-queue context: the UI uses it "
                + "on the main thread, so it is a main-queue context.")
            try expect(main.parent === writer, "mainContext's parent is not writerContext: its save must hand the "
                + "changes to the writer, in memory, and only the writer writes the store.")

            let saves = recordSaves()
            Episode(context: main).title = "Pilot"
            let calls = try saveThroughWriter(stack)
            try calls[0].result.get()
            let inStore = try stored()
            if inStore.isEmpty {
                let writerHolds = writer.performAndWait { writer.hasChanges }
                try expect(false, writerHolds
                    ? "the episode reached writerContext but not the store: the main context's save only hands its "
                        + "changes to its parent, in memory. The writer has to save too — on its own queue."
                    : main.hasChanges
                        ? "mainContext still holds the episode unsaved: nothing reached the writer, so the writer "
                            + "had nothing to write. Save the main context first."
                        : "after save(completion:) the store holds no episode.")
            }
            try expect(inStore == ["Pilot"], "after save(completion:) the store holds \(inStore).")
            try expect(calls.count == 1, "the completion ran \(calls.count) times for one save; call it once, "
                + "after the writer's save.")
            try expect(calls[0].stored == ["Pilot"], "when the completion ran, the store did not hold the episode "
                + "yet: it was called before the writer's save had finished.")
            let writerSaves = saves.values.filter { $0.context === writer }
            try expect(!writerSaves.isEmpty, "the store has the episode, but writerContext never saved.")
            try expect(!writerSaves.contains(where: \.onMainThread), "the writer's save ran on the main thread: the "
                + "main queue waited while the store was written — the very wait this arrangement exists to avoid. "
                + "Save the writer on its own queue with the call that returns at once, and report from there.")

            // A save the UI context itself refuses: the user left an episode without its mandatory title (1570).
            _ = Episode(context: main)
            let refused = try saveThroughWriter(stack)
            try expect(refused.count == 1, "the completion ran \(refused.count) times for one save the main context "
                + "refused; call it once.")
            guard case .failure = refused[0].result else {
                try expect(false, "the main context's save failed (an episode without its mandatory title), but "
                    + "save(completion:) reported success: nothing reached the writer, the writer saved nothing, and "
                    + "the user is told the edit is stored. Either save's error is the caller's to hear.")
                return
            }
            main.rollback()                                 // the user gives the edit up

            // A store write that fails: other code left an episode without its mandatory title in the writer, so
            // the writer's next save fails (1570).
            writer.performAndWait { _ = Episode(context: writer) }
            let finale = Episode(context: main)
            finale.title = "Finale"
            let failed = try saveThroughWriter(stack)
            try expect(failed.count == 1, "the completion ran \(failed.count) times for one failed save; call it "
                + "once, after the writer's save, whatever its outcome.")
            guard case .failure = failed[0].result else {
                try expect(false, "the writer's save failed (it held an episode without its mandatory title), but "
                    + "save(completion:) reported success: the store holds \(failed[0].stored), and the user is "
                    + "told Finale is saved. Report the writer's error through the completion.")
                return
            }
            let writerDirty = writer.performAndWait { writer.hasChanges }
            try expect(!writerDirty, "the writer's save failed and save(completion:) reported it, but the writer "
                + "still holds the failed changes (hasChanges is true): the episode without a title stays in it, and "
                + "every later save of the app fails with the same error, however valid its own work. A failed "
                + "save must leave the writer clean, as kata 1 of lesson 5 does for any context.")
            try expect(finale.managedObjectContext !== main, "the writer's save failed and was rolled back, which "
                + "dropped the Finale the main context had handed it — but the main context still holds Finale as "
                + "saved (hasChanges is \(main.hasChanges)): the screen shows an episode that is in neither the writer "
                + "nor the store, and no later save will write it. Before the failure is reported, bring the main "
                + "context back to what its parent holds, on the main queue, so the screen fetches again.")
        }
    }

    func test07_writerStackLeavesPermanentIDs() {
        kata(7, in: "WriterStack.swift", "save(completion:)") {
            let stack = try WriterStack(container: container)
            let pilot = Episode(context: stack.mainContext)
            pilot.title = "Pilot"
            let finale = Episode(context: stack.mainContext)
            finale.title = "Finale"
            let calls = try saveThroughWriter(stack)
            try calls[0].result.get()
            let ids = [pilot.objectID, finale.objectID]
            try expect(!ids.contains(where: \.isTemporaryID), "after save(completion:) the main context's new "
                + "episodes still have temporary IDs. Apple documents only that a temporary ID is replaced when the "
                + "object is saved to a store; that another context cannot look an object up by it is reported "
                + "behaviour, and Persistence refuses such a lookup. The main context is a "
                + "child: its save hands the objects to the writer, and the writer's save gives the writer's copies "
                + "their permanent IDs, not the main context's. Get permanent IDs for the new objects before the "
                + "main context saves.")
            let reader = container.newBackgroundContext()
            let titles = reader.performAndWait {
                ids.map { (try? reader.existingObject(with: $0) as? Episode)?.title ?? "(not found)" }
            }
            try expect(titles == ["Pilot", "Finale"], "looked up by the IDs the main context's episodes carry after "
                + "the save, another context finds \(titles), not [\"Pilot\", \"Finale\"].")
        }
    }

    // MARK: The importer

    func test08_importerWorksInABackgroundTask() {
        kata(8, in: "EpisodeImporter.swift", "importEpisodes(_:completion:)") {
            let importer = EpisodeImporter(container: container)
            let saves = recordSaves()
            let result = Box<Result<[ManagedObjectID], any Error>>()
            let done = expectation(description: "importEpisodes(_:completion:)")
            importer.importEpisodes(["Pilot", "Finale"]) { outcome in
                result.set(outcome)
                done.fulfill()
            }
            let waited = XCTWaiter().wait(for: [done], timeout: Self.patience)
            try expect(waited == .completed, "importEpisodes(_:completion:) never called its completion (waited "
                + "\(Int(Self.patience)) s): call it at the end of the background task, whatever happened.")
            let ids = try require(result.value, "importEpisodes(_:completion:) reported nothing.").get()
            let inStore = try stored()
            try expect(inStore == ["Finale", "Pilot"], "after importEpisodes the store holds \(inStore), "
                + "not [\"Finale\", \"Pilot\"]: save the background task's context.")
            try expect(ids.count == 2, "importEpisodes reported \(ids.count) IDs for two episodes.")
            try expect(!ids.contains(where: \.isTemporaryID), "importEpisodes reported temporary IDs: an object "
                + "gets its permanent ID when it is saved, and only that one is reliably found by other contexts (a lookup "
                + "by a temporary ID is reported to fail on Apple, and fails here). "
                + "Collect the IDs after the save.")
            let titles = try ids.map { id in
                try require(try context.existingObject(with: id) as? Episode, "an ID importEpisodes reported is "
                    + "not an episode.").title
            }
            try expect(titles == ["Pilot", "Finale"], "the reported IDs are, in the main context, the episodes "
                + "\(titles), not [\"Pilot\", \"Finale\"] in the order of the titles.")
            let savers = saves.values.filter { $0.inserted > 0 }.map(\.context)
            try expect(!savers.contains { $0 === context }, "the episodes were saved by the viewContext: the import "
                + "ran as main-queue work. Import in a private-queue context of the task's own.")
            try expect(!savers.contains { $0 === importer.context }, "the episodes were saved by the importer's own "
                + "long-lived context, the one importForDisplay works in: two imports sharing a context share its "
                + "queue, its unsaved changes and its failures. importEpisodes is to work in a context made for this "
                + "one task, which the container hands out and lets go afterwards.")

            // A feed with nothing new: no titles. The caller still waits for its one report.
            let emptyReports = Recorder<Result<[ManagedObjectID], any Error>>()
            let emptyDone = XCTestExpectation(description: "importEpisodes([])")
            importer.importEpisodes([]) { outcome in
                emptyReports.append(outcome)
                if emptyReports.values.count == 1 { emptyDone.fulfill() }
            }
            let emptyWaited = XCTWaiter().wait(for: [emptyDone], timeout: 2)
            try expect(emptyWaited == .completed, "importEpisodes([]) — a feed with nothing new — never called its "
                + "completion (waited two seconds): the caller waits for ever. An import of nothing is a success "
                + "with no IDs.")
            _ = XCTWaiter().wait(for: [XCTestExpectation(description: "a moment")], timeout: 0.3)
            let emptyOutcomes = emptyReports.values
            if case .failure(let notDone as KataNotDone)? = emptyOutcomes.first { throw notDone }
            let emptyIDs = try emptyOutcomes[0].get()
            try expect(emptyIDs.isEmpty && emptyOutcomes.count == 1, "importEpisodes([]) reported "
                + "\(emptyIDs.count) IDs in \(emptyOutcomes.count) calls of its completion, not one call with none.")

            // An import whose save fails: the container's store has gone (removed from its coordinator, as an app
            // does before replacing the file), so nothing can be written.
            let closed = try Self.makeInMemoryContainer(model: try Self.makeModel())
            for store in closed.persistentStoreCoordinator.persistentStores {
                try closed.persistentStoreCoordinator.remove(store)
            }
            let failing = EpisodeImporter(container: closed)
            let reports = Recorder<Result<[ManagedObjectID], any Error>>()
            let reported = XCTestExpectation(description: "importEpisodes(_:completion:) with a failing save")
            let reportedAgain = XCTestExpectation(description: "a second report of the same import")
            reportedAgain.isInverted = true
            failing.importEpisodes(["Bonus"]) { outcome in
                reports.append(outcome)
                if reports.values.count == 1 { reported.fulfill() } else { reportedAgain.fulfill() }
            }
            let waitedForFailure = XCTWaiter().wait(for: [reported], timeout: 2)
            try expect(waitedForFailure == .completed, "when the import's save failed, importEpisodes(_:completion:) "
                + "never called its completion (waited two seconds): its caller waits for ever, and a "
                + "screen shows its spinner for good. Report the save's error through the completion.")
            if case .failure(let notDone as KataNotDone)? = reports.values.first { throw notDone }
            // A second report would come straight after the first, from the same block: a moment is plenty.
            _ = XCTWaiter().wait(for: [reportedAgain], timeout: 0.5)
            let outcomes = reports.values
            guard case .failure? = outcomes.first else {
                try expect(false, "the import's save failed (the container's store had gone), but the completion "
                    + "got success, with IDs of episodes that are in no store: the caller goes on to look them up, "
                    + "and finds nothing. A save that fails must reach the caller as an error.")
                return
            }
            let later = outcomes.dropFirst().map { outcome in
                if case .success = outcome { "success" } else { "an error" }
            }
            try expect(outcomes.count == 1, "the import's save failed and the completion was told so — and then "
                + "called again, with \(later.joined(separator: " and ")). A completion is called once: its caller acts on each call (shows an "
                + "error, then a list of episodes that are nowhere), and code that resumes a continuation from it "
                + "crashes on the second.")
        }
    }

    func test09_importerHandsResultsToTheMainQueueWithoutWaiting() {
        kata(9, in: "EpisodeImporter.swift", "importForDisplay(_:completion:)") {
            let importer = EpisodeImporter(container: container)
            // An episode called Pilot is already stored — another show's, or last season's — and on screen.
            let olderPilot = try savedEpisodes("Pilot")[0]
            olderPilot.listened = true
            try context.save()
            let outcome = Box<(result: Result<[Episode], any Error>, onMain: Bool)>()
            let done = expectation(description: "importForDisplay(_:completion:)")
            // The importer's queue is busy for a moment with earlier work (at most two seconds): a call that waits
            // for the import waits for that too.
            let busy = DispatchSemaphore(value: 0)
            let busyOver = Box<Bool>()
            importer.context.perform {
                _ = busy.wait(timeout: .now() + 2)
                busyOver.set(true)
            }
            importer.importForDisplay(["Pilot", "Finale"]) { result in
                outcome.set((result, Thread.isMainThread))
                done.fulfill()
            }
            // The earlier work ends only when released here, or after two seconds: a call that returned while it
            // was still running did not wait for the importer's queue, however slow the machine.
            let callerWaited = busyOver.value == true
            busy.signal()
            // region: deadlock-probe
            // Meanwhile the main thread waits for the importer's queue, as an app does with performAndWait. If the
            // importer's block waits for the main queue in turn, neither can go on: the kata gives up after two
            // seconds where the app would hang for ever, then lets the main queue run so the block can finish.
            let queueFree = DispatchSemaphore(value: 0)
            importer.context.perform { queueFree.signal() }
            let probe = queueFree.wait(timeout: .now() + 2)
            // endregion: deadlock-probe
            let waited = XCTWaiter().wait(for: [done], timeout: Self.patience)
            if case .failure(let notDone as KataNotDone)? = outcome.value?.result { throw notDone }
            try expect(probe == .success, "deadlock: the main thread waited for the importer's context while the "
                + "importer's block waited for the main queue (performAndWait on the viewContext, or "
                + "DispatchQueue.main.sync). Each waited for the other; an app would hang here. Hand the results "
                + "to the main queue with perform (it returns at once) and never wait for the main queue from a "
                + "background one.")
            try expect(waited == .completed, "importForDisplay(_:completion:) never called its completion (waited "
                + "\(Int(Self.patience)) s).")
            let (result, onMain) = try require(outcome.value, "importForDisplay(_:completion:) reported nothing.")
            let episodes = try result.get()
            try expect(onMain, "the completion ran on a background thread; call it on the main queue "
                + "(viewContext.perform), where its episodes may be used.")
            try expect(episodes.count == 2, "the completion got \(episodes.count) episodes for two titles.")
            try expect(episodes.allSatisfy { $0.managedObjectContext === context }, "the completion got episodes "
                + "that belong to " + (episodes.contains { $0.managedObjectContext === importer.context }
                    ? "the importer's background context" : "another context, or to none")
                + ", not to the viewContext: they may be used only on that context's queue. Hand the main queue "
                + "their objectIDs and look them up in the viewContext.")
            try expect(episodes.map(\.title) == ["Pilot", "Finale"], "the completion got \(episodes.map(\.title)), "
                + "not [\"Pilot\", \"Finale\"].")
            try expect(!episodes.contains { $0 === olderPilot }, "the completion got the Pilot that was stored before "
                + "the import (listened to), not the one just imported: the episodes were found again by title, and "
                + "a title names no episode for sure. Only the object ID names the very episode the import saved.")
            try expect(!callerWaited, "importForDisplay(_:completion:) kept its caller — here the main thread — "
                + "waiting until the importer's queue was free and the import done: on a device the UI freezes for "
                + "the whole import. Queue the import on the importer's "
                + "context and return at once; the completion brings the result.")

            // A refresh that brings nothing new: no titles. The screen still waits for its one report.
            let emptyCalls = Recorder<(result: Result<[Episode], any Error>, onMain: Bool)>()
            let emptyDone = XCTestExpectation(description: "importForDisplay([])")
            importer.importForDisplay([]) { result in
                emptyCalls.append((result, Thread.isMainThread))
                if emptyCalls.values.count == 1 { emptyDone.fulfill() }
            }
            let emptyWaited = XCTWaiter().wait(for: [emptyDone], timeout: Self.patience)
            try expect(emptyWaited == .completed, "importForDisplay([]) — nothing new to show — never called its "
                + "completion (waited \(Int(Self.patience)) s): the screen's spinner turns for ever. An import of "
                + "nothing is a success with no episodes, reported like any other.")
            _ = XCTWaiter().wait(for: [XCTestExpectation(description: "a moment")], timeout: 0.3)
            let empty = emptyCalls.values
            let emptyEpisodes = try empty[0].result.get()
            try expect(emptyEpisodes.isEmpty && empty.count == 1 && empty[0].onMain, "importForDisplay([]) reported "
                + "\(emptyEpisodes.count) episodes in \(empty.count) calls of its completion"
                + (empty[0].onMain ? "" : ", off the main queue") + ": one call, on the main queue, with none.")

            // A second import whose save fails: other code left an episode without its mandatory title in the
            // importer's context (1570).
            let importing = importer.context
            importing.performAndWait { _ = Episode(context: importing) }
            let failedOutcome = Box<(result: Result<[Episode], any Error>, onMain: Bool)>()
            let failedCalls = Recorder<Bool>()
            let failedDone = XCTestExpectation(description: "importForDisplay(_:completion:) with a failing save")
            let failedAgain = XCTestExpectation(description: "a second report of the same import")
            failedAgain.isInverted = true
            importer.importForDisplay(["Bonus"]) { result in
                failedCalls.append(true)
                if failedCalls.values.count == 1 {
                    failedOutcome.set((result, Thread.isMainThread))
                    failedDone.fulfill()
                } else {
                    failedAgain.fulfill()
                }
            }
            let failedWaited = XCTWaiter().wait(for: [failedDone], timeout: Self.patience)
            try expect(failedWaited == .completed, "when the import's save failed, importForDisplay(_:completion:) "
                + "never called its completion (waited \(Int(Self.patience)) s): the screen waits for ever. Report "
                + "the error through the completion.")
            let (failedResult, failedOnMain) = try require(failedOutcome.value, "importForDisplay(_:completion:) "
                + "reported nothing for an import whose save failed.")
            guard case .failure = failedResult else {
                let storedThen = try stored()
                try expect(false, "the import's save failed (the importer's context also held an episode without "
                    + "its mandatory title), but the completion got episodes, as if Bonus were stored; the store "
                    + "holds \(storedThen). Report the save's error.")
                return
            }
            try expect(failedOnMain, "the failure was reported on a background thread, the success on the main "
                + "queue: the screen that shows the error runs on the main queue, so both outcomes belong there.")
            // A second report follows the first within moments, if it comes: half a second is plenty.
            _ = XCTWaiter().wait(for: [failedAgain], timeout: 0.5)
            try expect(failedCalls.values.count == 1, "the import's save failed and the completion was told so — and "
                + "then called again for the same import (\(failedCalls.values.count) calls in all). A completion is called "
                + "once: the screen acts on each call, and code that resumes a continuation from it crashes on the "
                + "second.")
            let leftBehind = importing.performAndWait { importing.hasChanges }
            try expect(!leftBehind, "after its save failed, the import left the failed changes in the importer's "
                + "context: every later import fails with the same error. Put the context back to its last saved "
                + "state when the save fails.")
        }
    }
}
