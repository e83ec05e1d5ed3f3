import Foundation

extension PersistentStoreDescription {
    /// The description as Core Data's options dictionary (what ``PersistentStore/options`` reports).
    var storeOptions: [AnyHashable: Any] {
        var options: [AnyHashable: Any] = self.options
        options[CoreDataStoreName.readOnly] = isReadOnly
        options[CoreDataStoreName.migrateAutomatically] = shouldMigrateStoreAutomatically
        options[CoreDataStoreName.inferMappingModel] = shouldInferMappingModelAutomatically
        return options
    }

    /// Sets the store option `key` to `option`, or removes it for `nil` (Core Data's `setOption(_:forKey:)`):
    /// `description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)`. A Boolean for
    /// ``NSReadOnlyPersistentStoreOption``, ``NSMigratePersistentStoresAutomaticallyOption`` or
    /// ``NSInferMappingModelAutomaticallyOption`` is the same as setting ``isReadOnly``,
    /// ``shouldMigrateStoreAutomatically`` or ``shouldInferMappingModelAutomatically``. Set options before the store
    /// is loaded; the store reads them once, when it opens.
    public func setOption(_ option: NSObject?, forKey key: String) {
        let flag = (option as? NSNumber)?.boolValue
        switch key {
        case CoreDataStoreName.readOnly: isReadOnly = flag ?? false
        case CoreDataStoreName.migrateAutomatically: shouldMigrateStoreAutomatically = flag ?? false
        case CoreDataStoreName.inferMappingModel: shouldInferMappingModelAutomatically = flag ?? false
        default: options[key] = option
        }
    }

    /// The staged migration manager set under ``NSPersistentStoreStagedMigrationManagerOptionKey``, if any.
    var stagedMigrationManager: StagedMigrationManager? {
        options[CoreDataStoreName.stagedMigrationManager] as? StagedMigrationManager
    }
}
