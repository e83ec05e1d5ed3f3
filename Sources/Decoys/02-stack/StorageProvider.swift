import Foundation
import KataSupport
import Persistence

/// Lesson 2's ``StorageProvider`` with known mistakes (see `Decoy`).
public final class StorageProvider {
    public let modelName: String
    public let location: StoreLocation
    public let container: PersistentContainer
    private var attempted = false

    public init(modelName: String = GardenModel.name, location: StoreLocation) throws {
        self.modelName = modelName
        self.location = location
        let model: ManagedObjectModel
        if Decoy.isActive("model-per-container") {
            // Mistake: each provider reads the model again, so two containers hold two copies of every entity.
            guard let fresh = try ModelBundle.main.model(named: modelName) else {
                throw StorageError.modelNotFound(name: modelName, available: ModelBundle.main.modelNames)
            }
            model = fresh
        } else {
            model = try Self.model(named: modelName)
        }
        container = PersistentContainer(name: modelName, managedObjectModel: model)
        var url = location.url
        // Mistake: "in memory" is a fixed file, so every in-memory provider shares one store on disk.
        if Decoy.isActive("in-memory-on-disk"), location == .inMemory {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-decoy-garden.sqlite")
        }
        // Mistake: every store goes to /dev/null, so a "persisted" store is gone at the next launch.
        if Decoy.isActive("persisted-store-in-memory") { url = URL(fileURLWithPath: "/dev/null") }
        let description = PersistentStoreDescription(url: url)
        // Mistake: "in memory" as Core Data's in-memory store type, which on Apple platforms is not SQLite.
        if Decoy.isActive("in-memory-store-type"), location == .inMemory { description.type = NSInMemoryStoreType }
        container.persistentStoreDescriptions = [description]
        // Mistake: the store is loaded in init, as most sample stacks do, and its error thrown from there: a
        // provider whose store cannot load yet is never made, and loadStores() loads a second time.
        if Decoy.isActive("init-loads-store") {
            var loadError: (any Error)?
            container.loadPersistentStores { _, error in loadError = error }
            if let loadError { throw StorageError.storeUnavailable(url: location.url, underlying: loadError) }
        }
    }

    public func loadStores() throws {
        // Mistake: only the first attempt loads; a retry after fixing the cause does nothing.
        if Decoy.isActive("never-retries"), attempted { return }
        attempted = true
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        // Mistake: the error is only printed, and the app carries on without a store.
        if let loadError, Decoy.isActive("load-error-printed-only") {
            print("could not load the store: \(loadError)")
            return
        }
        // Mistake: the common "reset the store on error" advice — a store that will not open is deleted and made
        // anew. The app starts, and every record the user had is gone.
        if loadError != nil, Decoy.isActive("load-deletes-store-on-failure") {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: location.url.path + suffix)
            }
            loadError = nil
            container.loadPersistentStores { _, error in loadError = error }
        }
        if let loadError { throw StorageError.storeUnavailable(url: location.url, underlying: loadError) }
    }

    public var viewContext: ManagedObjectContext { container.viewContext }

    public static func model(named name: String) throws -> ManagedObjectModel {
        // Mistake: the models are made in code, name by name, instead of read from the bundle, and kept in a cache
        // that is looked up and filled without holding the lock for the whole call. Making a model in code is quick,
        // so callers at once seldom overlap, and the race only shows now and then. (The write alone is kept behind
        // the lock here, so that this decoy cannot corrupt the dictionary and crash.)
        if Decoy.isActive("model-made-in-code-unlocked") {
            modelsLock.lock()
            let cached = models[name]
            modelsLock.unlock()
            if let cached { return cached }
            let model: ManagedObjectModel
            switch name {
            case GardenModel.name: model = try GardenModel.make()
            case BookshelfModel.name: model = try BookshelfModel.make()
            default: throw StorageError.modelNotFound(name: name, available: [GardenModel.name])
            }
            modelsLock.lock()
            models[name] = model
            modelsLock.unlock()
            return model
        }
        // Mistake: one `static let` per model the app has today — thread-safe without a lock, but only for the names
        // written into the switch; a model added to the bundle is refused.
        if Decoy.isActive("model-names-hard-coded") {
            switch name {
            case GardenModel.name: return try HardCoded.garden.get()
            case BookshelfModel.name: return try HardCoded.bookshelf.get()
            default: throw StorageError.modelNotFound(name: name, available: ModelBundle.main.modelNames)
            }
        }
        // Mistake: a missing model reports a list of names written by hand, which is out of date as soon as the
        // bundle gains a model.
        if Decoy.isActive("not-found-names-by-hand") {
            modelsLock.lock()
            defer { modelsLock.unlock() }
            if let model = models[name] { return model }
            guard let model = try ModelBundle.main.model(named: name) else {
                throw StorageError.modelNotFound(name: name, available: [GardenModel.name])
            }
            models[name] = model
            return model
        }
        // Mistake: the cache is looked up and filled without holding the lock for the whole call, so two callers
        // that both miss it each read the model, and each gets an instance of its own. (The write alone is kept
        // behind the lock here, so that this decoy cannot corrupt the dictionary and crash.)
        if Decoy.isActive("model-cache-unlocked") {
            modelsLock.lock()
            let cached = models[name]
            modelsLock.unlock()
            if let cached { return cached }
            guard let model = try ModelBundle.main.model(named: name) else {
                throw StorageError.modelNotFound(name: name, available: ModelBundle.main.modelNames)
            }
            modelsLock.lock()
            models[name] = model
            modelsLock.unlock()
            return model
        }
        modelsLock.lock()
        defer { modelsLock.unlock() }
        // Mistake: any name gets the Garden model, so a typo goes unnoticed.
        let lookup = Decoy.isActive("any-name-gets-garden") ? GardenModel.name : name
        if let model = models[lookup] { return model }
        guard let model = try ModelBundle.main.model(named: lookup) else {
            throw StorageError.modelNotFound(name: name, available: ModelBundle.main.modelNames)
        }
        models[lookup] = model
        return model
    }

    private static let modelsLock = NSLock()
    nonisolated(unsafe) private static var models: [String: ManagedObjectModel] = [:]

    /// The models of `model-names-hard-coded`, one stored type property each (Swift initialises each once).
    private enum HardCoded {
        static let garden = Result { try ModelBundle.main.model(named: GardenModel.name)! }
        static let bookshelf = Result { try ModelBundle.main.model(named: BookshelfModel.name)! }
    }
}
