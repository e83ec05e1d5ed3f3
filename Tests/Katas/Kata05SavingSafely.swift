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

/// Lesson 5 — Saving safely. Kata 1: save or roll back; 2–3: an edit in a context of its own that can be cancelled
/// without touching anything else; 4–7: a store on its own queue whose failed inserts and deletes are rolled back
/// and reported.
final class Kata05SavingSafely: KataCase {
    override class var lesson: Int { 5 }
    override class var folder: String { "05-saving-safely" }
    override class func makeModel() throws -> ManagedObjectModel { try model.get() }

    /// Lesson 2's Garden model, read once for the whole suite.
    private static let model = Result { try GardenModel.make() }

    /// `names` as a message shows them: quoted, with an apostrophe as typed (an array's description escapes it).
    private func listed(_ names: [String]) -> String {
        "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }

    /// A plant saved through the kata's own context.
    @discardableResult
    private func savedPlant(_ name: String) throws -> Plant {
        let plant = Plant(context: context)
        plant.name = name
        try context.save()
        return plant
    }

    /// What a completion reported, and how often it was called.
    private final class Report: @unchecked Sendable {
        private let lock = NSLock()
        private var errors: [(any Error)?] = []
        private var dirty: [Bool] = []
        private var main: [Bool] = []
        func record(_ error: (any Error)?, dirty isDirty: Bool, onMainThread: Bool) {
            lock.lock(); errors.append(error); dirty.append(isDirty); main.append(onMainThread); lock.unlock()
        }
        /// Whether each call ran on the main thread, which is never the store's private queue.
        var onMainThread: [Bool] { lock.lock(); defer { lock.unlock() }; return main }
        var calls: [(any Error)?] { lock.lock(); defer { lock.unlock() }; return errors }
        /// Whether the store's context had unsaved changes at the moment of each call.
        var dirtyAtCall: [Bool] { lock.lock(); defer { lock.unlock() }; return dirty }
    }

    /// Whether the store's context was still dirty when its completion ran (the completion runs on that context's
    /// queue, so asking there is allowed), from the last ``completion(of:store:_:)``.
    private var dirtyAtCompletion = false

    /// Whether the last completion ran on the main thread (never the store's queue), from ``completion(of:store:_:)``.
    private var completedOnMainThread = false

    /// Fails when the last completion ran on the main thread: ``StoreCompletion`` promises the store's queue.
    private func expectCompletionOnStoresQueue(_ what: String) throws {
        try expect(!completedOnMainThread, "\(what) called its completion on the main thread, not on the store's "
            + "queue as StoreCompletion promises. Whoever the completion tells may go on using the store's context "
            + "right there — from the main thread, its queue's rule broken, which on a device is the corruption "
            + "the concurrency debugger exists to catch. Call it at the end of the block the context performs.")
    }

    /// Starts `operation`, waits (at most five seconds) for its completion, and returns the error it reported.
    /// A starter's ``KataNotDone`` is passed on.
    private func completion(of what: String, store: PlantStore? = nil,
                            _ operation: (@escaping StoreCompletion) -> Void) throws -> (any Error)? {
        let done = expectation(description: what)
        let report = Report()
        let context = store?.context
        operation { error in
            // Asking the store's context is allowed only on its queue; the main thread never is.
            let onMain = Thread.isMainThread
            report.record(error, dirty: onMain ? false : (context?.hasChanges ?? false), onMainThread: onMain)
            done.fulfill()
        }
        let waited = XCTWaiter().wait(for: [done], timeout: 5)
        try expect(waited == .completed, "\(what) never called its completion (waited five seconds): call it once, "
            + "at the end of the block you give context.perform, whatever happened.")
        let calls = report.calls
        try expect(calls.count == 1, "\(what) called its completion \(calls.count) times; call it exactly once.")
        if let notDone = calls[0] as? KataNotDone { throw notDone }
        dirtyAtCompletion = report.dirtyAtCall[0]
        completedOnMainThread = report.onMainThread[0]
        return calls[0]
    }

    /// Whether the store's queue was held shut until its time ran out, seen from the block that held it.
    private final class Gate: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var timedOut: Bool?
        func close(for seconds: Double) {
            let result = semaphore.wait(timeout: .now() + seconds) == .timedOut
            lock.lock(); timedOut = result; lock.unlock()
        }
        var keptShutUntilTimeout: Bool? { lock.lock(); defer { lock.unlock() }; return timedOut }
    }

