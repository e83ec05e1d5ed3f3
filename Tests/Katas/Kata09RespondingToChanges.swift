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

/// Lesson 9 — Responding to changes in another context. Katas 1–2: a log of one context's saves; 3–4: a view
/// context kept current, by hand and then automatically; 5: a paged import that keeps the view context quiet and
/// refreshes it once; 6: a batch update that posts nothing, merged by hand.
///
/// Notifications arrive on the queue of the context that posts them; merges run later, on the view context's queue
/// (the main queue, which runs while a kata waits). Every wait here has a time limit.
final class Kata09RespondingToChanges: KataCase {
    override class var lesson: Int { 9 }
    override class var folder: String { "09-responding-to-changes" }
    override class func makeModel() throws -> ManagedObjectModel { try model.get() }

    /// Lesson 2's Garden model, read once for the whole suite.
    private static let model = Result { try GardenModel.make() }

    /// Whole seconds, so that a date read back from the store compares equal.
    private let watered = Date(timeIntervalSinceReferenceDate: 800_000_000)

    // MARK: Waiting, with a time limit

    /// Runs `work` in `context` with `perform` — on the context's own thread, as an app's background work runs —
    /// and waits for it (five seconds at most). Returns what it returned.
    private func inBackground<T: Sendable>(_ context: ManagedObjectContext, _ what: String,
                                           _ work: @escaping @Sendable () throws -> T) throws -> T {
        let result = LockedBox<Result<T, any Error>?>(nil)
        context.perform { result.value = Result { try work() } }
        try expect(eventually { result.value != nil }, "the kata's own background work (\(what)) did not finish "
            + "within five seconds: is the main queue blocked, or a context's queue waiting for it?")
        return try result.value!.get()
    }

    /// Runs `work` in `context` with `perform` while the main thread — the view context's queue — waits for it
    /// without running, as an app's main thread does when it calls `performAndWait` on a background context. Returns
    /// `nil` when the work was not done within three seconds: something in it waited for the main queue. It then
    /// lets the main queue run until the work is done (five more seconds at most), so that nothing stays blocked.
    private func whileMainWaits<T: Sendable>(_ context: ManagedObjectContext, _ what: String,
                                             _ work: @escaping @Sendable () throws -> T) throws -> T? {
        let result = LockedBox<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        context.perform {
            result.value = Result { try work() }
            done.signal()
        }
        if done.wait(timeout: .now() + 3) == .timedOut {
            try expect(eventually { result.value != nil }, "the kata's own background work (\(what)) did not finish "
                + "even once the main queue ran again.")
            return nil
        }
        return try result.value!.get()
    }

    /// Plants saved in the view context, which keeps them (their values read) as a screen would.
    private func viewPlants(_ names: String...) throws -> [Plant] {
        let plants = names.map { name -> Plant in
            let plant = Plant(context: context)
            plant.name = name
            return plant
        }
        try context.save()
        return plants
    }

    /// The sets of a did-save or did-change notification, read without the lesson's helpers.
    private static func ids(_ note: Notification, _ key: String) -> Set<ManagedObjectID> {
        (note.userInfo?[key] as? Set<ManagedObject>).map { Set($0.map(\.objectID)) } ?? []
    }

    // MARK: Observing one context's saves

