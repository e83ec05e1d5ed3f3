/// The outcome of a ``BatchInsertRequest`` (Core Data's `NSBatchInsertResult`), as `execute(_:)` returns it typed
/// as ``PersistentStoreResult``: cast it, then cast its ``result``. A request that fails throws instead, so a
/// result always means every row was written.
public final class BatchInsertResult: PersistentStoreResult {
    /// The request's result type, which decides what ``result`` holds.
    public let resultType: BatchInsertRequestResultType
    /// The number of rows written: inserted, or updated under a uniqueness constraint (known whatever the
    /// result type).
    let count: Int
    /// With ``BatchInsertRequestResultType/objectIDs``: the ID of the row each dictionary wrote, in order (an
    /// updated row's own ID under a uniqueness constraint).
    let objectIDs: [ManagedObjectID]?

    init(resultType: BatchInsertRequestResultType, count: Int, objectIDs: [ManagedObjectID]?) {
        self.resultType = resultType
        self.count = count
        self.objectIDs = objectIDs
    }

    /// What the request returned, as its ``resultType`` says: `true` (a `Bool`) for
    /// ``BatchInsertRequestResultType/statusOnly``, the number of rows written (an `Int`) for
    /// ``BatchInsertRequestResultType/count``, their IDs (`[ManagedObjectID]`) for
    /// ``BatchInsertRequestResultType/objectIDs``. Optional and untyped as in Core Data; cast it.
    public var result: Any? {
        switch resultType {
        case .statusOnly: return true
        case .count: return count
        case .objectIDs: return objectIDs ?? []
        }
    }

    public override var description: String { "BatchInsertResult(\(count) written)" }
}
