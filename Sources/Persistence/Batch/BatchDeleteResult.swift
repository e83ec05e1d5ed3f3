/// The outcome of a ``BatchDeleteRequest`` (Core Data's `NSBatchDeleteResult`), as `execute(_:)` returns it typed
/// as ``PersistentStoreResult``: cast it, then cast its ``result``. A request that fails throws instead, so a
/// result always means everything was deleted.
public final class BatchDeleteResult: PersistentStoreResult {
    /// The request's result type, which decides what ``result`` holds.
    public let resultType: BatchDeleteRequestResultType
    /// The number of objects deleted, those deleted by cascade included (known whatever the result type).
    let count: Int
    /// With ``BatchDeleteRequestResultType/resultTypeObjectIDs``: the IDs of every deleted object, the request's
    /// own objects first, then those deleted by cascade (nearest first).
    let objectIDs: [ManagedObjectID]?

    init(resultType: BatchDeleteRequestResultType, count: Int, objectIDs: [ManagedObjectID]?) {
        self.resultType = resultType
        self.count = count
        self.objectIDs = objectIDs
    }

    /// What the request returned, as its ``resultType`` says: `true` (a `Bool`) for
    /// ``BatchDeleteRequestResultType/resultTypeStatusOnly``, the number deleted (an `Int`) for
    /// ``BatchDeleteRequestResultType/resultTypeCount``, the deleted objects' IDs (`[ManagedObjectID]`) for
    /// ``BatchDeleteRequestResultType/resultTypeObjectIDs``. Optional and untyped as in Core Data; cast it.
    public var result: Any? {
        switch resultType {
        case .resultTypeStatusOnly: return true
        case .resultTypeCount: return count
        case .resultTypeObjectIDs: return objectIDs ?? []
        }
    }

    public override var description: String { "BatchDeleteResult(\(count) deleted)" }
}
