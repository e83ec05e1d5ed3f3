/// What a ``PersistentHistoryChangeRequest`` returns (Core Data's `NSPersistentHistoryResult`): its ``result``, as
/// its ``resultType`` says. A request that fails throws instead.
///
/// A purge (`deleteHistory(before:)`) reads nothing back: with ``PersistentHistoryResultType/count`` it answers how
/// many transactions it deleted, with any other result type `true`. What Core Data returns for a purge is
/// undocumented.
public struct PersistentHistoryResult: PersistentStoreResult, CustomStringConvertible {
    /// The request's result type, which decides ``result``.
    public let resultType: PersistentHistoryResultType
    /// Core Data's untyped result: `true`, an `Int`, `[ManagedObjectID]`, `[PersistentHistoryTransaction]` or
    /// `[PersistentHistoryChange]` (see ``PersistentHistoryResultType``).
    public let result: Any?

    init(resultType: PersistentHistoryResultType, result: Any?) {
        self.resultType = resultType
        self.result = result
    }

    /// The transactions, for ``PersistentHistoryResultType/transactionsAndChanges`` and
    /// ``PersistentHistoryResultType/transactionsOnly``; `nil` otherwise.
    public var transactions: [PersistentHistoryTransaction]? { result as? [PersistentHistoryTransaction] }
    /// The changes, for ``PersistentHistoryResultType/changesOnly``; `nil` otherwise.
    public var changes: [PersistentHistoryChange]? { result as? [PersistentHistoryChange] }
    /// The object IDs, for ``PersistentHistoryResultType/objectIDs``; `nil` otherwise.
    public var objectIDs: [ManagedObjectID]? { result as? [ManagedObjectID] }
    /// The count, for ``PersistentHistoryResultType/count``; `nil` otherwise.
    public var count: Int? { result as? Int }

    /// The result type and what it holds.
    public var description: String {
        switch result {
        case let list as [Any]: return "PersistentHistoryResult(\(resultType): \(list.count) item(s))"
        case let value?: return "PersistentHistoryResult(\(resultType): \(value))"
        case nil: return "PersistentHistoryResult(\(resultType))"
        }
    }
}
