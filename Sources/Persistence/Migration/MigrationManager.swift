import Foundation

/// Migrates a store file into a new one with a mapping model (Core Data's `NSMigrationManager`): the way apps
/// migrate step by step, version after version, outside the container's automatic migration.
///
/// ```swift
/// let mapping = try MappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
/// let manager = MigrationManager(sourceModel: v1, destinationModel: v2)
/// try manager.migrateStore(from: oldURL, sourceType: NSSQLiteStoreType, options: nil, with: mapping,
///                          toDestinationURL: newURL, destinationType: NSSQLiteStoreType, destinationOptions: nil)
/// ```
///
/// The source store is read, never changed. The destination is a copy of it rewritten in one SQLite transaction:
/// if anything fails, no destination store is left behind.
public final class MigrationManager: @unchecked Sendable {
    /// The version of the stores it reads.
    public let sourceModel: ManagedObjectModel
    /// The version of the stores it writes.
    public let destinationModel: ManagedObjectModel
    /// How far the current migration is, from 0 to 1.
    public private(set) var migrationProgress: Float = 0

    /// A manager migrating stores of `sourceModel` into stores of `destinationModel`.
    public init(sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
    }

    /// Writes, at `destinationURL`, the store at `sourceURL` migrated with `mapping`.
    ///
    /// Both types must be ``NSSQLiteStoreType``; the options are accepted and unused. Core Data may also migrate
    /// into an existing store, entity by entity with several mapping models; what that does to objects already
    /// there is undocumented, and Persistence's inferred mapping covers every entity in one pass, so here the
    /// destination must not exist yet.
    /// - Throws: 134130 when the store at `sourceURL` was not written with ``sourceModel``;
    ///   134140 without a mapping, or with one made for other versions; 134110 when migrating fails (nothing is
    ///   left at `destinationURL`); 134000 for another store type or an existing destination.
    public func migrateStore(from sourceURL: URL, sourceType: String, options sourceOptions: [AnyHashable: Any]?,
                             with mapping: MappingModel?, toDestinationURL destinationURL: URL,
                             destinationType: String, destinationOptions: [AnyHashable: Any]?) throws {
        migrationProgress = 0
        guard sourceType == NSSQLiteStoreType, destinationType == NSSQLiteStoreType else {
            throw PersistenceError(.persistentStoreInvalidType, "migrateStore: Persistence migrates SQLite stores (NSSQLiteStoreType) only; asked for \(sourceType) to \(destinationType).", url: sourceURL)
        }
        guard let mapping else {
            throw PersistenceError(.migrationMissingMappingModel, "migrateStore: no mapping model given; make one with MappingModel.inferredMappingModel(forSourceModel:destinationModel:).", url: sourceURL)
        }
        guard mapping.sourceModel.versionChecksum == sourceModel.versionChecksum,
              mapping.destinationModel.versionChecksum == destinationModel.versionChecksum else {
            throw PersistenceError(.migrationMissingMappingModel, "migrateStore: the mapping model maps other model versions than this manager's source and destination models.", url: sourceURL)
        }
        let metadata = try SQLiteStore.metadata(at: sourceURL)
        guard sourceModel.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else {
            throw PersistenceError(.migrationMissingSourceModel, "migrateStore: the store at \(sourceURL.path) was not written with the manager's source model.", url: sourceURL)
        }
        guard !FileManager.default.fileExists(atPath: destinationURL.path) else {
            throw PersistenceError(.persistentStoreInvalidType, "migrateStore: there is already a file at \(destinationURL.path); migrate into a new location (Persistence does not migrate into an existing store).", url: destinationURL)
        }
        PersistenceDebugLog.migration("migrating the store at \(sourceURL.path) to \(destinationURL.path) with a mapping model: copying it first")
        do {
            try SQLiteStore.copyStore(from: sourceURL, to: destinationURL)
            migrationProgress = 0.5
            let plan = try MigrationPlanner(from: sourceModel, to: destinationModel,
                                            existingIndexes: SQLiteStore.indexes(at: destinationURL)).plan()
            // Whether Core Data's migrated store keeps the source's UUID is undocumented; here it does, so object
            // URIs the app saved still name the same objects. The app's own metadata keys travel with it.
            let custom = metadata.filter { !StoreMetadata.storeKeys.contains($0.key) }
            let uuid = metadata[CoreDataStoreName.storeUUID] as? String ?? UUID().uuidString
            let migrated = StoreMetadata.dictionary(uuid: uuid, hashes: destinationModel.entityVersionHashesByName,
                                                    identifiers: Array(destinationModel.versionIdentifiers.map(\.base)),
                                                    checksum: destinationModel.versionChecksum, custom: custom)
            try SQLiteStore.migrate(at: destinationURL, plan: plan, metadata: migrated,
                                    fingerprint: destinationModel.versionHash)
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: destinationURL.path + suffix) }
            throw error
        }
        migrationProgress = 1
    }
}