    func test01_saveLogCollectsTheObservedContextsSaves() {
        kata(1, in: "SaveLog.swift", "start()") {
            let background = container.newBackgroundContext()
            let log = SaveLog(observing: background)
            try log.start()
            defer { log.stop() }
            let watered = self.watered
            // The main thread waits for the saves, as it does in an app that calls performAndWait on a background
            // context: an observer whose block waits for the main queue holds each save up until it is free.
            let saved = try whileMainWaits(background, "three saves") { () -> (ManagedObjectID, ManagedObjectID) in
                let fern = Plant(context: background)
                fern.name = "Fern"
                let rose = Plant(context: background)
                rose.name = "Rose"
                try background.save()
                fern.wateredOn = watered
                try background.save()
                background.delete(rose)
                try background.save()
                return (fern.objectID, rose.objectID)
            }
            guard let ids = saved else {
                return try expect(false, "the background context's saves did not finish while the main thread waited "
                    + "for them (three seconds): the log's observer runs its block on the main queue (or waits for "
                    + "it), and the main queue was waiting for the saves. On a device neither moves again. Let the "
                    + "block run right where the notification is posted (queue: nil); the lock makes that safe.")
            }
            let (fern, rose) = ids
            let countedDuringSaves = log.saves
            try expect(eventually { log.saves >= 3 }, "the background context saved three times and the log counted "
                + "\(log.saves) saves. Observe ManagedObjectContext.didSaveObjectsNotification of the context the log "
                + "was given, and count each one.")
            try expect(log.saves == 3, "the background context saved three times and the log counted \(log.saves).")
            try expect(countedDuringSaves == 3, "when the last of the three saves returned, the log had counted "
                + "\(countedDuringSaves) of them; the rest came later, handed to another queue. A did-save observer "
                + "registered with queue: nil runs during the save, on the saving context's queue; one given a queue "
                + "(the main queue, say) runs only when that queue is free — and on Apple platforms the post is "
                + "reported to wait for it, so a main thread waiting for the save never gets there. Observe with "
                + "queue: nil.")
            if log.inserted.isEmpty && log.updated.isEmpty && log.deleted.isEmpty {
                try expect(false, "the log counted three saves but collected no object IDs. The user info is keyed by "
                    + "strings: look the objects up under NotificationKey.insertedObjects.rawValue (\"inserted\"), "
                    + "not under the enum case itself.")
            }
            if log.inserted.contains(where: \.isTemporaryID) {
                try expect(false, "the inserted IDs the log collected are temporary. Did-change is posted before a "
                    + "save, while new objects still have temporary IDs; collect the did-save notification, whose "
                    + "objects have their permanent IDs.")
            }
            try expect(log.inserted == [fern, rose], "the log's inserted IDs are \(log.inserted), not the two plants "
                + "the first save inserted.")
            try expect(log.updated == [fern], "the log's updated IDs are \(log.updated), not the one plant the "
                + "second save changed (the inserted ones are not updates).")
            try expect(log.deleted == [rose], "the log's deleted IDs are \(log.deleted), not the one plant the third "
                + "save deleted.")
        }
    }

    func test02_saveLogIgnoresOtherContextsAndStops() {
        kata(2, in: "SaveLog.swift", "start()") {
            let background = container.newBackgroundContext()
            let other = container.newBackgroundContext()
            let log = SaveLog(observing: background)
            try log.start()
            try log.start()                                 // a second screen starts the same log again
            defer { log.stop() }
            _ = try viewPlants("Fern")
            try inBackground(other, "a save in another context") {
                Plant(context: other).name = "Rose"
                try other.save()
            }
            settle()
            try expect(log.saves == 0 && log.inserted.isEmpty, "two other contexts saved and the log collected "
                + "\(log.saves) save(s): it listens to every context. Name the one to observe: the object: argument of "
                + "addObserver is the context the log was given (nil means any context of any store).")
            try inBackground(background, "a save in the observed context") {
                Plant(context: background).name = "Basil"
                try background.save()
            }
            try expect(eventually { log.saves >= 1 }, "the observed context saved and the log counted no save.")
            settle()
            try expect(log.saves == 1, "the observed context saved once and the log counted \(log.saves) saves: "
                + "start() was called twice, and each call registered an observer of its own. The first token was "
                + "overwritten, so stop() can never remove that observer. Starting a log that runs already must not "
                + "register a second observer.")
            log.stop()
            try inBackground(background, "a save after stop()") {
                Plant(context: background).name = "Tulip"
                try background.save()
            }
            settle()
            try expect(log.saves == 1, "after stop() the log still collects saves (\(log.saves) counted): a block "
                + "observer stays registered until its token is removed. Keep what addObserver returns in `observer`; "
                + "stop() hands it back to the notification center.")

            // A log whose owner — a screen that closed — lets it go without calling stop().
            weak var forgotten: SaveLog?
            do {
                let screenLog = SaveLog(observing: background)
                try screenLog.start()
                forgotten = screenLog
            }
            try inBackground(background, "a save after the log's owner let it go") {
                Plant(context: background).name = "Yarrow"
                try background.save()
            }
            settle()
            try expect(forgotten == nil, "a log nobody holds any more is still alive, and still counting "
                + "(\(forgotten?.saves ?? 0) save(s) since): its observer block holds the log strongly, and the "
                + "notification center holds the block for as long as the observer is registered — which is for "
                + "ever, since the log's deinit, where stop() would remove it, never runs. Let the block hold the "
                + "log weakly.")
        }
    }

