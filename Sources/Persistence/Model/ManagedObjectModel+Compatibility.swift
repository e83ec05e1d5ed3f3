import Foundation

extension ManagedObjectModel {
    /// `true` when a store with `metadata` (from ``PersistentStoreCoordinator/metadataForPersistentStore(ofType:at:options:)``)
    /// can be opened with this model as it is, without migrating: the version hashes it keeps
    /// (`NSStoreModelVersionHashes`) are this model's ``entityVersionHashesByName`` — for every entity with
    /// `configuration` nil, for the configuration's entities otherwise (false for a configuration the model does not
    /// have). As Apple documents, only the version hashes count, not ``versionIdentifiers``.
    ///
    /// A store written before this library kept per-entity hashes holds one fingerprint of the whole model instead;
    /// it is compatible when that is this model's own fingerprint (an internal hash of its tables).
    ///
    /// ```swift
    /// let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
    /// if !model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) { /* it will migrate */ }
    /// ```
    public func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any]) -> Bool {
        let members: [EntityDescription]
        if let configuration {
            guard let named = entities(forConfigurationName: configuration) else { return false }
            members = named
        } else {
            members = entities
        }
        if let stored = StoreMetadata.entityHashes(in: metadata) {
            // With no configuration the store must hold exactly the model's entities; a configuration's entities
            // must be among the store's with the same hashes (a store here holds every entity of its model).
            if configuration == nil && stored.count != members.count { return false }
            return members.allSatisfy { stored[$0.entityName] == $0.versionHash }
        }
        if let fingerprint = metadata[StoreMetadata.legacyModelHashKey] as? String {
            return fingerprint == versionHash
        }
        return false
    }
}
