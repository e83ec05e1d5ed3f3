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
}
