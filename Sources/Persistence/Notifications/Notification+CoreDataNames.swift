import Foundation

// Core Data's notification names and user-info keys in their older spellings, which much Swift code still writes.
// They are the same strings as ``ManagedObjectContext``'s own names and ``ManagedObjectContext/NotificationKey``
// cases, so an observer written either way sees the same notifications. Where Core Data itself is available it
// defines them, and these step aside.

#if !canImport(CoreData)
extension Notification.Name {
    /// Core Data's name for ``ManagedObjectContext/didSaveObjectsNotification``.
    public static let NSManagedObjectContextDidSave = ManagedObjectContext.didSaveObjectsNotification
    /// Core Data's name for ``ManagedObjectContext/willSaveObjectsNotification``.
    public static let NSManagedObjectContextWillSave = ManagedObjectContext.willSaveObjectsNotification
    /// Core Data's name for ``ManagedObjectContext/didChangeObjectsNotification``.
    public static let NSManagedObjectContextObjectsDidChange = ManagedObjectContext.didChangeObjectsNotification
    /// Core Data's name for ``ManagedObjectContext/didSaveObjectIDsNotification``.
    public static let NSManagedObjectContextDidSaveObjectIDs = ManagedObjectContext.didSaveObjectIDsNotification
    /// Core Data's name for ``ManagedObjectContext/didMergeChangesObjectIDsNotification``.
    public static let NSManagedObjectContextDidMergeChangesObjectIDs = ManagedObjectContext.didMergeChangesObjectIDsNotification
}

/// The inserted objects in a notification's `userInfo` (``ManagedObjectContext/NotificationKey/insertedObjects``).
public let NSInsertedObjectsKey = ManagedObjectContext.NotificationKey.insertedObjects.rawValue
/// The updated objects (``ManagedObjectContext/NotificationKey/updatedObjects``).
public let NSUpdatedObjectsKey = ManagedObjectContext.NotificationKey.updatedObjects.rawValue
/// The deleted objects (``ManagedObjectContext/NotificationKey/deletedObjects``).
public let NSDeletedObjectsKey = ManagedObjectContext.NotificationKey.deletedObjects.rawValue
/// The refreshed objects (``ManagedObjectContext/NotificationKey/refreshedObjects``).
public let NSRefreshedObjectsKey = ManagedObjectContext.NotificationKey.refreshedObjects.rawValue
/// Invalidated objects (``ManagedObjectContext/NotificationKey/invalidatedObjects``; never posted here).
public let NSInvalidatedObjectsKey = ManagedObjectContext.NotificationKey.invalidatedObjects.rawValue
/// Every object invalidated (``ManagedObjectContext/NotificationKey/invalidatedAllObjects``, posted by a reset).
public let NSInvalidatedAllObjectsKey = ManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue
/// The inserted objects' IDs (``ManagedObjectContext/NotificationKey/insertedObjectIDs``).
public let NSInsertedObjectIDsKey = ManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue
/// The updated objects' IDs (``ManagedObjectContext/NotificationKey/updatedObjectIDs``).
public let NSUpdatedObjectIDsKey = ManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue
/// The deleted objects' IDs (``ManagedObjectContext/NotificationKey/deletedObjectIDs``).
public let NSDeletedObjectIDsKey = ManagedObjectContext.NotificationKey.deletedObjectIDs.rawValue
/// The refreshed objects' IDs (``ManagedObjectContext/NotificationKey/refreshedObjectIDs``).
public let NSRefreshedObjectIDsKey = ManagedObjectContext.NotificationKey.refreshedObjectIDs.rawValue
/// The invalidated objects' IDs (``ManagedObjectContext/NotificationKey/invalidatedObjectIDs``; never posted here).
public let NSInvalidatedObjectIDsKey = ManagedObjectContext.NotificationKey.invalidatedObjectIDs.rawValue
#endif
