/// What a ``PersistentHistoryChangeRequest`` returns in ``PersistentHistoryResult/result`` (Core Data's
/// `NSPersistentHistoryResultType`, with its raw values).
public enum PersistentHistoryResultType: Int, Sendable, Hashable {
    /// `true` once the request has run.
    case statusOnly = 0
    /// The IDs of the objects the selected transactions changed, each once, in the order of their first change
    /// (`[ManagedObjectID]`).
    case objectIDs = 1
    /// For a fetch: how many changes the selected transactions hold (one per object and transaction); for a purge:
    /// how many transactions it deleted (`Int`). Apple documents the fetch's count only.
    case count = 2
    /// The selected transactions without their changes (`[PersistentHistoryTransaction]`, each with `changes` nil).
    case transactionsOnly = 3
    /// The changes of the selected transactions (`[PersistentHistoryChange]`, each with `transaction` nil).
    case changesOnly = 4
    /// The selected transactions with their changes (`[PersistentHistoryTransaction]`): the default.
    case transactionsAndChanges = 5
}
