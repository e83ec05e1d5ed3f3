import Foundation

extension PersistentStoreDescription {
    /// The description as Core Data's options dictionary (what ``PersistentStore/options`` reports).
    var storeOptions: [AnyHashable: Any] {
        var options = extraOptions
        options[CoreDataStoreName.readOnly] = isReadOnly
        options[CoreDataStoreName.migrateAutomatically] = shouldMigrateStoreAutomatically
        options[CoreDataStoreName.inferMappingModel] = shouldInferMappingModelAutomatically
        return options
    }

    /// Sets one of Core Data's store options: ``NSPersistentStoreStagedMigrationManagerOptionKey`` (a
    /// ``StagedMigrationManager``), or a Boolean for ``NSReadOnlyPersistentStoreOption``,
    /// ``NSMigratePersistentStoresAutomaticallyOption`` or ``NSInferMappingModelAutomaticallyOption`` (the same as
    /// setting ``isReadOnly``, ``shouldMigrateStoreAutomatically`` or ``shouldInferMappingModelAutomatically``).
    /// Other keys are kept and reported in ``PersistentStore/options``.
    public func setOption(_ option: NSObject?, forKey key: String) {
        let flag = (option as? NSNumber)?.boolValue
        switch key {
        case CoreDataStoreName.readOnly: isReadOnly = flag ?? false
        case CoreDataStoreName.migrateAutomatically: shouldMigrateStoreAutomatically = flag ?? false
        case CoreDataStoreName.inferMappingModel: shouldInferMappingModelAutomatically = flag ?? false
        default: extraOptions[key] = option
        }
    }

    /// The staged migration manager set under ``NSPersistentStoreStagedMigrationManagerOptionKey``, if any.
    var stagedMigrationManager: StagedMigrationManager? {
        extraOptions[CoreDataStoreName.stagedMigrationManager] as? StagedMigrationManager
    }
}
