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

/// Lesson 8 — Child contexts. An edit session on a child of the plant's context: discard (1), commit (2), nothing to
/// commit (3), a parent that cannot save, which closes the session (4), a plant the parent has not saved yet, found
/// through the parent (5), a new plant and its permanent ID (6). Then document 004's private-queue child of the view context (7).
final class Kata08ChildContexts: KataCase {
    override class var lesson: Int { 8 }
    override class var folder: String { "08-child-contexts" }
    override class func makeModel() throws -> ManagedObjectModel { try model.get() }

    /// Lesson 2's Garden model, read once for the whole suite.
    private static let model = Result { try GardenModel.make() }

    /// The names the store holds, sorted, read through a new context: what the store has, not what any context
    /// holds unsaved.
    /// A plant saved through the kata's own context, the app's view context: the parent of every session here.
    private func savedPlant(_ name: String) throws -> Plant {
        let plant = Plant(context: context)
        plant.name = name
        try context.save()
        return plant
    }

    /// Fails the kata when the session is not a child of the caller's context working on a copy of its own.
    private func expectChildSession(_ session: PlantEditSession) throws {
        try expect(session.context !== context, "the session works in the caller's context itself; it needs a "
            + "child context of its own, so that the edit stays out of the caller's context until it is committed.")
        try expect(session.context.parent === context, "the session's context is not a child of the plant's "
            + "context (its parent is " + (session.context.parent.map { "\($0)" } ?? "nil, a context on the store")
            + "): set the child's `parent` to the plant's context. Only a child saves into that context and reads "
            + "what it holds unsaved.")
        guard let owner = session.plant.managedObjectContext else {
            try expect(false, "the session's plant belongs to no context and reads back empty: reset() forgets every "
                + "object of a context; rollback() keeps them.")
            return
        }
        try expect(owner === session.context, "the session's plant belongs to "
            + (owner === context ? "the caller's context" : "another context") + ", not to the session's child: "
            + "look up the child's own copy by the plant's objectID (existingObject(with:)). A managed object "
            + "never crosses to another context, and an edit of the caller's object dirties the caller's context.")
    }

    // MARK: Discard and commit

    func test01_discardLeavesParentAndStoreUntouched() {
        kata(1, in: "PlantEditSession.swift", "discard()") {
            let fern = try savedPlant("Fern")
            let rose = Plant(context: context)                   // unsaved work elsewhere in the app
            rose.name = "Rose"
            let session = try PlantEditSession(editing: fern, in: context)
            try expectChildSession(session)
            try expect(session.plant.name == "Fern", "the session's plant is called \"\(session.plant.name)\", not "
                + "\"Fern\": look it up in the child by the plant's objectID.")
            session.rename(to: "Maidenhair")
            try expect(fern.name == "Fern" && context.updatedObjects.isEmpty, "renaming in the session changed the "
                + "caller's context (its plant is now \"\(fern.name)\"): the edit belongs in the child only.")
            // The screen also took a cutting: a new plant in the session's child, which Cancel must drop as well.
            let cutting = Plant(context: session.context)
            cutting.name = "Fern cutting"
            try session.discard()
            try expect(rose.managedObjectContext === context && context.insertedObjects.contains(rose),
                       "discard() threw away the caller's unsaved work (a new plant in the parent): discard the "
                + "child's edit only. Nothing of it reached the parent, so there is nothing to undo there.")
            try expect(fern.name == "Fern" && !fern.hasChanges, "after discard() the caller's plant is called "
                + "\"\(fern.name)\"; it should be untouched, \"Fern\".")
            try expect(!session.context.insertedObjects.contains(cutting), "after discard() the session's child still "
                + "holds the new plant the screen added in it (\"Fern cutting\"): bringing the session's plant back "
                + "to its old values is not enough. Cancel throws away everything the session did in its child.")
            try expect(!session.context.hasChanges, "after discard() the session's child still has unsaved "
                + "changes: roll the child back.")
            try expect(session.plant.managedObjectContext === session.context && session.plant.name == "Fern",
                       "after discard() the session's plant is "
                + (session.plant.managedObjectContext == nil ? "forgotten by the child" : "called \"\(session.plant.name)\"")
                + ", not back to \"Fern\": a screen that stays open after Cancel still shows it. Roll the child back "
                + "(rollback() restores the plant's values); reset() forgets every object of the child.")
            let stored = try storedValues(\Plant.name)
            try expect(stored == ["Fern"], "after discard() the store holds \(stored), not [\"Fern\"].")
        }
    }

