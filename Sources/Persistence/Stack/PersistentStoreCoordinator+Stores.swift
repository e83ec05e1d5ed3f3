import Foundation

/// Core Data's calls for the stores of a coordinator and for store files: adding with options, listing, removing,
/// metadata, destroying and replacing.
extension PersistentStoreCoordinator {
    /// The loaded stores (one at most: Persistence supports one store per coordinator).
    public var persistentStores: [PersistentStore] { withLock { loadedStore.map { [$0] } ?? [] } }

    /// The loaded store at `url`, or nil.
    public func persistentStore(for url: URL) -> PersistentStore? {
        withLock { loadedStore.flatMap { $0.url?.standardizedFileURL == url.standardizedFileURL ? $0 : nil } }
    }

    /// Core Data's way to add a store: of `storeType` (``NSSQLiteStoreType``, or ``NSInMemoryStoreType`` with any
    /// URL or none), at `storeURL`, with Core Data's `options` — ``NSReadOnlyPersistentStoreOption``,
    /// ``NSMigratePersistentStoresAutomaticallyOption`` and ``NSInferMappingModelAutomaticallyOption`` (each a
    /// Boolean; absent, migration options are false here as in Core Data, where only a container's descriptions turn
    /// them on), ``NSPersistentStoreStagedMigrationManagerOptionKey``. Other options are kept in
    /// ``PersistentStore/options`` and otherwise ignored.
    @discardableResult
    public func addPersistentStore(ofType storeType: String, configurationName: String? = nil, at storeURL: URL?,
                                   options: [AnyHashable: Any]? = nil) throws -> PersistentStore {
        let description = storeURL.map { PersistentStoreDescription(url: $0) } ?? PersistentStoreDescription()
        description.type = storeType
        func flag(_ key: String) -> Bool { (options?[key] as? Bool) ?? (options?[key] as? NSNumber)?.boolValue ?? false }
        description.isReadOnly = flag(CoreDataStoreName.readOnly)
        description.shouldMigrateStoreAutomatically = flag(CoreDataStoreName.migrateAutomatically)
        description.shouldInferMappingModelAutomatically = flag(CoreDataStoreName.inferMappingModel)
        description.configuration = configurationName
        for (key, value) in options ?? [:] {
            guard let key = key as? String, ![CoreDataStoreName.readOnly, CoreDataStoreName.migrateAutomatically,
                                              CoreDataStoreName.inferMappingModel].contains(key) else { continue }
            // Swift values do not bridge to NSObject on Linux: the common ones are converted.
            let object: NSObject? = switch value {
            case let flag as Bool: NSNumber(value: flag)
            case let number as Int: NSNumber(value: number)
            case let text as String: NSString(string: text)
            default: value as? NSObject
            }
            description.setOption(object, forKey: key)
        }
        return try addPersistentStore(with: description)
    }

    /// Closes `store`: its file stays, objects of it can no longer be fetched or saved. Throws 134000 when it is not
    /// this coordinator's store.
    public func remove(_ store: PersistentStore) throws {
        guard withLock({ loadedStore === store }) else {
            throw PersistenceError(.persistentStoreInvalidType, "remove(_:): \(store) is not a store of this coordinator.", url: store.url)
        }
        closeStore()
    }

    /// The metadata of `store`, with what ``setMetadata(_:for:)`` set and not yet saved (Core Data: "the metadata
    /// currently stored or to-be-stored").
    public func metadata(for store: PersistentStore) -> [String: Any] {
        (try? withStore { loaded in loadedStore === store ? loaded.metadata : [:] }) ?? [:]
    }

    /// Replaces the metadata of `store`, keeping its type and UUID (unless `metadata` names a UUID, as Apple
    /// documents) and the model's version hashes. As in Core Data it is written with the next save, not now; values
    /// must be property-list values, or that save fails.
    public func setMetadata(_ metadata: [String: Any]?, for store: PersistentStore) {
        _ = try? withStore { loaded in
            guard loadedStore === store else { return }
            var merged = loaded.storeMetadata(custom: (metadata ?? [:]).filter { !StoreMetadata.storeKeys.contains($0.key) })
            if merged[CoreDataStoreName.storeUUID] == nil { merged[CoreDataStoreName.storeUUID] = loaded.identifier }
            loaded.metadata = merged
            loaded.metadataChanged = true
        }
    }

    /// Deletes the store file at `url` and the files SQLite keeps beside it (`-wal`, `-shm`, `-journal`); nothing to
    /// delete is not an error. Refuses a file that is a database but not a store (259), and the store this
    /// coordinator has open (134000: remove it first).
    public func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {
        guard storeType == CoreDataStoreName.sqliteStoreType || storeType == CoreDataStoreName.inMemoryStoreType else {
            throw PersistenceError(.persistentStoreInvalidType, "Unsupported store type '\(storeType)'.", url: url)
        }
        guard url.path != "/dev/null" else { return }
        if persistentStore(for: url) != nil {
            throw PersistenceError(.persistentStoreInvalidType, "destroyPersistentStore(at:ofType:options:): the store at \(url.path) is open in this coordinator; remove(_:) it first.", url: url)
        }
        if FileManager.default.fileExists(atPath: url.path) {
            _ = try SQLiteStore.metadata(at: url)   // a store, not someone else's file
        }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let path = url.path + suffix
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        }
    }

    /// Replaces the store at `destinationURL` with a copy of the store at `sourceURL`, made with SQLite's online
    /// backup, which copies a consistent state of a database even while another connection writes it (a plain file
    /// copy could take the main file without what its `-wal` still holds). The copy is the source's: its objects,
    /// metadata and UUID. The destination need not exist.
    public func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
                                       withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
                                       ofType storeType: String) throws {
        guard storeType == CoreDataStoreName.sqliteStoreType else {
            throw PersistenceError(.persistentStoreInvalidType, "replacePersistentStore: only NSSQLiteStoreType stores have files to copy.", url: destinationURL)
        }
        _ = try SQLiteStore.metadata(at: sourceURL)
        if persistentStore(for: destinationURL) != nil {
            throw PersistenceError(.persistentStoreInvalidType, "replacePersistentStore: the store at \(destinationURL.path) is open in this coordinator; remove(_:) it first.", url: destinationURL)
        }
        try SQLiteStore.copyStore(from: sourceURL, to: destinationURL)
    }
}
