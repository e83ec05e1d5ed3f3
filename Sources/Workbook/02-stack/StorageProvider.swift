import Foundation
import KataSupport
import Persistence

/// Owns the app's stack: finds the model by name, points a container at a persisted or in-memory store, and
/// loads it — reporting failures as ``StorageError`` values, never stopping the app.
///
/// Lesson 2, katas 3–8. Check with `swift run lessons check 2`.
public final class StorageProvider {
    public let modelName: String
    public let location: StoreLocation
    public let container: PersistentContainer

    /// Finds the model named `modelName` (see ``model(named:)``), makes the container, and describes its store
    /// at `location` — without loading it yet.
    /// - Throws: ``StorageError/modelNotFound(name:available:)`` when there is no such model.
    public init(modelName: String = GardenModel.name, location: StoreLocation) throws {
        throw KataNotDone(lesson: 2)
    }

    /// Loads the store. When that fails, throws ``StorageError/storeUnavailable(url:underlying:)`` and leaves the
    /// provider ready to try again later.
    public func loadStores() throws {
        throw KataNotDone(lesson: 2)
    }

    /// The main-queue context, for the UI.
    public var viewContext: ManagedObjectContext { container.viewContext }

    /// The model called `name` from ``ModelBundle/main`` — loaded once per process, the same instance for every
    /// caller after that.
    /// - Throws: ``StorageError/modelNotFound(name:available:)`` when the bundle has no such model.
    public static func model(named name: String) throws -> ManagedObjectModel {
        throw KataNotDone(lesson: 2)
    }
}