    func test02_commitSavesChildThenParent() {
        kata(2, in: "PlantEditSession.swift", "commit()") {
            let fern = try savedPlant("Fern")
            let session = try PlantEditSession(editing: fern, in: context)
            try expectChildSession(session)
            session.rename(to: "Maidenhair")
            let saved = try session.commit()
            try expect(!session.context.hasChanges, "after commit() the session's child still has the edit unsaved: "
                + "save the child first — its save pushes the edit one level up, into the parent.")
            try expect(fern.name == "Maidenhair", "after commit() the caller's plant is still called "
                + "\"\(fern.name)\": the child's save should have pushed the new name into the parent.")
            try expect(!context.hasChanges, "after commit() the edit is in the parent but not in the store — the "
                + "parent still has unsaved changes. A child's save goes one level up only: save the parent after "
                + "the child (saved before it, the parent has nothing of the edit yet).")
            let stored = try storedValues(\Plant.name)
            try expect(stored == ["Maidenhair"], "after commit() the store holds \(stored), not [\"Maidenhair\"].")
            try expect(saved, "commit() saved the edit but returned false; return true when something was saved.")
        }
    }

    func test03_nothingIsSavedWhenNothingChanged() {
        kata(3, in: "PlantEditSession.swift", "commit()") {
            let fern = try savedPlant("Fern")
            let rose = Plant(context: context)                   // unsaved work elsewhere in the app
            rose.name = "Rose"
            let session = try PlantEditSession(editing: fern, in: context)
            try expectChildSession(session)
            let saved = try session.commit()                     // the user taps Save without changing anything
            let stored = try storedValues(\Plant.name)
            try expect(stored == ["Fern"], "commit() with nothing edited saved the parent, and with it the parent's "
                + "other unsaved work (the store now holds \(stored)): saving a context saves everything in it. "
                + "When the child has no changes there is nothing to push — save neither context.")
            try expect(context.insertedObjects.contains(rose), "commit() with nothing edited changed the parent's "
                + "unsaved work.")
            try expect(!saved, "commit() with nothing edited returned true; return false when there was nothing to "
                + "save, so the screen can say so.")
            // A second session leaves the plant's own values alone but takes a cutting: that is an edit too.
            let second = try PlantEditSession(editing: fern, in: context)
            let cutting = Plant(context: second.context)
            cutting.name = "Fern cutting"
            let savedCutting = try second.commit()
            let afterCutting = try storedValues(\Plant.name)
            try expect(savedCutting && afterCutting.contains("Fern cutting"), "a session whose plant kept its values "
                + "but which added a new plant (\"Fern cutting\") committed nothing"
                + (savedCutting ? "" : " and returned false") + ": the store holds \(afterCutting). Whether "
                + "there is something to save is a question about the session's whole context, not about one object "
                + "in it — the user's new cutting would be lost without a word.")
        }
    }

