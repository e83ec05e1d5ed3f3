/// What `ManagedObjectContext.execute(_:)` returns (Core Data's
/// `NSPersistentStoreResult`): a ``BatchUpdateResult``, ``BatchDeleteResult``, ``BatchInsertResult``,
/// ``AsynchronousFetchResult`` or ``PersistentHistoryResult``. The typed `execute` overloads return these directly.
public protocol PersistentStoreResult {}
