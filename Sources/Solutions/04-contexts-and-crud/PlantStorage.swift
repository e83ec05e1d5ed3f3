import Foundation
import KataSupport
import Persistence

/// A storage provider for the garden journal: the app adds, lists, finds, waters and deletes plants through these
/// methods, and never handles a context or a fetch request itself.
///
/// Each method makes its change in the view context and saves it; until the save, the change exists only in that
/// context, and no other context, nor the store, sees it.
public final class PlantStorage {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    public var viewContext: ManagedObjectContext { container.viewContext }

    // region: create
    /// Inserts a plant and saves it.
    @discardableResult
    public func addPlant(named name: String) throws -> Plant {
        let plant = Plant(context: viewContext)
        plant.name = name
        try viewContext.save()
        return plant
    }
    // endregion: create

    // region: read-all
    /// Every plant, by name.
    public func allPlants() throws -> [Plant] {
        let request: FetchRequest<Plant> = Plant.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
        return try viewContext.fetch(request)
    }
    // endregion: read-all

    // region: read-some
    /// The plants never watered or last watered before `date`, by name.
    public func plants(notWateredSince date: Date) throws -> [Plant] {
        let request: FetchRequest<Plant> = Plant.fetchRequest()
        request.predicate = FetchPredicate(format: "wateredOn == nil OR wateredOn < %@", date)
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
        return try viewContext.fetch(request)
    }
    // endregion: read-some

    // region: update
    /// Changes the object, then saves: the object already belongs to the context, so there is nothing else to do.
    public func water(_ plant: Plant, on date: Date) throws {
        plant.wateredOn = date
        try viewContext.save()
    }
    // endregion: update

    // region: delete
    /// Marks the object deleted in the context, then saves to remove its row.
    public func delete(_ plant: Plant) throws {
        viewContext.delete(plant)
        try viewContext.save()
    }
    // endregion: delete
}
