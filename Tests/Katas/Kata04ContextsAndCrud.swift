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

/// Lesson 4 — Contexts and CRUD. A storage provider's methods add, list, find, change and delete plants; each
/// change must reach the store, which the katas read through a context of their own.
final class Kata04ContextsAndCrud: KataCase {
    override class var lesson: Int { 4 }
    override class var folder: String { "04-contexts-and-crud" }
    override class func makeModel() throws -> ManagedObjectModel { try model.get() }

    /// Lesson 2's Garden model, read once for the whole suite.
    private static let model = Result { try GardenModel.make() }

    /// Whole seconds, so that a date read back from the store compares equal.
    private let today = Date(timeIntervalSinceReferenceDate: 800_000_000)
    private func daysAgo(_ days: Double) -> Date { today.addingTimeInterval(-days * 86_400) }

    /// What the store holds — name and watering date of every plant, by name — read through a new context, so
    /// nothing the storage's context holds unsaved can answer instead.
    private func storedPlants() throws -> [(name: String, wateredOn: Date?)] {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait {
            let request: FetchRequest<Plant> = Plant.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
            return try reader.fetch(request).map { ($0.name, $0.wateredOn) }
        }
    }

    /// Plants saved straight into the store, without the storage's methods: name and last watering.
    private func plant(_ plants: [(String, Date?)]) throws {
        for (name, wateredOn) in plants {
            let plant = Plant(context: context)
            plant.name = name
            plant.wateredOn = wateredOn
        }
        try context.save()
    }

