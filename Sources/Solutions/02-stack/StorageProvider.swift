import Foundation
import KataSupport
import Persistence

/// Owns the app's Core Data stack: finds the model by name, points a container at a persisted or in-memory
/// store, and loads it — reporting every failure as a ``StorageError`` instead of stopping the app, so a load
/// that failed can be tried again.
///
/// Make one per store and pass it to whoever needs it; tests make their own with ``StoreLocation/inMemory``.
public final class StorageProvider {
    public let modelName: String
    public let location: StoreLocation
    public let container: PersistentContainer

    // region: init
    /// Finds the model and prepares the container; does not load the store yet (see ``loadStores()``).
    /// - Throws: ``StorageError/modelNotFound(name:available:)`` when the bundle has no such model.
    public init(modelName: String = GardenModel.name, location: StoreLocation) throws {
        self.modelName = modelName
        self.location = location
        container = PersistentContainer(name: modelName, managedObjectModel: try Self.model(named: modelName))
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: location.url)]
    }
    // endregion: init

    // region: load-stores
    /// Loads the store. On failure the provider stays usable: fix the cause (or wait for it to pass, such as a
    /// locked device's files becoming readable) and call it again.
    /// - Throws: ``StorageError/storeUnavailable(url:underlying:)`` with the container's error.
    public func loadStores() throws {
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw StorageError.storeUnavailable(url: location.url, underlying: loadError) }
    }
    // endregion: load-stores

    /// The main-queue context, for the UI.
    public var viewContext: ManagedObjectContext { container.viewContext }

    // region: one-model
    /// The model called `name`, loaded from the bundle the first time and shared afterwards: every container of
    /// the process then uses the same entity descriptions for the same classes.
    /// - Throws: ``StorageError/modelNotFound(name:available:)``.
    public static func model(named name: String) throws -> ManagedObjectModel {
        modelsLock.lock()
        defer { modelsLock.unlock() }
        if let model = models[name] { return model }
        guard let model = try ModelBundle.main.model(named: name) else {
            throw StorageError.modelNotFound(name: name, available: ModelBundle.main.modelNames)
        }
        models[name] = model
        return model
    }

    private static let modelsLock = NSLock()
    // Guarded by `modelsLock`; Swift cannot see the lock, hence `nonisolated(unsafe)`.
    nonisolated(unsafe) private static var models: [String: ManagedObjectModel] = [:]
    // endregion: one-model
}
