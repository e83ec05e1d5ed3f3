import Foundation

/// One transaction of a store's persistent history: a context's save or a batch request, by any coordinator or
/// process on the store's file — when it was made, by whom, and which objects it changed (Core Data's
/// `NSPersistentHistoryTransaction`).
///
/// ```swift
/// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let transactions = try context.execute(request).result as? [PersistentHistoryTransaction] ?? []
/// for transaction in transactions where transaction.author != "app" {
///     viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
///     lastToken = transaction.token
/// }
/// ```
public final class PersistentHistoryTransaction: @unchecked Sendable, CustomStringConvertible {
    /// When the transaction began.
    public let timestamp: Date
    /// The changes of the transaction, in the order they were recorded; `nil` when fetched with
    /// ``PersistentHistoryResultType/transactionsOnly``.
    public let changes: [PersistentHistoryChange]?
    /// The transaction's number: it increases with every transaction of the store, and is never used again, even
    /// once purged.
    public let transactionNumber: Int64
    /// The identifier of the store the transaction was written to.
    public let storeID: String
    /// The bundle of the program that wrote it: its bundle identifier, or its process name where it has none.
    public let bundleID: String
    /// The process that wrote it: its process identifier, as text.
    public let processID: String
    /// The name of the context that wrote it (``ManagedObjectContext/name``), if it had one.
    public let contextName: String?
    /// The context's ``ManagedObjectContext/transactionAuthor`` when it saved or ran the request, if it had one: the
    /// way to tell your own transactions from the others'.
    public let author: String?
    /// The token of this transaction: fetch after it to read what came next.
    public let token: PersistentHistoryToken

    init(_ transaction: StoreHistoryAnswer.Transaction, storeIdentifier: String, changes: [PersistentHistoryChange]?) {
        timestamp = transaction.timestamp
        self.changes = changes
        transactionNumber = transaction.number
        storeID = storeIdentifier
        bundleID = transaction.bundleID
        processID = transaction.processID
        contextName = transaction.contextName
        author = transaction.author
        token = PersistentHistoryToken(storeIdentifier: storeIdentifier, transactionNumber: transaction.number)
        for change in changes ?? [] { change.attach(to: self) }
    }

    /// A did-save notification of the transaction's object IDs
    /// (``ManagedObjectContext/didSaveObjectIDsNotification``, with sets of IDs under the `…_objectIDs` keys), for
    /// ``ManagedObjectContext/mergeChanges(fromContextDidSave:)``: merged into a context, the transaction's inserted
    /// objects are registered as faults, its updated objects are refreshed and its deleted objects leave the
    /// context, as for another context's save. Call it on a transaction fetched with its changes; one fetched with
    /// ``PersistentHistoryResultType/transactionsOnly`` gives an empty notification.
    public func objectIDNotification() -> Notification {
        var inserted = Set<ManagedObjectID>()
        var updated = Set<ManagedObjectID>()
        var deleted = Set<ManagedObjectID>()
        for change in changes ?? [] {
            switch change.changeType {
            case .insert: inserted.insert(change.changedObjectID)
            case .update: updated.insert(change.changedObjectID)
            case .delete: deleted.insert(change.changedObjectID)
            }
        }
        return Notification(name: ManagedObjectContext.didSaveObjectIDsNotification, object: nil, userInfo: [
            ManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue: inserted,
            ManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue: updated,
            ManagedObjectContext.NotificationKey.deletedObjectIDs.rawValue: deleted,
        ])
    }

    /// The entity of transactions, for a fetch request that filters history
    /// (``PersistentHistoryChangeRequest/fetchRequest``): its attributes are `timestamp`, `author`, `bundleID`,
    /// `contextName`, `processID`, `token` (compared with a ``PersistentHistoryToken``) and `transactionNumber`.
    public static var entityDescription: EntityDescription? { PersistentHistoryModel.transactionEntity }

    /// The entity of transactions (``entityDescription``); every context's is the same.
    public static func entityDescription(with context: ManagedObjectContext) -> EntityDescription? { entityDescription }

    /// A new fetch request on the transaction entity, to narrow a history request with
    /// (``PersistentHistoryChangeRequest/fetchRequest``) or to make one from
    /// (``PersistentHistoryChangeRequest/fetchHistory(withFetch:)``):
    ///
    /// ```swift
    /// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
    /// let fetch = PersistentHistoryTransaction.fetchRequest!
    /// fetch.predicate = FetchPredicate(format: "author != %@", "app")
    /// request.fetchRequest = fetch
    /// ```
    ///
    /// Typed as Core Data's: optional, and of `any FetchRequestResult` (run it through a history request, not a
    /// context's `fetch(_:)`); it is never `nil` here.
    public static var fetchRequest: FetchRequest<any FetchRequestResult>? {
        let request = FetchRequest<any FetchRequestResult>()
        request.entity = PersistentHistoryModel.transactionEntity
        return request
    }

    /// The transaction's number, author, context and how many changes it holds.
    public var description: String {
        "<PersistentHistoryTransaction \(transactionNumber) author: \(author ?? "nil") context: \(contextName ?? "nil")"
            + (changes.map { " \($0.count) change(s)" } ?? "") + ">"
    }
}