    func test04_failedParentSaveIsRolledBackAndReported() {
        kata(4, in: "PlantEditSession.swift", "commit()") {
            let fern = try savedPlant("Fern")
            let session = try PlantEditSession(editing: fern, in: context)
            try expectChildSession(session)
            session.rename(to: "Maidenhair")
            let cutting = Plant(context: session.context)       // the push carries an insert as well as a change
            cutting.name = "Fern cutting"
            // Meanwhile a sync on its own context waters the same plant and saves: the parent's copy is out of date,
            // so the parent's save of the edit is a conflict (133020, lesson 11).
            let sync = container.newBackgroundContext()
            let id = fern.objectID
            let watered = Date(timeIntervalSinceReferenceDate: 800_000_000)
            try sync.performAndWait {
                let plant = try sync.existingObject(with: id) as? Plant
                plant?.wateredOn = watered
                try sync.save()
            }
            var thrown: CocoaError?
            do {
                try session.commit()
            } catch let error as CocoaError {
                thrown = error
            }
            let error = try require(thrown, context.hasChanges
                ? "commit() returned without saving the parent: the edit is still waiting in it, unsaved. Save the "
                    + "parent after the child; here that save fails, and commit() must throw its error."
                : "commit() must throw the parent's error when the parent cannot save (here: another context "
                    + "changed the plant first), so the screen can tell the user; printing it and carrying on hides "
                    + "the failure.")
            try expect(error.code == .managedObjectMerge, "commit() threw error \(error.code.rawValue); the parent's save "
                + "failed with 133020 (could not merge changes). Throw that one.")
            try expect(fern.managedObjectContext === context, "after the failed commit the caller's plant no longer "
                + "belongs to the parent: reset() forgets every object of the context; rollback() keeps them, with "
                + "their last saved values.")
            let leftOver = context.insertedObjects.compactMap { ($0 as? Plant)?.name }
            try expect(leftOver.isEmpty, "after the failed commit the parent still holds \(leftOver) as an unsaved "
                + "insert, pushed there by the session's save: refreshing the parent's changed objects brings back "
                + "their saved values, but a plant the push inserted (or deleted) stays, and the parent's next save "
                + "writes it, or fails on it again. Undo the whole failed push in the parent — inserts and deletions "
                + "included.")
            try expect(!context.hasChanges, "after the failed commit the parent still holds the edit, unsaved: "
                + "every later save of the parent fails with it. Roll the parent back before throwing.")
            try expect(fern.name == "Fern", "after the failed commit the caller's plant is called \"\(fern.name)\"; "
                + "rolled back, it has its last saved name, \"Fern\".")
            let stored = try storedValues(\Plant.name)
            try expect(stored == ["Fern"], "after the failed commit the store holds \(stored), not [\"Fern\"].")
            // The session is over: its child pushed the edit, the parent's rollback threw it away.
            try expect(!session.isOpen, "after the parent's save failed the session still says it is open, though "
                + "its edit is gone: the child's save pushed it into the parent, and the parent's rollback threw it "
                + "away. Set isOpen to false, so that the screen shows the error and closes.")
            let again: Bool?
            do {
                again = try session.commit()
            } catch {
                again = nil
            }
            try expect(again == nil, "a second commit() after the failed one returned \(again.map(String.init) ?? "")"
                + ": the child has no changes left, and a screen that takes that for \"saved\" closes while the "
                + "store keeps \"Fern\". A closed session must throw — the parent's error again, say — rather than "
                + "return.")
            let afterwards = try storedValues(\Plant.name)
            try expect(afterwards == ["Fern"] && !context.hasChanges, "the second commit() of a closed session "
                + "changed the parent or the store (the store holds \(afterwards)).")
        }
    }

    // MARK: What a child sees, and the IDs it keeps

