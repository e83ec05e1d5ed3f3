/// The kinds of request `ManagedObjectContext.execute(_:)` runs (Core Data's
/// `NSPersistentStoreRequestType`).
public enum PersistentStoreRequestType: Sendable, Hashable {
    /// An ``AsynchronousFetchRequest``.
    case fetchRequestType
    /// A ``BatchInsertRequest``.
    case batchInsertRequestType
    /// A ``BatchUpdateRequest``.
    case batchUpdateRequestType
    /// A ``BatchDeleteRequest``.
    case batchDeleteRequestType
    /// A ``PersistentHistoryChangeRequest``. Core Data's enumeration names no case for it (its history request's
    /// type is undocumented); this one does, so a switch over request types can tell it apart.
    case historyChangeRequestType
}

/// A request a context hands to the store as a whole rather than object by object: the batch requests, the
/// asynchronous fetch and the persistent history request (Core Data's `NSPersistentStoreRequest`).
///
/// Run one with `context.execute(_:)`, which returns a ``PersistentStoreResult`` whatever the request, as Core
/// Data's does: cast it to the request's result class (a ``BatchDeleteRequest`` gives a ``BatchDeleteResult``).
/// Only the request types of this library can be executed; a type of your own conforming to this protocol is
/// refused with an error.
public protocol PersistentStoreRequest: AnyObject {
    /// Which kind of request this is.
    var requestType: PersistentStoreRequestType { get }
}