    /// Plants saved through a context of the kata's own, so the storage's view context has registered none of
    /// them: whatever it holds afterwards, its own fetch brought in.
    private func plantElsewhere(_ plants: [(String, Date?)]) throws {
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            for (name, wateredOn) in plants {
                let plant = Plant(context: writer)
                plant.name = name
                plant.wateredOn = wateredOn
            }
            try writer.save()
        }
    }

    /// The plant fetches the SQL debug log showed (Core Data's `-com.apple.CoreData.SQLDebug 1`) while the storage
    /// answered, or why they show the answer was not the store's: the store must have run one `SELECT` on the
    /// plants' table, with `needs` in it (an `ORDER BY`, a `WHERE`), and read no more rows than were returned —
    /// Swift that sorts or filters after the fetch leaves no trace in the SQL, and reads rows it then drops.
    private func storeDidTheWork(_ log: SQLLog, returned: Int, from function: String,
                                 needs: [(part: String, found: (SQLLog.Fetch) -> Bool, swift: String)]) -> String? {
        let fetches = log.fetches(from: "ZPLANT")
        guard let fetch = fetches.last else {
            return "\(function) returned \(returned) plants, but the SQL debug log shows no fetch of the plants' table "
                + "(ZPLANT) while it ran:\n\(log.quoted())\nFetch them with a fetch request in viewContext."
        }
        for need in needs where !need.found(fetch) {
            return "\(function) returned \(returned) plants, and the SQL the store ran has no \(need.part):\n    "
                + fetch.sql + "\nso the store did not do it: \(need.swift) Put it in the fetch request, so the store does "
                + "the work as it reads the rows."
        }
        let read = fetches.reduce(0) { $0 + $1.rows }
        guard read <= returned else {
            return "\(function) returned \(returned) plants, but the store read \(read) rows of plants to answer:\n"
                + log.quoted() + "\nThe rows it read and dropped were chosen in Swift. Let the fetch request's predicate "
                + "choose them, so that the store reads only those."
        }
        return nil
    }

    /// Why plants handed back by the storage cannot be used by its caller, or nil when they can: each must belong to
    /// the view context. One whose context is gone reads back empty — the likeliest sign of a throw-away context.
    private func foreignPlants(_ plants: [Plant], of storage: PlantStorage, from function: String) -> String? {
        guard let stray = plants.first(where: { $0.managedObjectContext !== storage.viewContext }) else { return nil }
        return "\(function) returned plants that do not belong to the storage's view context ("
            + (stray.managedObjectContext == nil ? "their context is gone, so their values read back empty"
                : "they belong to another context") + "). Fetch and insert in viewContext, the context the caller "
            + "uses; objects of another context, or of one that is gone, are of no use to it."
    }

    /// Runs `call` while the caller's view context holds what a screen holds — a plant fetched there, a plant
    /// someone began there and has not saved ("Mint", last watered `mintWateredOn`), and a plant deleted there and
    /// not saved yet (`unsavedDelete`) — and says what the call took from the caller, or left out of its answer or
    /// put in it by reading the store alone, or nil when the answer's names are `expected`. Both unsaved changes
    /// are rolled back afterwards.
    private func callerKeeps(_ function: String, of storage: PlantStorage, mintWateredOn: Date?,
                             unsavedDelete: String, expected: [String],
                             _ call: () throws -> [Plant]) throws -> String? {
        let viewContext = storage.viewContext
        let request: FetchRequest<Plant> = Plant.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
        let held = try viewContext.fetch(request)
        let shown = try require(held.first, "the kata found no plant to hold while \(function) runs.")
        let deleted = try require(held.first { $0.name == unsavedDelete }, "the kata found no plant \"\(unsavedDelete)\" "
            + "to delete while \(function) runs.")
        let begun = Plant(context: viewContext)
        begun.name = "Mint"
        begun.wateredOn = mintWateredOn
        viewContext.delete(deleted)
        defer { viewContext.rollback() }
        let answer = try call()
        // A plant whose context is gone is not read: on Apple it is invalid, and touching it is an error.
        if shown.managedObjectContext !== viewContext {
            return "\(function) left the plant the caller holds (fetched into the view context before the call) "
                + "without a context: it was forgotten, as reset() forgets every object a context handed out. On a "
                + "device those objects are invalid afterwards (Apple: \"discard references to any managed objects "
                + "fetched using the receiver\"), and a screen still showing one breaks. A fetch needs no fresh "
                + "start: it reads the store, and sees the context's own unsaved changes too."
        }
        if begun.managedObjectContext !== viewContext || !viewContext.insertedObjects.contains(begun) {
            return "\(function) threw away a change that was not its own: a plant begun in the view context and "
                + "not saved yet (as a screen's half-filled form holds one) is gone from it. rollback() and reset() "
                + "undo every unsaved change of the context, whoever made it; a storage method leaves the caller's "
                + "changes alone."
        }
        if let problem = foreignPlants(answer, of: storage, from: function) { return problem }
        let names = answer.map(\.name)
        if !answer.contains(where: { $0 === begun }) {
            return "\(function) answered \(names) while the view context held Mint, a plant added there and not "
                + "saved yet: Mint is missing. A fetch in a context sees that context's unsaved inserts as well as "
                + "the store; an answer read from the store alone — in another context, or by a request told to "
                + "skip pending changes — leaves them out. On a device the plant the user has just added on this "
                + "screen would vanish from the list until something saves."
        }
        if answer.contains(where: { $0 === deleted }) {
            return "\(function) answered \(names) while the view context had deleted \(unsavedDelete) and not saved "
                + "yet: \(unsavedDelete) is in the answer. A fetch in a context leaves out the objects that context "
                + "has deleted; an answer read from the store alone still has them, and on a device the plant the "
                + "user has just deleted would come back on the screen."
        }
        guard names == expected else {
            return "\(function) answered \(names) while the view context held Mint (added, not saved) and had "
                + "deleted \(unsavedDelete) (not saved); expected \(expected): the context's unsaved changes take "
                + "their places in the request's order, as the store's rows do."
        }
        return nil
    }

    /// Adds a plant without a name to the view context, so that its next save fails (Core Data error 1570: the name
    /// is mandatory), runs `call`, and says whether `call` threw; the nameless plant is rolled back afterwards,
    /// whatever happened. `check` looks at the context and the store before the rollback.
    private func failingSave(in storage: PlantStorage, _ call: () throws -> Void,
                             then check: (_ threw: Bool, _ nameless: Plant) throws -> Void) throws {
        let nameless = Plant(context: storage.viewContext)
        defer { storage.viewContext.rollback() }
        var threw = false
        do { try call() } catch { threw = true }
        try check(threw, nameless)
    }

    /// Why the caller's view context lost what it held through a failed save, or nil: a save that fails leaves the
    /// context as it was, and a storage method that reports the failure may undo its own change, and no other.
    private func othersKept(_ nameless: Plant, in storage: PlantStorage, by function: String) -> String? {
        guard nameless.managedObjectContext !== storage.viewContext
                || !storage.viewContext.insertedObjects.contains(nameless) else { return nil }
        return "after its save failed, \(function) had undone changes that were not its own: the nameless plant "
            + "another part of the app had begun is gone from the view context. A failed save leaves every change "
            + "in the context; rollback() and reset() then undo them all, whoever made them. Report the error and "
            + "leave the context as the failed save left it, or undo your own change alone — the caller decides "
            + "what to do with the rest (lesson 5)."
    }

    func test01_addPlantSavesIt() {
        kata(1, in: "PlantStorage.swift", "addPlant(named:)") {
            let storage = PlantStorage(container: container)
            let fern = try storage.addPlant(named: "Fern")
            if let problem = foreignPlants([fern], of: storage, from: "addPlant(named:)") { try expect(false, problem) }
            try expect(fern.name == "Fern" && fern.wateredOn == nil, "addPlant(named: \"Fern\") returned a plant "
                + "called \"\(fern.name)\", watered \(fern.wateredOn.map { "\($0)" } ?? "never"); expected \"Fern\", "
                + "never watered.")
            let stored = try storedValues(\Plant.name)
            try expect(stored == ["Fern"], "after addPlant(named:) the store holds \(stored), not [\"Fern\"]: the "
                + "new plant exists only in the context until the context is saved.")
            try expect(!storage.viewContext.hasChanges, "the view context still has unsaved changes after addPlant(named:).")

            // A garden can hold two ferns: every add is a new plant, whatever is already there.
            let second = try storage.addPlant(named: "Fern")
            let ferns = try storedValues(\Plant.name)
            try expect(second !== fern && ferns == ["Fern", "Fern"], "addPlant(named: \"Fern\") a second time "
                + (second === fern ? "returned the fern already there" : "returned a new plant")
                + ", and the store holds \(ferns), not [\"Fern\", \"Fern\"]. Adding inserts a plant each time; "
                + "the model does not make names unique, so a second fern is a second plant.")

            // A save that fails: a save writes every change of the context, and another plant in it has no name.
            try failingSave(in: storage, { try storage.addPlant(named: "Ivy") }) { failed, nameless in
                try expect(failed, "addPlant(named: \"Ivy\") returned normally although its save failed (another "
                    + "plant in the view context has no name, which the model requires: Core Data error 1570). The "
                    + "caller must hear of a failed save — on a device the user would see the plant as added, and it "
                    + "would be gone at the next launch.")
                if let problem = othersKept(nameless, in: storage, by: "addPlant(named:)") { try expect(false, problem) }
                let stored = try storedValues(\Plant.name)
                try expect(stored == ["Fern", "Fern"], "after a failed addPlant(named: \"Ivy\") the store holds "
                    + "\(stored), not the two ferns alone: a save that failed wrote nothing, so nothing may have.")
            }
        }
    }

    func test02_allPlantsAreSortedByName() {
        kata(2, in: "PlantStorage.swift", "allPlants()") {
            let storage = PlantStorage(container: container)
            let none = try storage.allPlants()
            try expect(none.isEmpty, "allPlants() of an empty garden returned \(none.map(\.name)).")
            try plantElsewhere([("Rose", nil), ("Fern", nil), ("Tulip", nil), ("Basil", nil)])
            let (plants, log) = try SQLLog.capture { try storage.allPlants() }
            if let problem = foreignPlants(plants, of: storage, from: "allPlants()") { try expect(false, problem) }
            let names = plants.map(\.name)
            try expect(names == ["Basil", "Fern", "Rose", "Tulip"], "allPlants() returned \(names); expected "
                + "[\"Basil\", \"Fern\", \"Rose\", \"Tulip\"]. A fetch has no order unless the request asks for one.")
            if let problem = storeDidTheWork(log, returned: plants.count, from: "allPlants()", needs: [
                ("ORDER BY", { $0.orderBy?.contains("ZNAME") ?? false },
                 "the plants came back in the store's order and were sorted afterwards, in Swift."),
            ]) {
                try expect(false, problem + " A sort descriptor on the name becomes the ORDER BY.")
            }
            // What a screen holds while it asks again: a plant it began and has not saved, one it deleted and has
            // not saved. The list must show the one and not the other, as the user left them.
            if let problem = try callerKeeps("allPlants()", of: storage, mintWateredOn: nil, unsavedDelete: "Tulip",
                                             expected: ["Basil", "Fern", "Mint", "Rose"], { try storage.allPlants() }) {
                try expect(false, problem)
            }
        }
    }

    func test03_plantsNotWateredSinceAskForTheRightOnes() {
        kata(3, in: "PlantStorage.swift", "plants(notWateredSince:)") {
            let storage = PlantStorage(container: container)
            try plantElsewhere([("Rose", today), ("Fern", daysAgo(10)), ("Tulip", nil), ("Basil", daysAgo(1)),
                                ("Aloe", daysAgo(30)), ("Ivy", daysAgo(3))])
            let (plants, log) = try SQLLog.capture { try storage.plants(notWateredSince: daysAgo(3)) }
            if let problem = foreignPlants(plants, of: storage, from: "plants(notWateredSince:)") {
                try expect(false, problem)
            }
            let names = plants.map(\.name)
            var cause = ""
            if names.count == 6 {
                cause = " Every plant came back: does the request you fetch carry the predicate?"
            } else if names.contains("Ivy") {
                cause = " Ivy was watered exactly on the date, so it has been watered since then: < leaves it out, "
                    + "<= does not."
            } else if !names.contains("Tulip") {
                cause = " Tulip was never watered: its date is nil, and in the store <, >= and the like are never true "
                    + "for a nil date, and neither is the NOT of one."
            } else if names != names.sorted() {
                cause = " The names are out of order: sort by name."
            }
            try expect(names == ["Aloe", "Fern", "Tulip"], "plants(notWateredSince: three days ago) returned \(names); "
                + "expected [\"Aloe\", \"Fern\", \"Tulip\"]: the ones watered before the date and the one never "
                + "watered, sorted by name." + cause)
            if let problem = storeDidTheWork(log, returned: plants.count, from: "plants(notWateredSince:)", needs: [
                ("WHERE", { $0.whereClause?.contains("ZWATEREDON") ?? false },
                 "every plant was read, and the thirsty ones were picked afterwards, in Swift."),
                ("ORDER BY", { $0.orderBy?.contains("ZNAME") ?? false },
                 "the plants were sorted afterwards, in Swift."),
            ]) {
                try expect(false, problem + " In the store a plant never watered has a nil date, which no comparison "
                    + "matches: the predicate needs a case for it.")
            }
            let all = try storage.plants(notWateredSince: today.addingTimeInterval(1)).count
            try expect(all == 6, "plants(notWateredSince:) a second after every watering returned \(all) plants, not 6.")
            // Mint, begun on this screen and not saved, was never watered; Tulip was deleted here and not saved.
            if let problem = try callerKeeps("plants(notWateredSince:)", of: storage, mintWateredOn: nil,
                                             unsavedDelete: "Tulip", expected: ["Aloe", "Fern", "Mint"], {
                try storage.plants(notWateredSince: daysAgo(3))
            }) {
                try expect(false, problem)
            }
        }
    }

    func test04_waterSavesTheNewDate() {
        kata(4, in: "PlantStorage.swift", "water(_:on:)") {
            let storage = PlantStorage(container: container)
            try plant([("Fern", daysAgo(10)), ("Rose", nil)])
            let rose = try require(try context.fetch(Plant.fetchRequest()).first { $0.name == "Rose" },
                                   "the kata could not find its own plant \"Rose\".")
            try storage.water(rose, on: today)
            try expect(rose.wateredOn == today, "after water(rose, on: today) Rose says it was watered "
                + "\(rose.wateredOn.map { "\($0)" } ?? "never"): set wateredOn on the plant you were given.")
            try expect(!storage.viewContext.hasChanges, "after water(_:on:) the new date is still an unsaved change "
                + "of the view context: save the context the plant belongs to (its managedObjectContext) — saving "
                + "another context, or none, writes nothing of it.")
            let stored = try storedPlants()
            try expect(stored.map(\.wateredOn) == [daysAgo(10), today], "after water(rose, on: today) the store "
                + "holds \(stored.map { "\($0.name): \($0.wateredOn.map { "\($0)" } ?? "never")" }); Rose should be "
                + "watered today.")

            // A save that fails: another plant in the view context has no name.
            let fern = try require(try context.fetch(Plant.fetchRequest()).first { $0.name == "Fern" },
                                   "the kata could not find its own plant \"Fern\".")
            try failingSave(in: storage, { try storage.water(fern, on: today) }) { failed, nameless in
                try expect(failed, "water(fern, on: today) returned normally although its save failed (another "
                    + "plant in the view context has no name, which the model requires: Core Data error 1570). The "
                    + "caller must hear of it: on a device the user would see Fern as watered today, and at the next "
                    + "launch it would not be.")
                if let problem = othersKept(nameless, in: storage, by: "water(_:on:)") { try expect(false, problem) }
                try expect(fern.managedObjectContext === storage.viewContext, "after its save failed, "
                    + "water(_:on:) left the plant it was given without a context: the caller's plant is unusable.")
                let after = try storedPlants().map(\.wateredOn)
                try expect(after == [daysAgo(10), today], "after a failed water(fern, on: today) the store holds "
                    + "\(after), not Fern's old date: a save that failed wrote nothing, so nothing may have.")
            }
        }
    }

    func test05_deleteRemovesThePlantFromTheStore() {
        kata(5, in: "PlantStorage.swift", "delete(_:)") {
            let storage = PlantStorage(container: container)
            // Two plants of the same name, as a real garden has: only the one handed over may go.
            try plant([("Fern", nil), ("Devil's ivy", daysAgo(2)), ("Devil's ivy", nil), ("Tulip", nil)])
            let ivy = try require(try context.fetch(Plant.fetchRequest()).first {
                $0.name == "Devil's ivy" && $0.wateredOn == nil
            }, "the kata could not find its own plant \"Devil's ivy\".")
            let ivyID = ivy.objectID
            try storage.delete(ivy)
            let stored = try storedPlants()
            let described = stored.map { "\($0.name) (\($0.wateredOn == nil ? "never watered" : "watered"))" }
            try expect(stored.count != 2 || stored.map(\.name) != ["Fern", "Tulip"], "after delete(ivy) the store "
                + "holds \(described): both plants called \"Devil's ivy\" are gone, and the one watered two days ago "
                + "was not handed over. Plants are not told apart by name; delete the object you were given.")
            try expect(stored.map(\.name) == ["Devil's ivy", "Fern", "Tulip"] && stored[0].wateredOn != nil,
                       "after delete(ivy) the store holds \(described), not Devil's ivy (watered), Fern and Tulip: "
                + "delete marks the object in the context; the row goes when the context saves.")
            try expect(!storage.viewContext.hasChanges, "the view context still has unsaved changes after delete(_:).")
            try expect(storage.viewContext.registeredObject(for: ivyID) == nil, "after delete(ivy) the row is gone "
                + "from the store, but the view context still holds the plant as a live object, name and all: a "
                + "screen showing the garden keeps showing a plant that no longer exists. A delete done where the "
                + "plant lives is let go of by that context when it saves; one saved elsewhere is not.")

            // A save that fails: another plant in the view context has no name.
            let tulip = try require(try context.fetch(Plant.fetchRequest()).first { $0.name == "Tulip" },
                                    "the kata could not find its own plant \"Tulip\".")
            try failingSave(in: storage, { try storage.delete(tulip) }) { failed, nameless in
                try expect(failed, "delete(tulip) returned normally although its save failed (another plant in the "
                    + "view context has no name, which the model requires: Core Data error 1570). The caller must "
                    + "hear of it: on a device Tulip would vanish from the screen and be back at the next launch.")
                if let problem = othersKept(nameless, in: storage, by: "delete(_:)") { try expect(false, problem) }
                let after = try storedPlants().map(\.name)
                try expect(after == ["Devil's ivy", "Fern", "Tulip"], "after a failed delete(tulip) the store holds "
                    + "\(after): a save that failed wrote nothing, so Tulip's row must still be there.")
            }
        }
    }
}