    func test05_childSeesTheParentsUnsavedPlant() {
        kata(5, in: "PlantEditSession.swift", "init(editing:in:)") {
            let rose = Plant(context: context)                   // inserted in the parent, not saved yet
            rose.name = "Rose"
            let session: PlantEditSession
            do {
                session = try PlantEditSession(editing: rose, in: context)
            } catch let error as CocoaError {
                try expect(false, "opening a session on a plant the parent has inserted and not saved threw "
                    + "\(error.code.rawValue) (\(error.localizedDescription)). A context on the store sees only saved rows; a child "
                    + "reads through its parent and finds the parent's unsaved objects too.")
                return
            }
            try expectChildSession(session)
            let storedOnOpen = try storedValues(\Plant.name)
            try expect(storedOnOpen.isEmpty && context.insertedObjects.contains(rose), "opening the session saved "
                + "the parent (the store now holds \(storedOnOpen)): that writes the caller's unsaved work to the "
                + "store just to open a screen. A child needs no save to find the parent's new plant: it reads "
                + "through its parent, which holds the plant under its temporary ID.")
            try expect(session.plant.objectID == rose.objectID, "the session's plant has the ID "
                + "\(session.plant.objectID), not the parent's plant's \(rose.objectID): look the plant up in the "
                + "child by the ID it has in the parent.")
            try expect(session.plant.name == "Rose", "the session's copy of the parent's unsaved plant is called "
                + "\"\(session.plant.name)\", not \"Rose\".")
            session.rename(to: "Dog rose")
            do {
                try session.commit()
            } catch let error as CocoaError {
                try expect(false, "commit() of the edited plant failed: \(error.code.rawValue) (\(error.localizedDescription)). Was the "
                    + "parent saved before the child? That gives the parent's plant its permanent ID, and the child's "
                    + "edit — made under the temporary ID — no longer finds it. Save the child first.")
            }
            try expect(rose.name == "Dog rose", "after commit() the parent's new plant is called \"\(rose.name)\", "
                + "not \"Dog rose\": the child's save pushes into the parent's object.")
            let stored = try storedValues(\Plant.name)
            try expect(stored == ["Dog rose"], "after commit() the store holds \(stored), not [\"Dog rose\"].")
            // The screen stays open, and the user renames the plant once more.
            session.rename(to: "Grandma's dog rose")
            do {
                try session.commit()
            } catch let error as CocoaError {
                try expect(false, "a second commit() of the plant failed: \(error.code.rawValue) "
                    + "(\(error.localizedDescription)). The parent had only inserted the plant when the session "
                    + "opened, so in the child its copy was never an insert: permanent IDs asked for the child's "
                    + "inserted objects skip it, and after the parent's save the child's copy kept the temporary ID, "
                    + "which no row and no object in the parent has any more. The plant needs its permanent ID while "
                    + "the parent still holds it as an insert.")
            }
            let renamed = try storedValues(\Plant.name)
            try expect(renamed == ["Grandma's dog rose"], "after a second commit() the store holds \(renamed), not "
                + "[\"Grandma's dog rose\"].")
            try expect(!context.hasChanges, "after the second commit() the parent still has unsaved changes.")

            // A stale screen opens a plant that another screen has deleted and saved meanwhile: no session can edit
            // it, and the screen must hear so now, not when it first reads or saves the plant.
            let ivy = try savedPlant("Ivy")
            context.delete(ivy)
            try context.save()
            let opened: PlantEditSession?
            do {
                opened = try PlantEditSession(editing: ivy, in: context)
            } catch {
                opened = nil
            }
            try expect(opened == nil, "a session opened on a plant that was deleted and saved (Ivy) instead of "
                + "throwing: its plant "
                + (opened.map { $0.plant === ivy ? "is the caller's deleted object itself, outside the child"
                                                 : "is a stand-in for a row that no longer exists" } ?? "")
                + ", and the screen finds out only later: by default a plant whose row is gone reads as empty and "
                + "counts as deleted, so the user would edit a blank form whose Save goes nowhere. Look the plant up "
                + "in the child in a way that checks it exists, and let the error reach the caller.")
        }
    }

    func test06_newPlantHasItsPermanentIDAfterCommit() {
        kata(6, in: "PlantEditSession.swift", "commit()") {
            let session = try PlantEditSession(newPlantIn: context)
            try expectChildSession(session)
            try expect(session.context.insertedObjects.contains(session.plant) && !context.hasChanges,
                       "the new plant must be inserted in the session's child only, so that discarding the session "
                + "leaves no trace of it.")
            // The user taps Save before typing a name: the child's own save fails (the name is mandatory).
            let error = try expectError(CocoaError.self, "commit() of a plant without a name must throw the "
                + "child's save error.") { try session.commit() }
            try expect(error.code == .validationMissingMandatoryProperty, "commit() of a plant without a name threw "
                + "\(error.code.rawValue); the child's save fails with 1570 (missing mandatory property). Throw that one.")
            try expect(session.plant.managedObjectContext === session.context
                       && session.context.insertedObjects.contains(session.plant), "after the failed commit the new "
                + "plant is gone from the session, with whatever the user had entered. The child holds nothing but "
                + "this edit: leave a failed child save for the user to fix (do not roll the child back).")
            try expect(session.isOpen, "after the child's own save failed the session says it is closed: the edit "
                + "is still in the child, for the user to fix and save again. Only a failed save of the parent, "
                + "which loses the edit, closes the session.")
            session.rename(to: "Basil")
            let cutting = Plant(context: session.context)       // a second new plant in the same session
            cutting.name = "Basil cutting"
            try session.commit()
            try expect(!context.hasChanges, "after commit() the new plant waits in the parent, unsaved: save the "
                + "child first, then the parent.")
            let id = session.plant.objectID
            try expect(!id.isTemporaryID, "after commit() the session's plant still has a temporary ID: a child's "
                + "new objects keep the temporary ID they were pushed with, even after the parent has saved them "
                + "under a permanent one. Ask the child for permanent IDs before its save.")
            try expect(!cutting.objectID.isTemporaryID, "after commit() the session's plant has a permanent ID, but "
                + "the cutting added in the same session still has a temporary one: ask for permanent IDs for every "
                + "object the child inserted, not only the session's plant — any of them may be looked up again by "
                + "its ID.")
            let reader = container.newBackgroundContext()
            let found = reader.performAndWait { (try? reader.existingObject(with: id) as? Plant)?.name }
            try expect(found == "Basil", "another context cannot find the new plant by the session's ID \(id): "
                + "no row has it (an ID asked for after the save: what Core Data gives then is undocumented). Ask "
                + "for permanent IDs while the plant is "
                + "still an insert in the child — before the child's save.")
            session.rename(to: "Sweet basil")
            try session.commit()
            let stored = try storedValues(\Plant.name)
            try expect(stored == ["Basil cutting", "Sweet basil"], "after a second commit() of the new plant the "
                + "store holds \(stored), not [\"Basil cutting\", \"Sweet basil\"].")
        }
    }