    /// Holds the store's queue busy, starts `operation` from the main thread, and only then lets the queue go. A
    /// caller that is handed back control at once opens the gate at once; one that waits for the queue cannot, so
    /// the gate stays shut until its two seconds are up. Returns the operation's reported error.
    private func expectCallerNeverWaits(_ what: String, store: PlantStore,
                                        _ operation: (@escaping StoreCompletion) -> Void) throws -> (any Error)? {
        let gate = Gate()
        store.context.perform { gate.close(for: 2) }
        let start = Date()
        let error = try completion(of: what) { done in
            operation(done)
            gate.semaphore.signal()
        }
        let held = Date().timeIntervalSince(start)
        try expect(gate.keptShutUntilTimeout == false, "\(what) returned to its caller only after the store's "
            + "queue was free (\(String(format: "%.1f", held)) s, while another block held that queue): the caller "
            + "waited for the work. Hand the work to the store's context with perform, which queues it and returns "
            + "at once; the completion tells the caller when it is done. performAndWait holds the caller.")
        try expectCompletionOnStoresQueue(what)
        return error
    }

    private func hasChanges(_ store: PlantStore) -> Bool {
        store.context.performAndWait { store.context.hasChanges }
    }

    // MARK: Save or roll back

    func test01_saveOrRollbackLeavesTheContextClean() {
        kata(1, in: "ManagedObjectContext+SaveOrRollback.swift", "saveOrRollback()") {
            let basil = try savedPlant("Basil")
            let rose = try savedPlant("Rose")
            basil.name = "Sweet basil"                          // an unsaved change to an object the caller holds
            context.delete(rose)                                // and an unsaved deletion
            let nameless = Plant(context: context)              // name is mandatory: this save must fail
            nameless.wateredOn = Date()
            let error = try expectError(CocoaError.self, "saveOrRollback() must throw the save's error when "
                + "a plant has no name.") { try context.saveOrRollback() }
            try expect(error.code == .validationMissingMandatoryProperty, "saveOrRollback() threw error "
                + "\(error.code.rawValue); the save's own error is 1570 (missing mandatory property). Throw that one.")
            try expect(basil.managedObjectContext === context, "after the failed save, the plant the caller holds "
                + "no longer belongs to the context: reset() forgets every object, and Apple's documentation says "
                + "only that they are invalid afterwards (here they belong to no context). rollback() keeps them, "
                + "with their last saved values.")
            try expect(!rose.isDeleted && !context.deletedObjects.contains(rose), "after the failed save the plant "
                + "the caller had deleted, \"Rose\", is still deleted in the context: the next save would delete it "
                + "although the user's change was thrown away. A rollback undoes deletions too; undoing a failed save "
                + "by hand — removing what was inserted, refreshing what changed — misses them. Let the context "
                + "discard every kind of unsaved change at once.")
            try expect(!context.hasChanges, "after a failed save the context must be clean again: hasChanges is "
                + "still true. Roll back before throwing.")
            try expect(basil.name == "Basil", "after the failed save the caller's plant is called \"\(basil.name)\"; "
                + "rolled back, it has its last saved name, \"Basil\".")
            let lavender = Plant(context: context)
            lavender.name = "Lavande"
            try context.saveOrRollback()
            let stored = try storedValues(\Plant.name)
            try expect(stored == ["Basil", "Lavande", "Rose"], "after the rollback, saving a valid plant should store "
                + "[\"Basil\", \"Lavande\", \"Rose\"]; the store holds \(listed(stored)).")
            // Not every failed save is a validation error: a sync on its own context waters Basil and saves, so
            // this context's copy is out of date and saving a change to it is a conflict (133020).
            let sync = container.newBackgroundContext()
            let basilID = basil.objectID
            let watered = Date(timeIntervalSinceReferenceDate: 800_000_000)
            try sync.performAndWait {
                (try sync.existingObject(with: basilID) as? Plant)?.wateredOn = watered
                try sync.save()
            }
            basil.name = "Basilic"
            let conflict = try expectError(CocoaError.self, "saveOrRollback() must throw the save's error when "
                + "another context changed the plant after this one read it.") { try context.saveOrRollback() }
            try expect(conflict.code == .managedObjectMerge, "saveOrRollback() threw error \(conflict.code.rawValue) "
                + "for a conflict; the save's own error is 133020 (could not merge changes). Throw that one.")
            try expect(!context.hasChanges, "after a save that failed with a conflict (133020), not a validation "
                + "error, the context still has unsaved changes: a save fails for more reasons than an invalid value "
                + "— another context's change, a full disk — and each leaves the failed work behind the same way. "
                + "Clean up after every failed save, not only after the errors you expect.")
            try expect(basil.managedObjectContext === context, "after the conflict the caller's plant no longer "
                + "belongs to the context: reset() forgets every object of the context.")
            basil.name = "Basilic"                              // the user makes the change again
            do {
                try context.saveOrRollback()
            } catch let again as CocoaError {
                try expect(false, "after the conflict was cleaned up, the same change made again failed again "
                    + "(\(again.code.rawValue)): rollback() brings back the values the context last read and does "
                    + "not read the store, so the context still compares its save with the row as it was before the "
                    + "other context's save — every later save of that plant conflicts, for good. After a conflict "
                    + "the context must read the plant again, from the store.")
            }
            let names = try storedValues(\Plant.name)
            let dates = try storedValues(\Plant.wateredOn)
            try expect(names.contains("Basilic") && dates.contains(watered), "after the conflict and a second save "
                + "the store holds \(listed(names)), watered on \(dates.map { $0.map { "\($0)" } ?? "none" }): "
                + "it should hold \"Basilic\", with the watering the other context saved (\(watered)). A save that "
                + "overwrites what another context stored loses that work without an error.")
        }
    }

