import Foundation

// The store options that turn on persistent history and remote-change notifications, and the user-info keys of
// those notifications, with Core Data's strings: a description written for Core Data
// (`setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)`) sets the same option here.

extension PersistentStoreDescription {
    /// The raw value of `NSPersistentHistoryTrackingKey`: with `true as NSNumber` the store records every
    /// transaction (see ``PersistentHistoryChangeRequest``).
    public static let persistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
    /// The raw value of `NSPersistentStoreRemoteChangeNotificationPostOptionKey`. Core Data's string drops the
    /// word "Post" (`"NSPersistentStoreRemoteChangeNotificationOptionKey"`), which is why code written before the
    /// constant existed spells it that way; it is the same option.
    public static let remoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"

    /// Whether `key` is set to a true `NSNumber`; `nil` when the option is not set at all.
    /// - Throws: error 134060 when the value is not an `NSNumber` (Core Data raises "must be a NSNumber").
    func boolOption(_ key: String) throws -> Bool? {
        guard let value = options[key] else { return nil }
        if let number = value as? NSNumber { return number.boolValue }
        throw PersistenceError(.coreData, "The store option \(key) must be an NSNumber (true as NSNumber), not \(Swift.type(of: value)).",
                               url: url)
    }
}

extension PersistentStoreCoordinator {
    /// Posted by a coordinator whose store was loaded with `NSPersistentStoreRemoteChangeNotificationPostOptionKey`
    /// after every transaction written to the store's file — by any coordinator, this one included, or by another
    /// process (Core Data's `NSPersistentStoreRemoteChange`). The object is the coordinator; the user info holds
    /// the store's URL under `NSPersistentStoreURLKey`, its identifier under `NSStoreUUIDKey` and, when history is
    /// tracked, the transaction's ``PersistentHistoryToken`` under `NSPersistentHistoryTokenKey`. It is posted on a
    /// private queue: move to the queue of the context you update.
    public static let remoteChangeNotification = Notification.Name("NSPersistentStoreRemoteChangeNotification")
    /// The raw value of `NSPersistentStoreURLKey`: the store's URL in a remote-change notification.
    public static let storeURLKey = "storeURL"
    /// The raw value of `NSStoreUUIDKey`: the store's identifier (a `String`) in a remote-change notification, as
    /// in the store's metadata.
    public static let storeUUIDKey = CoreDataStoreName.storeUUID
    /// The raw value of `NSPersistentHistoryTokenKey`: the transaction's ``PersistentHistoryToken`` in a
    /// remote-change notification.
    public static let historyTokenKey = "historyToken"
}

// Core Data's names, which stand aside where Core Data itself is available (as the other `NS` names do).
#if !canImport(CoreData)
/// The store option that turns persistent history tracking on (``PersistentStoreDescription/persistentHistoryTrackingKey``).
public let NSPersistentHistoryTrackingKey = PersistentStoreDescription.persistentHistoryTrackingKey
/// The store option that makes coordinators post remote-change notifications
/// (``PersistentStoreDescription/remoteChangeNotificationPostOptionKey``).
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = PersistentStoreDescription.remoteChangeNotificationPostOptionKey
/// The store's URL in a remote-change notification (``PersistentStoreCoordinator/storeURLKey``).
public let NSPersistentStoreURLKey = PersistentStoreCoordinator.storeURLKey
/// The history token in a remote-change notification (``PersistentStoreCoordinator/historyTokenKey``).
public let NSPersistentHistoryTokenKey = PersistentStoreCoordinator.historyTokenKey

extension Notification.Name {
    /// Core Data's name for ``PersistentStoreCoordinator/remoteChangeNotification``.
    public static let NSPersistentStoreRemoteChange = PersistentStoreCoordinator.remoteChangeNotification
}
#endif
