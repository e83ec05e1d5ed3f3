import Foundation
import KataSupport
import Persistence

/// Lesson 4's ``PlantStorage`` with known mistakes (see `Decoy`).
public final class PlantStorage {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    public var viewContext: ManagedObjectContext { container.viewContext }

    @discardableResult
    public func addPlant(named name: String) throws -> Plant {
        let plant = Plant(context: viewContext)
        plant.name = name
        // Mistake: the plant is only in the context; the store never hears of it.
        if Decoy.isActive("add-without-save") { return plant }
        try viewContext.save()
        return plant
    }

    public func allPlants() throws -> [Plant] {
        let request = Plant.fetchRequest()
        // Mistake: no sort descriptor, so the plants come back in whatever order the store keeps them.
        if !Decoy.isActive("all-unsorted") {
            request.sortDescriptors = [FetchSortDescriptor(\Plant.name)]
        }
        return try viewContext.fetch(request)
    }

    public func plants(notWateredSince date: Date) throws -> [Plant] {
        let request = Plant.fetchRequest()
        // Mistake: a plant never watered has no date, and `wateredOn < date` alone leaves it out.
        let format = Decoy.isActive("never-watered-left-out")
            ? "wateredOn < %@" : "wateredOn == nil OR wateredOn < %@"
        request.predicate = try FetchPredicate(format: format, date)
        request.sortDescriptors = [FetchSortDescriptor(\Plant.name)]
        return try viewContext.fetch(request)
    }

    public func water(_ plant: Plant, on date: Date) throws {
        plant.wateredOn = date
        // Mistake: the new date stays in memory; the store keeps the old one.
        if Decoy.isActive("water-without-save") { return }
        try viewContext.save()
    }

    public func delete(_ plant: Plant) throws {
        viewContext.delete(plant)
        // Mistake: the plant is only marked deleted in the context; its row stays in the store.
        if Decoy.isActive("delete-without-save") { return }
        try viewContext.save()
    }
}