    // MARK: An edit that can be cancelled

    /// Why the editor's plant cannot be the one it edits, or nil when it can.
    private func editorProblem(_ editor: PlantEditor) -> String? {
        guard let owner = editor.plant.managedObjectContext else {
            return "the editor's plant belongs to no context any more, and reads back empty: reset() forgets "
                + "every object of the context, which Apple's documentation calls invalid afterwards (here they "
                + "belong to no context); rollback() keeps them, with their last saved values."
        }
        guard owner === editor.context else {
            return "the editor's plant belongs to " + (owner === context ? "the caller's context" : "another context")
                + ", not to the editor's own: hand the editor's context the plant's objectID and let it look up "
                + "its own copy (existingObject(with:)). A managed object never crosses to another context."
        }
        return nil
    }

    func test02_cancelDiscardsTheEdit() {
        kata(2, in: "PlantEditor.swift", "init(plant:container:) and cancel() and save()") {
            try savedPlant("Fougère")                           // two plants of the same name, as users make them
            let fern = try savedPlant("Fougère")
            let editor = try PlantEditor(plant: fern, container: container)
            try expect(editor.context !== context, "the editor works in the caller's context; it needs a context "
                + "of its own, so that cancelling cannot touch anything else.")
            if let problem = editorProblem(editor) { try expect(false, problem) }
            try expect(editor.plant.name == "Fougère", "the editor's plant is called \"\(editor.plant.name)\", not "
                + "\"Fougère\": look it up by the plant's objectID in the editor's context.")
            try expect(editor.plant.objectID == fern.objectID, "the editor edits another plant than the one it was "
                + "given: the store holds two plants called \"Fougère\", and the editor's copy is the other one. A "
                + "name is not an identity — users give two plants the same name; the plant's objectID is the one "
                + "thing that names this row and may cross to another context.")
            editor.rename(to: "Capillaire")
            // The edit screen also took a cutting (a new plant in the editor's context): part of the same edit.
            let cutting = Plant(context: editor.context)
            cutting.name = "Cutting of Fougère"
            try editor.cancel()
            if let problem = editorProblem(editor) { try expect(false, problem) }
            try expect(editor.plant.name == "Fougère", "after cancel() the plant is called \"\(editor.plant.name)\"; "
                + "it should be back to its saved name, \"Fougère\".")
            try expect(!editor.context.hasChanges, "after cancel() the editor's context still has unsaved changes"
                + (editor.context.insertedObjects.contains(cutting) ? ": the cutting taken during the edit is still "
                    + "inserted. Cancel discards the whole edit, not only the plant's name — the next Save of that "
                    + "screen would write a plant the user cancelled." : "."))
            // Meanwhile the caller has started something else and not saved it: the editor's Save is not its Save.
            let pending = Plant(context: context)
            pending.name = "Grandma's rose"
            editor.rename(to: "Grandma's maidenhair")
            try editor.save()
            let stored = try storedValues(\Plant.name)
            try expect(!stored.contains("Grandma's rose"), "the editor's save() also saved the caller's context: its "
                + "unsaved plant \"Grandma's rose\" is in the store, which holds \(listed(stored)). Save the "
                + "editor's own context only — a context on the store, whose save writes the edit and nothing else.")
            try expect(stored == ["Fougère", "Grandma's maidenhair"], "after rename and save() the store holds "
                + "\(listed(stored)), not [\"Fougère\", \"Grandma's maidenhair\"]: save the editor's context.")
            try expect(pending.managedObjectContext === context && context.insertedObjects.contains(pending),
                       "the editor's save() touched the caller's context: its unsaved plant \"Grandma's rose\" is no "
                + "longer an unsaved insert there. The editor saves its own context and leaves the caller's alone.")
            // Another context (a sync, another window) waters the plant while the user edits it again: the
            // editor's copy is now out of date, and saving the edit is a conflict (133020).
            let elsewhere = container.newBackgroundContext()
            try elsewhere.performAndWait {
                (try elsewhere.existingObject(with: fern.objectID) as? Plant)?.wateredOn = Date()
                try elsewhere.save()
            }
            editor.rename(to: "Capillaire de Montpellier")
            let failed = try expectError(CocoaError.self, "the editor's save() reported success, but the plant had "
                + "been changed by another context since the editor read it: the save fails (133020), and the "
                + "editor must throw its error.") { try editor.save() }
            try expect(failed.code == .managedObjectMerge, "the editor's failed save threw error "
                + "\(failed.code.rawValue); the save's own error is 133020 (a conflict). Throw that one.")
            try expect(!editor.context.hasChanges, "the editor's save() failed and threw, but left the failed edit in "
                + "the editor's context (hasChanges is still true): every later Save on that screen would carry it "
                + "again. A failed save leaves the context clean, as kata 1's does.")
            try expect(editor.plant.name == "Grandma's maidenhair", "after the failed save the editor's plant is "
                + "called \"\(editor.plant.name)\"; rolled back, it has the name it last saved, "
                + "\"Grandma's maidenhair\".")
            // The screen shows the error; the user types the new name again and taps Save once more.
            editor.rename(to: "Capillaire de Montpellier")
            do {
                try editor.save()
            } catch let again as CocoaError {
                try expect(false, "the second Save after the conflict failed too (\(again.code.rawValue)): the "
                    + "editor's copy still carries the row as it was before the other context's save — rollback() "
                    + "does not read the store — so every Save on that screen conflicts again, and the user can "
                    + "never store the edit. After a conflict, the editor's context must read the plant again.")
            }
            let retried = try storedValues(\Plant.name)
            try expect(retried.contains("Capillaire de Montpellier"), "after the conflict and a second Save the store "
                + "holds \(listed(retried)), without \"Capillaire de Montpellier\".")
            try expect(try storedValues(\Plant.wateredOn).contains { $0 != nil }, "the second Save stored the new name "
                + "but lost the watering the other context had saved: it wrote the editor's stale copy over the "
                + "store's row. Store the new name over the plant as it now is.")
            // The screen takes another cutting and taps Save without renaming: the plant itself is unchanged.
            let secondCutting = Plant(context: editor.context)
            secondCutting.name = "Second cutting of Fougère"
            try editor.save()
            let withCutting = try storedValues(\Plant.name)
            try expect(withCutting.contains("Second cutting of Fougère"), "a Save whose only change is a new plant "
                + "(a cutting, the plant itself unchanged) stored nothing: the store holds \(listed(withCutting)). "
                + "Whether there is anything to save is a question about the editor's whole context, not about one "
                + "object in it — the cutting would be lost without a word.")
            // A stale screen opens a plant that was deleted and saved meanwhile: there is nothing to edit.
            let ivy = try savedPlant("Ivy")
            context.delete(ivy)
            try context.save()
            let opened: PlantEditor?
            do { opened = try PlantEditor(plant: ivy, container: container) } catch { opened = nil }
            try expect(opened == nil, "an editor opened on a plant that was deleted and saved (Ivy) instead of "
                + "throwing. Its plant stands for a row that no longer exists: the user would edit a blank form whose "
                + "Save fails or goes nowhere, and the screen learns of it only then. Look the plant up in a way that "
                + "checks the row exists, and let the error out of init.")
        }
    }

