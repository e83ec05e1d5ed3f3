/// The outcome of a ``BatchDeleteRequest`` (Core Data's `NSBatchDeleteResult`). A request that fails throws
/// instead, so a result always means everything was deleted.
public struct BatchDeleteResult: PersistentStoreResult, Sendable, CustomStringConvertible {
    /// The request's result type, which decides ``result``.
    public let resultType: BatchDeleteRequestResultType
    /// The number of objects deleted, those deleted by cascade included (known whatever the result type).
    public let count: Int
    /// With ``BatchDeleteRequestResultType/resultTypeObjectIDs``: the IDs of every deleted object, the request's
    /// own objects first, then those deleted by cascade (nearest first).
    public let objectIDs: [ManagedObjectID]?

    /// Always `true`: a failed request throws.
    public var status: Bool { true }

    /// Core Data's untyped result: `true` (`Bool`), the count (`Int`) or the IDs (`[ManagedObjectID]`),
    /// according to ``resultType``.
    public var result: Any {
        switch resultType {
        case .resultTypeStatusOnly: return status
        case .resultTypeCount: return count
        case .resultTypeObjectIDs: return objectIDs ?? []
        }
    }

    public var description: String { "BatchDeleteResult(\(count) deleted)" }
}
