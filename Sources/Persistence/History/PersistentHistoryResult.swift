/// What a ``PersistentHistoryChangeRequest`` returns (Core Data's `NSPersistentHistoryResult`), as `execute(_:)`
/// returns it typed as ``PersistentStoreResult``: cast it, then cast its ``result`` as its ``resultType`` says. A
/// request that fails throws instead.
///
/// ```swift
/// let request = PersistentHistoryChangeRequest.fetchHistory(after: token)
/// let result = try context.execute(request) as? PersistentHistoryResult
/// let transactions = result?.result as? [PersistentHistoryTransaction] ?? []
/// ```
///
/// A purge (`deleteHistory(before:)`) reads nothing back: with ``PersistentHistoryResultType/count`` it answers how
/// many transactions it deleted, with any other result type `true`. What Core Data returns for a purge is
/// undocumented.
public final class PersistentHistoryResult: PersistentStoreResult {
    /// The request's result type, which decides what ``result`` holds.
    public let resultType: PersistentHistoryResultType
    /// What the request returned: `true`, an `Int`, `[ManagedObjectID]`, `[PersistentHistoryTransaction]` or
    /// `[PersistentHistoryChange]` (see ``PersistentHistoryResultType``). Optional and untyped as in Core Data;
    /// cast it.
    public let result: Any?

    init(resultType: PersistentHistoryResultType, result: Any?) {
        self.resultType = resultType
        self.result = result
    }

    /// The transactions, for ``PersistentHistoryResultType/transactionsAndChanges`` and
    /// ``PersistentHistoryResultType/transactionsOnly``; `nil` otherwise.
    var transactions: [PersistentHistoryTransaction]? { result as? [PersistentHistoryTransaction] }
    /// The changes, for ``PersistentHistoryResultType/changesOnly``; `nil` otherwise.
    var changes: [PersistentHistoryChange]? { result as? [PersistentHistoryChange] }
    /// The object IDs, for ``PersistentHistoryResultType/objectIDs``; `nil` otherwise.
    var objectIDs: [ManagedObjectID]? { result as? [ManagedObjectID] }
    /// The count, for ``PersistentHistoryResultType/count``; `nil` otherwise.
    var count: Int? { result as? Int }

    /// The result type and what it holds.
    public override var description: String {
        switch result {
        case let list as [Any]: return "PersistentHistoryResult(\(resultType): \(list.count) item(s))"
        case let value?: return "PersistentHistoryResult(\(resultType): \(value))"
        case nil: return "PersistentHistoryResult(\(resultType))"
        }
    }
}