    func test03_cancelLeavesTheCallersWorkAlone() {
        kata(3, in: "PlantEditor.swift", "cancel()") {
            let fern = try savedPlant("Fern")
            let basil = try savedPlant("Basil")
            // Work started elsewhere in the caller's context and not saved yet:
            let rose = Plant(context: context)
            rose.name = "Rose"
            let watered = Date(timeIntervalSinceReferenceDate: 800_000_000)
            basil.wateredOn = watered
            let editor = try PlantEditor(plant: fern, container: container)
            editor.rename(to: "Maidenhair")
            try editor.cancel()
            if let problem = editorProblem(editor) { try expect(false, problem) }
            try expect(editor.plant.name == "Fern", "after cancel() the plant is called \"\(editor.plant.name)\", "
                + "not \"Fern\".")
            try expect(rose.managedObjectContext === context && context.insertedObjects.contains(rose)
                       && basil.wateredOn == watered, "cancel() threw away the caller's unsaved work (a new plant, "
                + "a watering): roll back the editor's own context only — the reason it has one.")
            try expect(fern.name == "Fern", "cancelling the edit renamed the caller's plant to \"\(fern.name)\".")
        }
    }

    // MARK: A store on its own queue

    func test04_insertSavesAndReportsSuccess() {
        kata(4, in: "PlantStore.swift", "insert(_:completion:)") {
            let store = PlantStore(container: container)
            let watered = Date(timeIntervalSinceReferenceDate: 800_000_000)
            let error = try expectCallerNeverWaits("insert(_:completion:)", store: store) {
                store.insert([PlantDraft(name: "Grandma's fern"), PlantDraft(name: "Pâquerette", wateredOn: watered)],
                             completion: $0)
            }
            try expect(error == nil, "insert(_:completion:) of two valid plants reported \(error.map { "\($0)" } ?? "")")
            let stored = try storedValues(\Plant.name)
            try expect(stored == ["Grandma's fern", "Pâquerette"], "after insert(_:completion:) the store holds "
                + "\(listed(stored)), not [\"Grandma's fern\", \"Pâquerette\"]: insert on the store's context and "
                + "save it there.")
            let dates = try storedValues(\Plant.wateredOn)
            try expect(dates.contains(watered) && dates.contains(nil), "after insert(_:completion:) the store's "
                + "watering dates are \(dates.map { $0.map { "\($0)" } ?? "none" }): Pâquerette was entered watered on "
                + "\(watered), Grandma's fern never. Copy every value of a draft, not only its name — a value the user "
                + "entered and the store never got is lost without an error.")
        }
    }

