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

/// Lesson 7 — Threads and queues. Kata 1: the complex stack (a background child of the main context); 2–5: the
/// complex manager, called from other threads and tasks; 6–7: an importer that works in the background and hands
/// its results to the main queue without waiting for it.
///
/// Several katas call the code under test from a background thread and wait for it with a time limit, so that a
/// deadlock fails the kata instead of hanging the run.
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

    /// A background child of the kata's main context, as the complex stack makes it — made here, so the manager's
    /// katas do not depend on kata 1.
    private func backgroundChild() -> ManagedObjectContext {
        let background = ManagedObjectContext(concurrencyType: .privateQueue)
        background.parent = context
        background.mergePolicy = .mergeByPropertyObjectTrump
        return background
    }

    /// Title and listened flag of every episode in the store, sorted by title, read through a context of its own.
    private func stored() throws -> [String] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let request = Episode.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(\Episode.title)]
            return try reader.fetch(request).map { $0.title + ($0.listened ? " (listened)" : "") }
        }
    }

    /// Why the store lacks an episode that the main context holds as an unsaved insert, or nil.
    private func stoppedAtTheParent() throws -> String? {
        guard try stored().isEmpty, context.insertedObjects.contains(where: { $0 is Episode }) else { return nil }
        return "the episode reached mainContext but not the store: saving a child context (the background one) "
            + "pushes its changes into its parent only. Save mainContext as well, on its own queue."
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

    // MARK: The complex stack

    func test01_stackPutsABackgroundChildUnderTheMainContext() {
        kata(1, in: "EpisodeStack.swift", "init(container:)") {
            let stack = try EpisodeStack(container: container)
            try expect(stack.mainContext === container.viewContext, "mainContext is not the container's "
                + "viewContext: the UI reads the main-queue context the container already has.")
            let background = stack.backgroundContext
            try expect(background.concurrencyType == .privateQueue, "backgroundContext is a main-queue context; "
                + "writes belong on a private queue of their own (ManagedObjectContext(concurrencyType: "
                + ".privateQueue)), or they block the UI.")
            try expect(background.parent === stack.mainContext, background.parent == nil
                ? "backgroundContext has no parent: it saves straight to the store, a sibling of mainContext. The "
                    + "complex stack makes it a child of mainContext (set its parent), so the main context sees "
                    + "each background save at once."
                : "backgroundContext's parent is not mainContext.")
            try expect(background.mergePolicy == .mergeByPropertyObjectTrump, "backgroundContext's merge policy is "
                + "\(background.mergePolicy)" + (background.mergePolicy == .error ? ", the default: a conflict with "
                    + "the main context fails the save (133020)." : ".")
                + " The complex stack lets the background's changes win, property by property.")
        }
    }

    // MARK: The complex manager

    func test02_addWritesOnTheBackgroundQueue() {
        kata(2, in: "EpisodeManager.swift", "add(title:)") {
            let manager = EpisodeManager(mainContext: context, backgroundContext: backgroundChild())
            try onAnotherThread("add(title:) did not return within \(Int(Self.patience)) s: it waits for something "
                + "that never comes. Use backgroundContext.performAndWait, which runs the work and returns.") {
                try manager.add(title: "Pilot")
            }
            if let stuck = try stoppedAtTheParent() { try expect(false, stuck) }
            let inStore = try stored()
            try expect(inStore == ["Pilot"], inStore.isEmpty
                ? "add(title:) returned, but the episode is neither in the store nor in the main context: the work "
                    + "had not run yet when add returned. perform only queues a block and returns at once; "
                    + "performAndWait runs it and returns when it is done."
                : "after add(title: \"Pilot\") the store holds \(inStore).")
        }
    }

    func test03_addWorksWhenCalledOnTheQueueItself() {
        kata(3, in: "EpisodeManager.swift", "add(title:)") {
            let background = backgroundChild()
            let manager = EpisodeManager(mainContext: context, backgroundContext: background)
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
            try expect(count == 1, "inside backgroundContext.performAndWait, add(title:) returned before its "
                + "episode was in the background context (found \(count)): perform only queues the work; "
                + "performAndWait does it before returning, even when called on its own queue.")
            if let stuck = try stoppedAtTheParent() { try expect(false, stuck) }
            let inStore = try stored()
            try expect(inStore == ["Pilot"], "add(title:) called on the background queue did not store the "
                + "episode; the store holds \(inStore).")
        }
    }

    func test04_markListenedHandsOverTheObjectID() {
        kata(4, in: "EpisodeManager.swift", "markListened(_:)") {
            let background = backgroundChild()
            let manager = EpisodeManager(mainContext: context, backgroundContext: background)
            let episodes = try savedEpisodes("Pilot", "Finale")
            nonisolated(unsafe) let pilot = episodes[0]     // the caller's object, from the main context
            try onAnotherThread("markListened(_:) did not return within \(Int(Self.patience)) s.") {
                try manager.markListened(pilot)
            }
            let inStore = try stored()
            try expect(inStore == ["Finale", "Pilot (listened)"], "after markListened(Pilot) the store holds "
                + "\(inStore), not [\"Finale\", \"Pilot (listened)\"]. Change the background context's own copy of "
                + "the episode, then save the background context and its parent.")
            let changedInBackground = background.performAndWait {
                background.registeredObjects.contains { ($0 as? Episode)?.listened == true }
            }
            try expect(changedInBackground, "the store has the change, but it was not made in the background "
                + "context: the caller's episode belongs to the main context, and crossed over as an object. Hand "
                + "the background context its objectID and change the copy it looks up.")
            try expect(pilot.listened, "the store has Pilot listened, but the main context's Pilot still reads "
                + "not listened.")
        }
    }

    func test05_titlesCanBeReadFromAnyTask() {
        kata(5, in: "EpisodeManager.swift", "unlistenedTitles()") {
            let manager = EpisodeManager(mainContext: context, backgroundContext: backgroundChild())
            let episodes = try savedEpisodes("Pilot", "Finale", "Bonus")
            episodes[0].listened = true
            try context.save()
            // Called from a task that is not on the main actor: the caller is not on the main context's queue.
            let titles = try onAnotherThread("unlistenedTitles() did not return within \(Int(Self.patience)) s.") {
                try Self.awaitResult { try await manager.unlistenedTitles() }
            }
            try expect(titles == ["Bonus", "Finale"], "unlistenedTitles() returned \(titles), not [\"Bonus\", "
                + "\"Finale\"]: the titles of the episodes not listened to, sorted by title.")
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

    // MARK: The importer

    func test06_importerWorksInABackgroundTask() {
        kata(6, in: "EpisodeImporter.swift", "importEpisodes(_:completion:)") {
            let importer = EpisodeImporter(container: container)
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
                + "gets its permanent ID when it is saved, and only that one can be found by other contexts. "
                + "Collect the IDs after the save.")
            let titles = try ids.map { id in
                try require(try context.existingObject(with: id) as? Episode, "an ID importEpisodes reported is "
                    + "not an episode.").title
            }
            try expect(titles == ["Pilot", "Finale"], "the reported IDs are, in the main context, the episodes "
                + "\(titles), not [\"Pilot\", \"Finale\"] in the order of the titles.")
        }
    }

    func test07_importerHandsResultsToTheMainQueueWithoutWaiting() {
        kata(7, in: "EpisodeImporter.swift", "importForDisplay(_:completion:)") {
            let importer = EpisodeImporter(container: container)
            let outcome = Box<(result: Result<[Episode], any Error>, onMain: Bool)>()
            let done = expectation(description: "importForDisplay(_:completion:)")
            importer.importForDisplay(["Pilot", "Finale"]) { result in
                outcome.set((result, Thread.isMainThread))
                done.fulfill()
            }
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
        }
    }
}