    // MARK: A private-queue child

    func test07_backgroundChildStagesPlantsInTheViewContext() {
        kata(7, in: "PlantStager.swift", "stage(_:)") {
            let stager = PlantStager(parent: context)
            // How many new plants the stager's own context saves into its parent: the way they must arrive.
            let pushed = LockedBox(0)
            let token = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveObjectsNotification, object: stager.context, queue: nil) { note in
                let key = ManagedObjectContext.NotificationKey.insertedObjects.rawValue
                pushed.value += (note.userInfo?[key] as? Set<ManagedObject>)?.count ?? 0
            }
            defer { NotificationCenter.default.removeObserver(token) }
            let ids = try stager.stage(["Chive", "Mint"])
            // An app's main queue keeps running after stage(_:) returns: let it run whatever was queued there for the
            // view context, so that a save handed to it for later is seen too.
            settle(0.3)
            try expect(stager.context.parent === context, "the stager's context is not a child of the view "
                + "context (its parent is " + (stager.context.parent.map { "\($0)" } ?? "nil") + "): set its "
                + "`parent` in init(parent:). A background context on the store saves straight to the store, and "
                + "the view context does not even see the new plants until it merges the save (lesson 9).")
            let stored = try storedValues(\Plant.name)
            try expect(stored.isEmpty, "stage(_:) put \(stored) into the store before the user confirmed them"
                + (context.hasChanges ? "" : " — the view context was saved, at once or in a block queued on it that "
                    + "ran as soon as the main queue was free")
                + ": save the child only. Its save goes into the view context; the view context's save, the user's "
                + "OK, writes the store later.")
            let staged = context.insertedObjects.compactMap { ($0 as? Plant)?.name }.sorted()
            try expect(staged == ["Chive", "Mint"], "after stage(_:) the view context holds \(staged) as new, "
                + "unsaved plants, not [\"Chive\", \"Mint\"]: insert the plants in the child and save the child, "
                + "inside its performAndWait — its save pushes them into the view context.")
            try expect(pushed.value == 2, "the view context holds the new plants, but the stager's child saved "
                + "\(pushed.value) of them into it: insert the plants in the child, on the child's queue, and save "
                + "the child. A plant inserted in the view context itself skips the child, and is made off the view "
                + "context's queue.")
            let named = ids.compactMap { (context.registeredObject(for: $0) as? Plant)?.name }.sorted()
            try expect(named == ["Chive", "Mint"], "the IDs stage(_:) returned name \(named) in the view context, "
                + "not [\"Chive\", \"Mint\"]: return the objectIDs of the plants it inserted.")
            try context.save()                                   // the user's OK
            let confirmed = try storedValues(\Plant.name)
            try expect(confirmed == ["Chive", "Mint"], "after the view context's save the store holds "
                + "\(confirmed), not [\"Chive\", \"Mint\"].")
        }
    }
}