    // MARK: Keeping the view context current

    /// Why the view context does not show the background save yet (Fern watered, Rose deleted, Basil inserted), or
    /// nil when it does. `told` holds the IDs the view context's did-change notifications reported inserted: a merge
    /// hands new objects to those observers, and the context keeps them only while someone does (as on Apple, where
    /// a context holds an unchanged object weakly), so being registered proves nothing.
    private func staleness(fern: Plant, rose: Plant, basilID: ManagedObjectID,
                           told: LockedBox<Set<ManagedObjectID>>) -> String? {
        if fern.wateredOn != watered {
            return "the view context's Fern still reads wateredOn \(fern.wateredOn.map { "\($0)" } ?? "nil"); the "
                + "save set it to \(watered)"
        }
        if context.registeredObject(for: rose.objectID) != nil { return "the view context still holds Rose, which was deleted" }
        if !told.value.contains(basilID) {
            return "the view context was never told of Basil, which was inserted: its did-change notification did "
                + "not name it (a merge reports the new objects it brings)"
        }
        return nil
    }

    /// Records the IDs the view context's did-change notifications report inserted, until the returned token is
    /// removed.
    private func watchInsertions(_ told: LockedBox<Set<ManagedObjectID>>) -> any NSObjectProtocol {
        NotificationCenter.default.addObserver(forName: ManagedObjectContext.didChangeObjectsNotification,
                                               object: context, queue: nil) { note in
            told.value = told.value.union(Self.ids(note, "inserted"))
        }
    }

