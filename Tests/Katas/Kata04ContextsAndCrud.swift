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
            let request = Plant.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(\Plant.name)]
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

    /// Why a fetch's plants were not left as the fetch returned them, or nil when they were. A fetch returns its
    /// objects as faults (`returnsObjectsAsFaults` is true by default); Swift that sorts or filters them afterwards
    /// reads every one, which fires it. `extra` counts plants the view context registered beyond those returned.
    private func workedInSwift(_ plants: [Plant], of storage: PlantStorage, from function: String,
                               what: String) -> String? {
        let fired = plants.filter { !$0.isFault }.count
        let extra = storage.viewContext.registeredObjects.count - plants.count
        guard fired > 0 || extra > 0 else { return nil }
        return "\(function) returned \(plants.count) plants, \(fired) of them with their values already read"
            + (extra > 0 ? ", and its context registered \(extra) more that it did not return" : "")
            + ". A fetch hands back its objects untouched, as faults; these were read after the fetch — Swift "
            + "\(what) them. Let the fetch request do it, so the store does the work."
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
        }
    }

    func test02_allPlantsAreSortedByName() {
        kata(2, in: "PlantStorage.swift", "allPlants()") {
            let storage = PlantStorage(container: container)
            let none = try storage.allPlants()
            try expect(none.isEmpty, "allPlants() of an empty garden returned \(none.map(\.name)).")
            try plantElsewhere([("Rose", nil), ("Fern", nil), ("Tulip", nil), ("Basil", nil)])
            let plants = try storage.allPlants()
            if let problem = foreignPlants(plants, of: storage, from: "allPlants()") { try expect(false, problem) }
            if let problem = workedInSwift(plants, of: storage, from: "allPlants()", what: "sorted") {
                try expect(false, problem + " Sort descriptors order the rows as they are read.")
            }
            let names = plants.map(\.name)
            try expect(names == ["Basil", "Fern", "Rose", "Tulip"], "allPlants() returned \(names); expected "
                + "[\"Basil\", \"Fern\", \"Rose\", \"Tulip\"]. A fetch has no order unless the request asks for one.")
        }
    }

    func test03_plantsNotWateredSinceAskForTheRightOnes() {
        kata(3, in: "PlantStorage.swift", "plants(notWateredSince:)") {
            let storage = PlantStorage(container: container)
            try plantElsewhere([("Rose", today), ("Fern", daysAgo(10)), ("Tulip", nil), ("Basil", daysAgo(1)),
                                ("Aloe", daysAgo(30)), ("Ivy", daysAgo(3))])
            let plants = try storage.plants(notWateredSince: daysAgo(3))
            if let problem = foreignPlants(plants, of: storage, from: "plants(notWateredSince:)") {
                try expect(false, problem)
            }
            if let problem = workedInSwift(plants, of: storage, from: "plants(notWateredSince:)",
                                           what: "filtered or sorted") {
                try expect(false, problem + " A predicate picks the rows in the store — and there a plant never "
                    + "watered has a nil date, which no comparison matches.")
            }
            let names = plants.map(\.name)
            var cause = ""
            if names.count == 6 {
                cause = " Every plant came back: does the request you fetch carry the predicate?"
            } else if names.contains("Ivy") {
                cause = " Ivy was watered exactly on the date, so it has been watered since then: < leaves it out, "
                    + "<= does not."
            } else if !names.contains("Tulip") {
                cause = " Tulip was never watered: its date is nil, and a comparison with nil is never true."
            } else if names != names.sorted() {
                cause = " The names are out of order: sort by name."
            }
            try expect(names == ["Aloe", "Fern", "Tulip"], "plants(notWateredSince: three days ago) returned \(names); "
                + "expected [\"Aloe\", \"Fern\", \"Tulip\"]: the ones watered before the date and the one never "
                + "watered, sorted by name." + cause)
            let all = try storage.plants(notWateredSince: today.addingTimeInterval(1)).count
            try expect(all == 6, "plants(notWateredSince:) a second after every watering returned \(all) plants, not 6.")
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
        }
    }

    func test05_deleteRemovesThePlantFromTheStore() {
        kata(5, in: "PlantStorage.swift", "delete(_:)") {
            let storage = PlantStorage(container: container)
            try plant([("Fern", nil), ("Rose", nil), ("Tulip", nil)])
            let rose = try require(try context.fetch(Plant.fetchRequest()).first { $0.name == "Rose" },
                                   "the kata could not find its own plant \"Rose\".")
            try storage.delete(rose)
            let stored = try storedValues(\Plant.name)
            try expect(stored == ["Fern", "Tulip"], "after delete(rose) the store holds \(stored), not [\"Fern\", "
                + "\"Tulip\"]: delete marks the object in the context; the row goes when the context saves.")
            try expect(!storage.viewContext.hasChanges, "the view context still has unsaved changes after delete(_:).")
        }
    }
}
