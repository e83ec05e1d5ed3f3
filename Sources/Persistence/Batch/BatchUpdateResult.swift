/// The outcome of a ``BatchUpdateRequest`` (Core Data's `NSBatchUpdateResult`), as `execute(_:)` returns it typed
/// as ``PersistentStoreResult``: cast it, then cast its ``result``. A request that fails throws instead, so a
/// result always means every matching row was updated.
public final class BatchUpdateResult: PersistentStoreResult {
    /// The request's result type, which decides what ``result`` holds.
    public let resultType: BatchUpdateRequestResultType
    /// The number of objects updated (known whatever the result type).
    let count: Int
    /// The IDs of the updated objects, with ``BatchUpdateRequestResultType/updatedObjectIDsResultType`` only.
    let objectIDs: [ManagedObjectID]?

    init(resultType: BatchUpdateRequestResultType, count: Int, objectIDs: [ManagedObjectID]?) {
        self.resultType = resultType
        self.count = count
        self.objectIDs = objectIDs
    }

    /// What the request returned, as its ``resultType`` says: `true` (a `Bool`) for
    /// ``BatchUpdateRequestResultType/statusOnlyResultType``, the number updated (an `Int`) for
    /// ``BatchUpdateRequestResultType/updatedObjectsCountResultType``, the updated objects' IDs
    /// (`[ManagedObjectID]`) for ``BatchUpdateRequestResultType/updatedObjectIDsResultType``. Optional and untyped
    /// as in Core Data; cast it.
    public var result: Any? {
        switch resultType {
        case .statusOnlyResultType: return true
        case .updatedObjectsCountResultType: return count
        case .updatedObjectIDsResultType: return objectIDs ?? []
        }
    }

    public override var description: String { "BatchUpdateResult(\(count) updated)" }
}
