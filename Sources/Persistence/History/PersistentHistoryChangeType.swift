/// What a ``PersistentHistoryChange`` did to its object (Core Data's `NSPersistentHistoryChangeType`, with its raw
/// values).
public enum PersistentHistoryChangeType: Int64, Sendable, Hashable {
    /// The object was inserted.
    case insert = 0
    /// The object was updated; ``PersistentHistoryChange/updatedProperties`` says which properties.
    case update = 1
    /// The object was deleted; ``PersistentHistoryChange/tombstone`` keeps its preserved values.
    case delete = 2
}
