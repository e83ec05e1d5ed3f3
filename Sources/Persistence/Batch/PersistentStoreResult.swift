/// What `ManagedObjectContext.execute(_:)` returns (Core Data's
/// `NSPersistentStoreResult`): a ``BatchUpdateResult``, ``BatchDeleteResult``, ``BatchInsertResult`` or
/// ``AsynchronousFetchResult``. The typed `execute` overloads return these directly.
public protocol PersistentStoreResult {}
