/// What `ManagedObjectContext.execute(_:)` returns (Core Data's `NSPersistentStoreResult`): the abstract base of
/// ``BatchUpdateResult``, ``BatchDeleteResult``, ``BatchInsertResult``, ``PersistentHistoryResult`` and
/// ``PersistentStoreAsynchronousResult`` (whose ``AsynchronousFetchResult`` an asynchronous fetch returns).
///
/// As in Core Data, `execute(_:)` hands back this base class whatever the request: cast it to the result class of
/// the request you executed, then cast that result's `result` to what its `resultType` says.
///
/// ```swift
/// request.resultType = .resultTypeObjectIDs
/// let deleted = (try context.execute(request) as? BatchDeleteResult)?.result as? [ManagedObjectID] ?? []
/// ```
///
/// Only this library makes results; there is no public initializer.
public class PersistentStoreResult: CustomStringConvertible {
    init() {}

    /// The result class's name (each result class says more).
    public var description: String { "\(type(of: self))" }
}
