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
final class Kata04ContextsAndCRUD: KataCase {
    override class var lesson: Int { 4 }
    override class var folder: String { "04-ContextsAndCRUD" }
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

    private func storedNames() throws -> [String] { try storedPlants().map(\.name) }

    /// Plants saved straight into the store, without the storage's methods: name and last watering.
    private func plant(_ plants: [(String, Date?)]) throws {
        for (name, wateredOn) in plants {
            let plant = Plant(context: context)
            plant.name = name
            plant.wateredOn = wateredOn
        }
        try context.save()
    }

    func test01_addPlantSavesIt() {
        kata(1, in: "PlantStorage.swift", "addPlant(named:)") {
            let storage = PlantStorage(container: container)
            let fern = try storage.addPlant(named: "Fern")
            try expect(fern.name == "Fern" && fern.wateredOn == nil, "addPlant(named: \"Fern\") returned a plant "
                + "called \"\(fern.name)\", watered \(fern.wateredOn.map { "\($0)" } ?? "never"); expected \"Fern\", "
                + "never watered.")
            try expect(fern.managedObjectContext === storage.viewContext,
                       "the plant returned does not belong to the storage's view context.")
            let stored = try storedNames()
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
            try plant([("Rose", nil), ("Fern", nil), ("Tulip", nil), ("Basil", nil)])
            let names = try storage.allPlants().map(\.name)
            try expect(names == ["Basil", "Fern", "Rose", "Tulip"], "allPlants() returned \(names); expected "
                + "[\"Basil\", \"Fern\", \"Rose\", \"Tulip\"]. A fetch has no order unless the request asks for one.")
        }
    }

    func test03_plantsNotWateredSinceAskForTheRightOnes() {
        kata(3, in: "PlantStorage.swift", "plants(notWateredSince:)") {
            let storage = PlantStorage(container: container)
            try plant([("Rose", today), ("Fern", daysAgo(10)), ("Tulip", nil), ("Basil", daysAgo(1)),
                       ("Aloe", daysAgo(30))])
            let names = try storage.plants(notWateredSince: daysAgo(3)).map(\.name)
            try expect(names == ["Aloe", "Fern", "Tulip"], "plants(notWateredSince: three days ago) returned \(names); "
                + "expected [\"Aloe\", \"Fern\", \"Tulip\"]: the ones watered before the date and the one never "
                + "watered (its date is nil), sorted by name.")
            let all = try storage.plants(notWateredSince: today.addingTimeInterval(1)).count
            try expect(all == 5, "plants(notWateredSince:) a second after every watering returned \(all) plants, not 5.")
        }
    }

    func test04_waterSavesTheNewDate() {
        kata(4, in: "PlantStorage.swift", "water(_:on:)") {
            let storage = PlantStorage(container: container)
            try plant([("Fern", daysAgo(10)), ("Rose", nil)])
            let rose = try require(try context.fetch(Plant.fetchRequest()).first { $0.name == "Rose" },
                                   "the kata could not find its own plant \"Rose\".")
            try storage.water(rose, on: today)
            let stored = try storedPlants()
            try expect(stored.map(\.wateredOn) == [daysAgo(10), today], "after water(rose, on: today) the store "
                + "holds \(stored.map { "\($0.name): \($0.wateredOn.map { "\($0)" } ?? "never")" }); Rose should be "
                + "watered today. Changing the object is not enough: save the context it belongs to.")
            try expect(!storage.viewContext.hasChanges, "the view context still has unsaved changes after water(_:on:).")
        }
    }

    func test05_deleteRemovesThePlantFromTheStore() {
        kata(5, in: "PlantStorage.swift", "delete(_:)") {
            let storage = PlantStorage(container: container)
            try plant([("Fern", nil), ("Rose", nil), ("Tulip", nil)])
            let rose = try require(try context.fetch(Plant.fetchRequest()).first { $0.name == "Rose" },
                                   "the kata could not find its own plant \"Rose\".")
            try storage.delete(rose)
            let stored = try storedNames()
            try expect(stored == ["Fern", "Tulip"], "after delete(rose) the store holds \(stored), not [\"Fern\", "
                + "\"Tulip\"]: delete marks the object in the context; the row goes when the context saves.")
            try expect(!storage.viewContext.hasChanges, "the view context still has unsaved changes after delete(_:).")
        }
    }
}
