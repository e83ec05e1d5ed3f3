import Foundation
import KataSupport
import Persistence

/// A storage provider for the garden journal with the methods the app calls: add, list, find, water and delete
/// plants. Every method works in the view context and saves what it changed; the rest of the app never touches
/// a context itself.
///
/// Lesson 4, katas 1–5. Check with `swift run lessons check 4`.
public final class PlantStorage {
    /// The loaded container (in the app: the one lesson 2's `StorageProvider` made).
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    /// The main-queue context every method works in.
    public var viewContext: ManagedObjectContext { container.viewContext }

    /// Inserts a plant called `name` that has never been watered, saves, and returns it.
    @discardableResult
    public func addPlant(named name: String) throws -> Plant {
        throw KataNotDone(lesson: 4)
    }

    /// Every plant, sorted by name (an empty array when there are none).
    public func allPlants() throws -> [Plant] {
        throw KataNotDone(lesson: 4)
    }

    /// The plants that need water: never watered, or last watered before `date`. Sorted by name.
    public func plants(notWateredSince date: Date) throws -> [Plant] {
        throw KataNotDone(lesson: 4)
    }

    /// Records that `plant` was watered on `date`, and saves.
    public func water(_ plant: Plant, on date: Date) throws {
        throw KataNotDone(lesson: 4)
    }

    /// Deletes `plant`, and saves.
    public func delete(_ plant: Plant) throws {
        throw KataNotDone(lesson: 4)
    }
}
