/// The outcome of a ``BatchInsertRequest`` (Core Data's `NSBatchInsertResult`). A request that fails throws
/// instead, so a result always means every row was written.
public struct BatchInsertResult: PersistentStoreResult, Sendable, CustomStringConvertible {
    /// The request's result type, which decides ``result``.
    public let resultType: BatchInsertRequestResultType
    /// The number of rows written: inserted, or updated under a uniqueness constraint (known whatever the
    /// result type).
    public let count: Int
    /// With ``BatchInsertRequestResultType/objectIDs``: the ID of the row each dictionary wrote, in order (an
    /// updated row's own ID under a uniqueness constraint).
    public let objectIDs: [ManagedObjectID]?

    /// Always `true`: a failed request throws.
    public var status: Bool { true }

    /// Core Data's untyped result: `true` (`Bool`), the count (`Int`) or the IDs (`[ManagedObjectID]`),
    /// according to ``resultType``.
    public var result: Any {
        switch resultType {
        case .statusOnly: return status
        case .count: return count
        case .objectIDs: return objectIDs ?? []
        }
    }

    public var description: String { "BatchInsertResult(\(count) written)" }
}
