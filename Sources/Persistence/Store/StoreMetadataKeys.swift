import Foundation

// Core Data's names for store types, metadata keys and store options, with Core Data's string values, so that code
// written for Core Data (`metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)`,
// `metadata[NSStoreModelVersionHashesKey]`) reads the same here. Where Core Data itself is available it defines them
// and these step aside.
/// The values, for use inside the package whether or not Core Data is there.
enum CoreDataStoreName {
    static let sqliteStoreType = "SQLite"
    static let inMemoryStoreType = "InMemory"
    static let storeType = "NSStoreType"
    static let storeUUID = "NSStoreUUID"
    static let modelVersionHashes = "NSStoreModelVersionHashes"
    static let modelVersionIdentifiers = "NSStoreModelVersionIdentifiers"
    static let modelVersionHashesVersion = "NSStoreModelVersionHashesVersion"
    static let modelVersionChecksum = "NSStoreModelVersionChecksumKey"
    static let migrateAutomatically = "NSMigratePersistentStoresAutomaticallyOption"
    static let inferMappingModel = "NSInferMappingModelAutomaticallyOption"
    static let readOnly = "NSReadOnlyPersistentStoreOption"
    static let stagedMigrationManager = "NSPersistentStoreStagedMigrationManagerOptionKey"
}

#if !canImport(CoreData)
/// The type of a store kept in an SQLite file (the only kind of file store here).
public let NSSQLiteStoreType = CoreDataStoreName.sqliteStoreType
/// The type of a store kept in memory; here, an SQLite store at `/dev/null` (see ``PersistentStoreDescription/inMemory()``).
public let NSInMemoryStoreType = CoreDataStoreName.inMemoryStoreType
/// The metadata key of the store's type (``NSSQLiteStoreType``).
public let NSStoreTypeKey = CoreDataStoreName.storeType
/// The metadata key of the store's UUID, part of every permanent object ID.
public let NSStoreUUIDKey = CoreDataStoreName.storeUUID
/// The metadata key of the version hashes of the model that wrote the store: `[String: Data]`, by entity name (see
/// ``ManagedObjectModel/entityVersionHashesByName``).
public let NSStoreModelVersionHashesKey = CoreDataStoreName.modelVersionHashes
/// The metadata key of the ``ManagedObjectModel/versionIdentifiers`` of the model that wrote the store (an array).
public let NSStoreModelVersionIdentifiersKey = CoreDataStoreName.modelVersionIdentifiers
/// The metadata key of the version of the hashing scheme (Core Data writes 3).
public let NSStoreModelVersionHashesVersionKey = CoreDataStoreName.modelVersionHashesVersion
/// The metadata key of the ``ManagedObjectModel/versionChecksum`` of the model that wrote the store.
public let NSStoreModelVersionChecksumKey = CoreDataStoreName.modelVersionChecksum
/// The option of ``PersistentStoreDescription/shouldMigrateStoreAutomatically`` (a Boolean, true by default).
public let NSMigratePersistentStoresAutomaticallyOption = CoreDataStoreName.migrateAutomatically
/// The option of ``PersistentStoreDescription/shouldInferMappingModelAutomatically`` (a Boolean, true by default).
public let NSInferMappingModelAutomaticallyOption = CoreDataStoreName.inferMappingModel
/// The option of ``PersistentStoreDescription/isReadOnly`` (a Boolean).
public let NSReadOnlyPersistentStoreOption = CoreDataStoreName.readOnly
/// The option whose value is the ``StagedMigrationManager`` that migrates the store when it is loaded.
public let NSPersistentStoreStagedMigrationManagerOptionKey = CoreDataStoreName.stagedMigrationManager
#endif
