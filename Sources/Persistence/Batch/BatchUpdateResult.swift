/// The outcome of a ``BatchUpdateRequest`` (Core Data's `NSBatchUpdateResult`). A request that fails throws
/// instead, so a result always means every matching row was updated.
public struct BatchUpdateResult: PersistentStoreResult, Sendable, CustomStringConvertible {
    /// The request's result type, which decides ``result``.
    public let resultType: BatchUpdateRequestResultType
    /// The number of objects updated (known whatever the result type).
    public let count: Int
    /// The IDs of the updated objects, with ``BatchUpdateRequestResultType/updatedObjectIDsResultType`` only.
    public let objectIDs: [ManagedObjectID]?

    /// Always `true`: a failed request throws.
    public var status: Bool { true }

    /// Core Data's untyped result: `true` (`Bool`), the count (`Int`) or the IDs (`[ManagedObjectID]`),
    /// according to ``resultType``.
    public var result: Any {
        switch resultType {
        case .statusOnlyResultType: return status
        case .updatedObjectsCountResultType: return count
        case .updatedObjectIDsResultType: return objectIDs ?? []
        }
    }

    public var description: String { "BatchUpdateResult(\(count) updated)" }
}
