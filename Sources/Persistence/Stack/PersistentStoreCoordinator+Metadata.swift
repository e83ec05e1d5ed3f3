import Foundation

extension PersistentStoreCoordinator {
    /// The metadata of the store file at `url`, read without opening the store for writing and without a
    /// coordinator (Core Data's class method): `NSStoreType`, `NSStoreUUID`, the entity version hashes of the
    /// model that wrote it (`NSStoreModelVersionHashes`, `[String: Data]`), its `NSStoreModelVersionIdentifiers`,
    /// and the keys the app set with ``setMetadata(_:for:)``. Ask ``ManagedObjectModel/isConfiguration(withName:compatibleWithStoreMetadata:)``
    /// whether a model opens it as it is.
    ///
    /// Throws 260 when there is no file at `url`, 259 when it is not a store, 134000 for a store type other than
    /// `NSSQLiteStoreType` (an in-memory store has no file to read).
    public class func metadataForPersistentStore(ofType storeType: String, at url: URL,
                                                 options: [AnyHashable: Any]? = nil) throws -> [String: Any] {
        guard storeType == CoreDataStoreName.sqliteStoreType else {
            throw PersistenceError(.persistentStoreInvalidType, "metadataForPersistentStore(ofType:at:options:): '\(storeType)' is not a store type with a file to read; use NSSQLiteStoreType.", url: url)
        }
        return try SQLiteStore.metadata(at: url)
    }
}
