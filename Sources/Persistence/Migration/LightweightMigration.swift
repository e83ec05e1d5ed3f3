import Foundation

/// Migrates a store file, when it is loaded, from the model version it was written with to the coordinator's
/// model, as Core Data does with `NSMigratePersistentStoresAutomaticallyOption` and
/// `NSInferMappingModelAutomaticallyOption`: it reads the store's metadata, finds the version whose entity hashes
/// are the store's among the versions the app has, infers the mapping and rewrites the store in one transaction.
enum LightweightMigration {
    /// Migrates the store at `url` to `model` when it was written with another version; does nothing for a store
    /// that is missing, not a store, or already of `model` (loading then reports what is wrong).
    static func migrateIfNeeded(storeAt url: URL, to model: ManagedObjectModel,
                                description: PersistentStoreDescription) throws {
        guard url.path != "/dev/null", !description.isReadOnly,
              FileManager.default.fileExists(atPath: url.path),
              let metadata = try? SQLiteStore.metadata(at: url),
              !model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        else { return }
        // With automatic migration off, opening the store reports 134100.
        guard description.shouldMigrateStoreAutomatically else { return }
        PersistenceDebugLog.migration("will attempt automatic schema migration of the store at \(url.path)")
        if let manager = description.stagedMigrationManager {
            try manager.migrate(storeAt: url, metadata: metadata, to: model)
            return
        }
        guard description.shouldInferMappingModelAutomatically else {
            throw PersistenceError(.migrationMissingMappingModel,
                                   "Can't find mapping model for migration: the store at \(url.path) was written with another version of the model, and shouldInferMappingModelAutomatically is false (Persistence has no mapping model files). Let the mapping be inferred, or migrate in stages with a StagedMigrationManager.",
                                   url: url)
        }
        let search = try sourceModel(for: metadata, among: model)
        guard let source = search.found else {
            throw PersistenceError(.migrationMissingSourceModel,
                                   "Persistent store migration failed, missing source managed object model: none of the model versions the app has wrote the store at \(url.path). \(versionsHint(model, skipped: search.skipped)) Keep every version the app ever shipped in its .xcdatamodeld (Xcode: Editor > Add Model Version), or delete the store.",
                                   url: url)
        }
        try migrate(storeAt: url, metadata: metadata, from: source, to: model)
    }

    /// The version among `model`'s (the other versions of its `.xcdatamodeld`, newest first) that wrote a store with
    /// `metadata`, and why each version tried before it did not serve. Versions are read one at a time and only
    /// until one matches; one that cannot be read is skipped, so an old version broken in the app's bundle stops
    /// only the stores it wrote from migrating.
    static func sourceModel(for metadata: [String: Any], among model: ManagedObjectModel) throws
        -> (found: ManagedObjectModel?, skipped: [String]) {
        var skipped: [String] = []
        for version in try model.versionsLoader?() ?? [] {
            let candidate: ManagedObjectModel
            do {
                candidate = try version.load()
            } catch {
                PersistenceDebugLog.migration("skipped model version '\(version.name)', which could not be read: \(error)")
                skipped.append(ModelVersion.Skip.unreadable(error).describe(version.name))
                continue
            }
            if candidate.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) { return (candidate, skipped) }
            skipped.append(ModelVersion.Skip.otherVersion.describe(version.name))
        }
        return (nil, skipped)
    }

    private static func versionsHint(_ model: ManagedObjectModel, skipped: [String]) -> String {
        if model.versionsLoader == nil {
            return "The model was made in code, so it knows no other versions; migrate with a StagedMigrationManager naming the old version, or read the model from its .xcdatamodeld."
        }
        if skipped.isEmpty { return "Its .xcdatamodeld has no version before the current one." }
        return "The versions of its .xcdatamodeld before the current one were tried, newest first: "
            + skipped.joined(separator: "; ") + "."
    }

    /// Infers the mapping from `source` to `destination` and rewrites the store at `url` in one transaction.
    static func migrate(storeAt url: URL, metadata: [String: Any], from source: ManagedObjectModel,
                        to destination: ManagedObjectModel) throws {
        PersistenceDebugLog.migration("inferring a mapping model between data models with source version checksum \(source.versionChecksum) and destination version checksum \(destination.versionChecksum)")
        let plan = try MigrationPlanner(from: source, to: destination, existingIndexes: try SQLiteStore.indexes(at: url)).plan()
        let custom = metadata.filter { !StoreMetadata.storeKeys.contains($0.key) }
        let uuid = metadata[CoreDataStoreName.storeUUID] as? String ?? UUID().uuidString
        let migrated = StoreMetadata.dictionary(uuid: uuid, hashes: destination.entityVersionHashesByName,
                                                identifiers: Array(destination.versionIdentifiers.map(\.base)),
                                                checksum: destination.versionChecksum, custom: custom)
        try SQLiteStore.migrate(at: url, plan: plan, metadata: migrated, fingerprint: destination.versionHash)
    }
}