    func test05_failedInsertIsRolledBackAndReported() {
        kata(5, in: "PlantStore.swift", "insert(_:completion:)") {
            try savedPlant("Basilic")
            let store = PlantStore(container: container)
            // The store's context holds a plant a screen is showing (the screen keeps it).
            let shown = try store.context.performAndWait { try store.context.fetch(Plant.fetchRequest()) }
            let failed = try completion(of: "insert(_:completion:)", store: store) {
                store.insert([PlantDraft(name: "Grandma's fern"), PlantDraft(name: nil)], completion: $0)
            }
            try expectCompletionOnStoresQueue("insert(_:completion:)")
            if failed == nil, try storedValues(\Plant.name).contains("") {
                try expect(false, "insert(_:completion:) saved the plant without a name under the name \"\": an "
                    + "empty string is a value, and the model accepts it. Leave the name unset when the draft has "
                    + "none, so that the save reports it missing.")
            }
            let error = try require(failed, "insert(_:completion:) of a plant without a name reported success; "
                + "pass the save's error to the completion.")
            try expect((error as? CocoaError)?.code == .validationMissingMandatoryProperty,
                       "the failed insert reported \(error); expected the save's error, 1570.")
            let info = (error as NSError).userInfo
            try expect(info[NSValidationObjectErrorKey] is Plant && info[NSValidationKeyErrorKey] as? String == "name",
                       "the failed insert reported error 1570, but it names no plant (NSValidationObjectErrorKey) and "
                + "no property (NSValidationKeyErrorKey): it is not the save's error. When a single value fails, the "
                + "error a save reports names the object and the key (several failures come as 1560, with each "
                + "one under NSDetailedErrorsKey); one made up in Swift names neither, and the rule it checks "
                + "then lives twice, in the model and in your code, free to drift apart. Let the save find the "
                + "missing name.")
            try expect(!hasChanges(store), "after the failed insert the store's context still has unsaved changes: "
                + "roll it back before calling the completion.")
            try expect(!dirtyAtCompletion, "the completion of the failed insert ran while the store's context still "
                + "held the failed plants: roll back first, then call the completion — whoever it tells may use the "
                + "store at once.")
            let kept = store.context.performAndWait {
                shown.map { $0.managedObjectContext === store.context ? $0.name : nil }
            }
            try expect(kept == ["Basilic"], "after the failed insert, the plant a screen shows from the store's "
                + "context no longer belongs to it: reset() forgets every object of the context (what such an object "
                + "then reports is undocumented on Apple's platforms; here it belongs to no context). rollback() "
                + "removes the failed plants and keeps the others.")
            let retry = try completion(of: "insert(_:completion:)") {
                store.insert([PlantDraft(name: "Pâquerette")], completion: $0)
            }
            try expect(retry == nil, "a valid insert after a failed one reported \(retry.map { "\($0)" } ?? ""): the "
                + "nameless plant is still in the context, so every later save fails.")
            let stored = try storedValues(\Plant.name)
            try expect(stored == ["Basilic", "Pâquerette"], "after a failed and a good insert the store holds "
                + "\(listed(stored)), not [\"Basilic\", \"Pâquerette\"].")
        }
    }