    func test03_viewContextMergesAnotherContextsSavesByHand() {
        kata(3, in: "ViewContextMerger.swift", "mergeSaves(of:)") {
            let plants = try viewPlants("Fern", "Rose")
            let (fern, rose) = (plants[0], plants[1])
            let told = LockedBox(Set<ManagedObjectID>())
            let watch = watchInsertions(told)
            defer { NotificationCenter.default.removeObserver(watch) }
            let background = container.newBackgroundContext()
            let merger = ViewContextMerger(container: container)
            try merger.mergeSaves(of: background)
            try merger.mergeSaves(of: background)           // set up twice, as an app that sets up per screen does
            defer { merger.stop() }
            // How many merges the view context reports (Core Data's did-merge notification, posted after each).
            let merges = LockedBox(0)
            let merging = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didMergeChangesObjectIDsNotification, object: context, queue: nil
            ) { _ in merges.value += 1 }
            defer { NotificationCenter.default.removeObserver(merging) }
            // A context of another store saves too: its objects mean nothing in this one.
            let elsewhere = try Self.makeInMemoryContainer(model: try Self.makeModel())
            let stranger = elsewhere.newBackgroundContext()
            try inBackground(stranger, "a save in another store") {
                Plant(context: stranger).name = "Stranger"
                try stranger.save()
            }
            let watered = self.watered
            // The main thread waits for this save, as it does in an app that calls performAndWait on a background
            // context: a merge that waits for the main queue from inside the save cannot finish until it is free.
            let saved = try whileMainWaits(background, "water Fern, delete Rose, add Basil") { () -> ManagedObjectID in
                let plants = try background.fetch(Plant.fetchRequest())
                for plant in plants where plant.name == "Fern" { plant.wateredOn = watered }
                for plant in plants where plant.name == "Rose" { background.delete(plant) }
                let basil = Plant(context: background)
                basil.name = "Basil"
                try background.save()
                return basil.objectID
            }
            guard let basilID = saved else {
                return try expect(false, "the background context's save did not finish while the main thread waited "
                    + "for it (three seconds): the observer block waits for the view context's queue — the main "
                    + "queue, which was waiting for the save. Hand the merge to the view context with perform, which "
                    + "returns at once, not performAndWait.")
            }
            _ = eventually { staleness(fern: fern, rose: rose, basilID: basilID, told: told) == nil }
            if let stale = staleness(fern: fern, rose: rose, basilID: basilID, told: told) {
                try expect(false, stale + ", five seconds after the background save. A context never learns of "
                    + "another's save by itself: observe the background context's did-save notification and hand it "
                    + "to viewContext.mergeChanges(fromContextDidSave:), on the view context's queue (perform).")
            }
            settle()
            try expect(merges.value == 1, "one background save was merged into the view context \(merges.value) "
                + "times: mergeSaves(of:) was called twice and registered an observer each time, so every save is "
                + "merged twice — and the first token was overwritten, so stop() can never remove that observer. "
                + "Setting up the merging again must not register a second observer.")
            let tulip = Plant(context: context)
            tulip.name = "Tulip"
            do {
                try context.save()
            } catch {
                try expect(false, "after the merges, saving the view context fails: it merged a save of a "
                    + "context of another store, whose IDs name nothing here. Observe the one context you were given "
                    + "(the object: argument of addObserver), not every context that saves. The save's error: \(error)")
            }
            merger.stop()
            let later = watered.addingTimeInterval(86_400)
            try inBackground(background, "water Fern again, after stop()") {
                for plant in try background.fetch(Plant.fetchRequest()) where plant.name == "Fern" {
                    plant.wateredOn = later
                }
                try background.save()
            }
            settle(0.5)
            try expect(fern.wateredOn == watered, "after stop() the view context still merges the background "
                + "context's saves (Fern reads the date saved after stop()): the observer is still registered, and "
                + "a block observer stays so until its token is removed. Keep what addObserver returns in "
                + "`observer`, which stop() hands back to the notification center.")

            // A merger whose owner lets it go without calling stop(): its deinit is what ends the merging.
            weak var forgotten: ViewContextMerger?
            do {
                let screenMerger = ViewContextMerger(container: container)
                try screenMerger.mergeSaves(of: background)
                forgotten = screenMerger
            }
            let evenLater = later.addingTimeInterval(86_400)
            try inBackground(background, "water Fern again, after the merger was let go") {
                for plant in try background.fetch(Plant.fetchRequest()) where plant.name == "Fern" {
                    plant.wateredOn = evenLater
                }
                try background.save()
            }
            settle(0.5)
            try expect(forgotten == nil && fern.wateredOn == watered, "a merger nobody holds any more "
                + (forgotten == nil ? "" : "is still alive and ") + "still merges the background context's saves "
                + "(Fern reads the date saved after it was let go): its observer block holds the merger, so its "
                + "deinit — which removes the observer — never runs. Let the block capture what the merge needs (the "
                + "view context), not the merger.")
        }
    }

    func test04_viewContextMergesEveryContextsSavesAutomatically() {
        kata(4, in: "ViewContextMerger.swift", "mergeAutomatically()") {
            let plants = try viewPlants("Fern", "Rose")
            let (fern, rose) = (plants[0], plants[1])
            let told = LockedBox(Set<ManagedObjectID>())
            let watch = watchInsertions(told)
            defer { NotificationCenter.default.removeObserver(watch) }
            let merger = ViewContextMerger(container: container)
            try merger.mergeAutomatically()
            try expect(context.automaticallyMergesChangesFromParent, "after mergeAutomatically() the view context "
                + "does not merge by itself: automaticallyMergesChangesFromParent is false on it (it is false by "
                + "default). Set it on the view context — the context that has to stay current.")
            // Two contexts made afterwards, which nobody observes by hand.
            let watered = self.watered
            let waterer = container.newBackgroundContext()
            let basilID = try inBackground(waterer, "water Fern, add Basil") { () -> ManagedObjectID in
                for plant in try waterer.fetch(Plant.fetchRequest()) where plant.name == "Fern" {
                    plant.wateredOn = watered
                }
                let basil = Plant(context: waterer)
                basil.name = "Basil"
                try waterer.save()
                return basil.objectID
            }
            let remover = container.newBackgroundContext()
            try inBackground(remover, "delete Rose") {
                for plant in try remover.fetch(Plant.fetchRequest()) where plant.name == "Rose" { remover.delete(plant) }
                try remover.save()
            }
            _ = eventually { staleness(fern: fern, rose: rose, basilID: basilID, told: told) == nil }
            if let stale = staleness(fern: fern, rose: rose, basilID: basilID, told: told) {
                try expect(false, stale + ", five seconds after two background saves. With automatic merging on, "
                    + "the view context merges the saves of every context on its coordinator by itself.")
            }
        }
    }

    // MARK: A large import

    func test05_pagedImportKeepsTheViewContextQuietThenResetsItOnce() {
        kata(5, in: "PlantImporter.swift", "importPlants(named:pageSize:completion:)") {
            context.automaticallyMergesChangesFromParent = true      // the app keeps its screen current
            let fern = try viewPlants("Fern")[0]
            let coordinator = container.persistentStoreCoordinator
            let view = context
            let pageSaves = LockedBox(0)
            let merges = LockedBox(0)
            let saved = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveObjectsNotification, object: nil, queue: nil
            ) { note in
                guard let saver = note.object as? ManagedObjectContext, saver !== view,
                      saver.persistentStoreCoordinator === coordinator else { return }
                pageSaves.value += 1
            }
            let changed = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didChangeObjectsNotification, object: view, queue: nil
            ) { note in
                if !Self.ids(note, "inserted").isEmpty { merges.value += 1 }
            }
            defer {
                NotificationCenter.default.removeObserver(saved)
                NotificationCenter.default.removeObserver(changed)
            }
            // 251 names: five full pages of 50, and a last page of one.
            let names = (1...251).map { "Plant \($0)" }
            let completion = try runImport(names, pageSize: 50)
            try expect(pageSaves.value == 6, "251 plants in pages of 50 make 6 saves, the last one of a single plant; "
                + "the import saved " + (pageSaves.value == 1 ? "once" : "\(pageSaves.value) times")
                + (pageSaves.value == 5 ? ": the last, shorter page was never saved, and its plant is lost when the "
                    + "background context goes away. " : ". ")
                + "Save each page in the background context as soon as it is complete, and the remainder at the end.")
            try expect(!completion.beforeReturn, "importPlants(named:pageSize:completion:) called its completion "
                + "before it returned: the whole import ran while its caller, the main queue, waited — the screen "
                + "frozen for every page, which is what a background import is for. Start the pages in a background "
                + "context with the call that returns at once, and end from the view context's queue later.")
            try expect(completion.pageSavesOnMain == 0, "\(completion.pageSavesOnMain) of the import's page saves "
                + "ran on the main thread: the background context's work was done while the main queue waited for "
                + "it (performAndWait), so the screen could not draw or take a tap until the import was over, even "
                + "if the completion came later. Hand the pages to the background context with the call that "
                + "returns at once.")
            try expect(merges.value == 0, "while the import ran, the view context merged \(merges.value) of its "
                + "saves — a redraw per page. Switch the view context's automatic merging off before the import starts.")
            try expect(completion.onMainThread, "the import called its completion on another thread than the main "
                + "one. The caller fetches again from the completion with the view context, whose queue is the main "
                + "queue: call it inside the view context's perform, after the reset.")
            try expect(completion.merging == true, "when the completion ran, the view context did not merge "
                + "automatically any more: switch automatic merging back on (to what it was) once the import is done, "
                + "before the completion.")
            try expect(completion.held == 0, "when the completion ran, the view context still held "
                + "\(completion.held ?? 0) object(s) from before the import: reset() it before calling the completion, "
                + "which is where the caller fetches again.")
            try expect(fern.managedObjectContext == nil && view.registeredObjects.isEmpty, "after the import the view "
                + "context still holds \(view.registeredObjects.count) object(s) it had before: reset() it once at the "
                + "end, so that it forgets what it held and the screen fetches everything afresh.")
            let count = try view.count(for: Plant.fetchRequest())
            try expect(count == 252, "after the import the view context counts \(count) plants, not 252 (Fern and the "
                + "251 imported).")
            // Another screen of the app keeps its view context quiet: it never merged automatically.
            view.automaticallyMergesChangesFromParent = false
            _ = try runImport(["Moss", "Sorrel", "Thyme"], pageSize: 2)
            try expect(!view.automaticallyMergesChangesFromParent, "the view context did not merge automatically "
                + "before the second import, and it does after it: the import switched automatic merging on, where "
                + "it should have put back what it found. Remember the setting before the import and restore that "
                + "value.")
            // Nothing to import — a sync that found no new plants: the import still ends, once, as any other does.
            view.automaticallyMergesChangesFromParent = true
            let empty = try runImport([], pageSize: 50, timeout: 3)
            try expect(empty.onMainThread && empty.merging == true, "an import of no names ended "
                + (empty.onMainThread ? "with automatic merging still off" : "off the main queue")
                + ": it ends like any other, on the view context's queue, with the setting put back.")
            // A page the store refuses: the kata slips a plant without a name (mandatory) into the import's second
            // save, which fails with a validation error, as a save on a device can.
            view.automaticallyMergesChangesFromParent = true
            let willSaves = LockedBox(0)
            let refusing = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.willSaveObjectsNotification, object: nil, queue: nil
            ) { note in
                guard let saver = note.object as? ManagedObjectContext, saver !== view,
                      saver.persistentStoreCoordinator === coordinator else { return }
                willSaves.value += 1
                if willSaves.value == 2 { _ = Plant(context: saver) }
            }
            defer { NotificationCenter.default.removeObserver(refusing) }
            let refused = try runImport(["Rue", "Sage", "Tansy", "Vetch", "Woad"], pageSize: 2, failing: true)
            try expect(refused.failed, "the import's second page could not be saved (a plant without a name), "
                + "and the import reported no error: the caller believes every plant is in the store. Pass the "
                + "save's error to the completion.")
            try expect(refused.onMainThread, "after a page failed to save, the import called its completion on "
                + "another thread than the main one: a failed import ends like a good one, on the view context's "
                + "queue.")
            try expect(refused.merging == true && refused.held == 0, "after a page failed to save, the view context "
                + (refused.merging == true ? "was not reset" : "no longer merged automatically")
                + " when the completion ran: a failed import must put the view context back too — reset it and "
                + "restore automatic merging whatever happened to the pages.")
        }
    }

    /// What ``runImport(_:pageSize:failing:)`` saw when the import's completion ran.
    private struct ImportCompletionState: Sendable {
        var onMainThread = false
        /// Whether the completion ran before `importPlants` had returned to its caller.
        var beforeReturn = false
        /// How many saves of other contexts than the view context ran on the main thread during the import.
        var pageSavesOnMain = 0
        /// Whether the import reported an error.
        var failed = false
        /// How many times the completion ran (the first call is the one described here).
        var calls = 0
        /// Read only when the completion ran on the main thread, the view context's queue.
        var held: Int?
        var merging: Bool?
    }

    /// Runs lesson 9's import and waits for its completion (ten seconds at most); fails when it reports an error,
    /// unless a failing save is what the kata arranged.
    private func runImport(_ names: [String], pageSize: Int, failing: Bool = false,
                           timeout: TimeInterval = 10) throws -> ImportCompletionState {
        let view = context
        let coordinator = container.persistentStoreCoordinator
        let outcome = LockedBox<(any Error)??>(nil)
        let state = LockedBox(ImportCompletionState())
        let returned = LockedBox(false)
        let calls = LockedBox(0)
        // A page saved on the main thread was saved while the main queue waited for it: performAndWait from there
        // may run the background context's block on the waiting thread itself.
        let savesOnMain = LockedBox(0)
        let saved = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: nil, queue: nil
        ) { note in
            guard let saver = note.object as? ManagedObjectContext, saver !== view,
                  saver.persistentStoreCoordinator === coordinator, Thread.isMainThread else { return }
            savesOnMain.value += 1
        }
        defer { NotificationCenter.default.removeObserver(saved) }
        PlantImporter(container: container).importPlants(named: names, pageSize: pageSize) { error in
            calls.value += 1
            guard calls.value == 1 else { return }
            var seen = ImportCompletionState(onMainThread: Thread.isMainThread, beforeReturn: !returned.value)
            if seen.onMainThread {
                seen.held = view.registeredObjects.count
                seen.merging = view.automaticallyMergesChangesFromParent
            }
            state.value = seen
            outcome.value = .some(error)
        }
        returned.value = true
        try expect(eventually(timeout) { outcome.value != nil }, "importPlants(named:pageSize:completion:) never called "
            + "its completion for \(names.isEmpty ? "no names at all" : "\(names.count) names") (waited "
            + "\(Int(timeout)) seconds): call it once, at the end, from the view context's perform — also when "
            + "there was nothing to import, and also when a page failed.")
        settle(0.3)                                     // a second call comes within moments, if it comes
        if let error = outcome.value! {
            if error is KataNotDone { throw error }
            if !failing { try expect(false, "the import reported an error: \(error)") }
        }
        var seen = state.value
        seen.failed = outcome.value! != nil
        seen.pageSavesOnMain = savesOnMain.value
        seen.calls = calls.value
        try expect(seen.calls == 1, "importPlants(named:pageSize:completion:) called its completion \(seen.calls) "
            + "times for one import" + (seen.failed ? ", which failed" : "") + ": the caller fetches again, or "
            + "shows an error, on each call, and code that resumes a continuation from it crashes on the second. "
            + "Call it once, when everything is over.")
        return seen
    }

    // MARK: A batch change

    func test06_batchUpdateIsMergedIntoTheViewContextByHand() {
        kata(6, in: "GardenChores.swift", "waterEveryPlant(on:)") {
            let shown = try viewPlants("Fern", "Rose", "Ivy")
            let plants = Array(shown.prefix(2)), ivy = shown[2]
            let rose = plants[1]
            // Another context deletes Ivy; the view context has not heard of it and still holds Ivy, filled. The
            // batch cannot change a row that is gone, so nothing should touch the view context's Ivy.
            let ivyID = ivy.objectID
            let remover = container.newBackgroundContext()
            try inBackground(remover, "delete Ivy") {
                remover.delete(try remover.existingObject(with: ivyID))
                try remover.save()
            }
            let coordinator = container.persistentStoreCoordinator
            let saves = LockedBox(0)
            let saved = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveObjectsNotification, object: nil, queue: nil
            ) { note in
                guard (note.object as? ManagedObjectContext)?.persistentStoreCoordinator === coordinator else { return }
                saves.value += 1
            }
            // What the view context reports merging (Core Data's did-merge notification, posted after a merge).
            let merged = LockedBox(Set<ManagedObjectID>())
            let merging = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didMergeChangesObjectIDsNotification, object: context, queue: nil
            ) { note in
                merged.value.formUnion(note.userInfo?[ManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue]
                    as? Set<ManagedObjectID> ?? [])
            }
            defer {
                NotificationCenter.default.removeObserver(saved)
                NotificationCenter.default.removeObserver(merging)
            }
            // The user is renaming Rose on screen and has not saved yet: the merge must keep that edit.
            rose.name = "Climbing rose"
            let chores = GardenChores(container: container)
            let (count, writes) = try StoreWrites.capture(["UPDATE ZPLANT "]) { try chores.waterEveryPlant(on: watered) }
            settle()
            try expect(saves.value == 0, "waterEveryPlant(on:) saved a context (\(saves.value) did-save "
                + "notification(s)): this kata wants one BatchUpdateRequest, which writes in SQL without loading "
                + "the plants or saving a context.")
            try expect(writes.onMainQueue.isEmpty, "waterEveryPlant(on:) ran its batch update as main-queue work, "
                + "in the view context: the screen cannot draw or take a tap until the store has written every row, "
                + "and on a device a large garden freezes it. Execute the request in a background context of its own "
                + "(newBackgroundContext), on that context's queue, and merge the result into the view context "
                + "afterwards.")
            try expect(count == 2, "waterEveryPlant(on:) returned \(count) for two plants. Ask the request for the "
                + "updated objects' IDs (resultType .updatedObjectIDsResultType) and count those.")
            let reader = container.newBackgroundContext()
            let stored = try inBackground(reader, "read the store") {
                try reader.fetch(Plant.fetchRequest()).map(\.wateredOn)
            }
            try expect(stored.count == 2 && stored.allSatisfy({ $0 == watered }), "the store holds watering dates "
                + "\(stored) after waterEveryPlant(on:), not \(watered) for both plants: the batch update must run "
                + "(context.execute(request)) and set wateredOn on every plant.")
            for (plant, name) in zip(plants, ["Fern", "Rose"]) where plant.managedObjectContext == nil {
                try expect(false, "after the batch update the view context no longer has \(name): the merge took the "
                    + "watered plants out of it, as it does with IDs listed as deleted. A batch update's IDs are "
                    + "updates: list them under the updated key, NotificationKey.updatedObjects.rawValue.")
            }
            try expect(rose.name == "Climbing rose", "after waterEveryPlant(on:) the view context's Rose is called "
                + "\"\(rose.name)\" again: the user's unsaved rename was thrown away (refreshing an object without "
                + "merging its changes, or rolling the context back, discards them). A merge is reported to keep the "
                + "context's own unsaved changes on top of what it brings in (Apple's page says only that it "
                + "refreshes the updated objects), and Persistence does.")
            try expect(context.insertedObjects.isEmpty && context.deletedObjects.isEmpty
                && context.updatedObjects == [rose], "waterEveryPlant(on:) left unsaved changes of its own in the view "
                + "context (\(context.updatedObjects.count) changed object(s), the user's Rose included): the batch "
                + "request writes the store; the view context only needs to merge what it wrote.")
            for plant in plants where plant.wateredOn != watered {
                try expect(false, "the view context's \(plant.name) still reads wateredOn "
                    + "\(plant.wateredOn.map { "\($0)" } ?? "nil") after the batch update. A batch request posts no "
                    + "notification and no context hears of it: merge its IDs with "
                    + "ManagedObjectContext.mergeChanges(fromRemoteContextSave:into:) — into the view context (not "
                    + "the one that ran the request), listed under the updated key (what a merge does with IDs "
                    + "listed as inserted that the context already holds, Apple does not document: do not rely "
                    + "on it).")
            }
            let unmerged = Set(plants.map(\.objectID)).subtracting(merged.value)
            try expect(unmerged.isEmpty, "the view context shows the new dates, but it never merged the batch: no "
                + "did-merge notification of the view context named \(unmerged.count) of the watered plants, so "
                + "whoever observes the view context was never told of a merge. Refreshing objects one by one re-reads "
                + "them \"from the store or the cache\" (Apple's words), and a batch request goes past the "
                + "coordinator's cache: whether a refreshed plant shows the new date on a device is not documented. "
                + "Merge the batch's updated IDs into the view context instead.")
            try expect(!ivy.isFault, "the view context's Ivy, which the batch update did not change (its row was "
                + "already gone), was turned into a fault too: the whole view context was refreshed "
                + "(refreshAllObjects()), not merged. It shows the new values, at the price of every object the "
                + "context holds. Merge only what the batch reports — its updated IDs — with "
                + "ManagedObjectContext.mergeChanges(fromRemoteContextSave:into:).")
        }
    }
}