    func test06_deleteAllSavesAndReportsSuccess() {
        kata(6, in: "PlantStore.swift", "deleteAll(completion:)") {
            try savedPlant("Grandma's fern")
            try savedPlant("Pâquerette")
            let store = PlantStore(container: container)
            let error = try expectCallerNeverWaits("deleteAll(completion:)", store: store) {
                store.deleteAll(completion: $0)
            }
            try expect(error == nil, "deleteAll(completion:) reported \(error.map { "\($0)" } ?? "").")
            let stored = try storedValues(\Plant.name)
            try expect(stored.isEmpty, "after deleteAll(completion:) the store still holds \(listed(stored)).")
        }
    }

    func test07_failedDeleteIsRolledBackAndReported() {
        kata(7, in: "PlantStore.swift", "deleteAll(completion:)") {
            let fern = try savedPlant("Fern")
            let store = PlantStore(container: container)
            // The store's context reads the plant and something keeps it (a screen showing it, say); then another
            // context changes it. The store's copy is now out of date, and saving its deletion is a conflict
            // (133020). Kept, because a context holds an unchanged object only while something else does: without
            // `shown`, the plant would be gone and deleteAll's fetch would read it afresh, with no conflict.
            let shown = try store.context.performAndWait { try store.context.fetch(Plant.fetchRequest()) }
            let seen = store.context.performAndWait { shown.map { $0.name } }
            try expect(seen == ["Fern"], "the store's context reads \(seen) instead of [\"Fern\"].")
            fern.wateredOn = Date()
            try context.save()
            let failed = try withExtendedLifetime(shown) {
                try completion(of: "deleteAll(completion:)", store: store) { store.deleteAll(completion: $0) }
            }
            try expectCompletionOnStoresQueue("deleteAll(completion:)")
            let error = try require(failed, "deleteAll(completion:) reported success, but its save failed (the plant "
                + "was changed by another context): pass the save's error to the completion.")
            try expect((error as? CocoaError)?.code == .managedObjectMerge,
                       "the failed delete reported \(error); expected the save's error, 133020.")
            try expect(!hasChanges(store), "after the failed delete the store's context still has unsaved changes: "
                + "roll it back before calling the completion.")
            try expect(!dirtyAtCompletion, "the completion of the failed delete ran while the store's context still "
                + "held the deletions: roll back first, then call the completion.")
            try expect(try storedValues(\Plant.name) == ["Fern"], "the failed delete removed the plant from the store anyway.")
            let kept = store.context.performAndWait {
                shown.map { $0.managedObjectContext === store.context && !$0.isDeleted }
            }
            try expect(kept == [true], "after the failed delete, the plant a screen shows from the store's context "
                + "no longer belongs to it: reset() forgets every object of the context (Apple's documentation says "
                + "only that they are invalid afterwards; here they belong to no context). rollback() keeps them, "
                + "undeleted.")
            // The user sees the error and taps Delete All again; the screen still shows the plant.
            let retry = try withExtendedLifetime(shown) {
                try completion(of: "deleteAll(completion:)", store: store) { store.deleteAll(completion: $0) }
            }
            try expect(retry == nil, "a second deleteAll(completion:) after the conflict failed too "
                + "(\(retry.map { "\($0)" } ?? "")): rolled back, the store's context holds the plant with the values "
                + "it last read — rollback() does not read the store, and a fetch leaves an object the context "
                + "already holds as it is — so it still compares its save with the row as it was before the other "
                + "context's save. The store is stuck: every later delete conflicts. After a conflict, the context "
                + "must read the plants again.")
            let left = try storedValues(\Plant.name)
            try expect(left.isEmpty, "after the second deleteAll(completion:) the store still holds \(listed(left)).")
        }
    }
}
