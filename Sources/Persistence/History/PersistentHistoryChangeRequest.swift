import Foundation

/// A request to read or purge a store's persistent history (Core Data's `NSPersistentHistoryChangeRequest`), run
/// with `context.execute(_:)`.
///
/// The store records history when it is loaded with `NSPersistentHistoryTrackingKey`:
///
/// ```swift
/// let description = PersistentStoreDescription(url: storeURL)
/// description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
/// ```
///
/// Every transaction is then recorded in the store's file, in the same SQLite transaction as the rows it changes: a
/// context's save (with its ``ManagedObjectContext/transactionAuthor`` and ``ManagedObjectContext/name``) and every
/// batch request, of any coordinator or process on the file. Read what happened since your last token, merge it,
/// keep the newest token:
///
/// ```swift
/// let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
/// let result = try context.execute(request)
/// for transaction in result.transactions ?? [] { … }
/// ```
///
/// and purge what every reader has read: `deleteHistory(before: oldestTokenStillNeeded)`. A reader whose token is
/// older than the purge gets 134301 (`CocoaError.Code.persistentHistoryTokenExpired`) and must read the store
/// afresh.
///
/// Turn history on from a store's first open: history only tells what happened while it was on. A store whose file
/// has history and that is opened without the option is read-only (saves fail with 513), as in Core Data, so that no
/// program writes without recording. History requests read the store's newest history, whatever snapshot the
/// executing context is pinned to.
///
/// A migration to another model version (``PersistentStoreDescription/shouldMigrateStoreAutomatically``) expires
/// the history recorded before it — what Core Data does with that history is undocumented —: readers whose tokens
/// are older get 134301 and read the store afresh, as after a purge.
public final class PersistentHistoryChangeRequest: PersistentStoreRequest, CustomStringConvertible {
    /// What ``PersistentHistoryResult/result`` holds (transactions with their changes by default).
    public var resultType: PersistentHistoryResultType = .transactionsAndChanges
    /// The token the request reads after, or purges before; `nil` for a request made from a date or a fetch request,
    /// and for a request of the whole history.
    public let token: PersistentHistoryToken?
    /// A fetch request that narrows what a fetch of history reads (Core Data's, settable since iOS 13): the one
    /// ``fetchHistory(withFetch:)`` was made with, or one set on a request made from a token, a date or a
    /// transaction, whose bound then holds as well.
    ///
    /// - On the transaction entity (``PersistentHistoryTransaction/fetchRequest``): the transactions its predicate
    ///   matches, each with all its changes, in its sort order, within its limit and offset. Its keys are `author`,
    ///   `bundleID`, `contextName`, `processID`, `timestamp`, `token` (compared with a token) and
    ///   `transactionNumber`. Apple's sample code leaves the app's own transactions out this way:
    ///
    ///   ```swift
    ///   let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
    ///   let others = PersistentHistoryTransaction.fetchRequest!
    ///   others.predicate = FetchPredicate(format: "%K != %@", "author", "app")
    ///   request.fetchRequest = others
    ///   ```
    ///
    /// - On the change entity (``PersistentHistoryChange/fetchRequest``, or a request on
    ///   ``PersistentHistoryChange/entityDescription(with:)``): the changes its predicate matches, and the transactions
    ///   that hold at least one, each with only those changes. Its keys are `changedEntity` (compared with an entity:
    ///   that entity's objects, not its subentities'), `changedObjectID` (`==`, `!=` or `IN` object IDs), `changedID`
    ///   (the object's key in its table) and `changeType` (a ``PersistentHistoryChangeType`` raw value); a change
    ///   is matched as the history reports it, one per object and transaction. It takes no sort descriptors, limit
    ///   or offset.
    ///
    /// The store runs the predicate in SQL. A key the entity does not have fails the request with 134060, as does a
    /// fetch request on a purge. Apple documents neither the entities' keys nor how a change request narrows the
    /// transactions; this follows what Core Data has been seen to do, and refuses what it has not.
    public var fetchRequest: FetchRequest<any FetchRequestResult>?

    /// ``PersistentStoreRequestType/historyChangeRequestType``.
    public var requestType: PersistentStoreRequestType { .historyChangeRequestType }

    private enum Operation {
        case fetchAfterToken, fetchAfterDate(Date), fetchMatching, deleteBeforeToken, deleteBeforeDate(Date)
    }

    private let operation: Operation

    private init(_ operation: Operation, token: PersistentHistoryToken? = nil,
                 fetchRequest: FetchRequest<any FetchRequestResult>? = nil) {
        self.operation = operation
        self.token = token
        self.fetchRequest = fetchRequest
    }

    // MARK: - Fetching

    /// Reads the transactions after `token`'s, oldest first; `nil` reads the whole history.
    public static func fetchHistory(after token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.fetchAfterToken, token: token)
    }

    /// Reads the transactions made after `date`, oldest first.
    public static func fetchHistory(after date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.fetchAfterDate(date))
    }

    /// Reads the transactions after `transaction`; `nil` reads the whole history.
    public static func fetchHistory(after transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest {
        fetchHistory(after: transaction?.token)
    }

    /// Reads the history `fetchRequest` selects (see ``fetchRequest``): a request on the transaction entity
    /// (``PersistentHistoryTransaction/fetchRequest``), with its sort descriptors (by number by default), limit and
    /// offset, or on the change entity (``PersistentHistoryChange/fetchRequest``).
    public static func fetchHistory(withFetch fetchRequest: FetchRequest<any FetchRequestResult>) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.fetchMatching, fetchRequest: fetchRequest)
    }

    // MARK: - Purging

    /// Deletes the transactions before `token`'s (the token's own is kept, so reading after the token still
    /// works); `nil` deletes the whole history. What Core Data does with a nil token is undocumented.
    public static func deleteHistory(before token: PersistentHistoryToken?) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.deleteBeforeToken, token: token)
    }

    /// Deletes the transactions made before `date`.
    public static func deleteHistory(before date: Date) -> PersistentHistoryChangeRequest {
        PersistentHistoryChangeRequest(.deleteBeforeDate(date))
    }

    /// Deletes the transactions before `transaction` (keeping it); `nil` deletes the whole history.
    public static func deleteHistory(before transaction: PersistentHistoryTransaction?) -> PersistentHistoryChangeRequest {
        deleteHistory(before: transaction?.token)
    }

    /// What the request reads or deletes.
    public var description: String {
        switch operation {
        case .fetchAfterToken:
            return "PersistentHistoryChangeRequest(fetch after \(token.map(String.init(describing:)) ?? "the start")\(narrowing))"
        case .fetchAfterDate(let date): return "PersistentHistoryChangeRequest(fetch after \(date)\(narrowing))"
        case .fetchMatching: return "PersistentHistoryChangeRequest(fetch \(fetchRequest.map(String.init(describing:)) ?? ""))"
        case .deleteBeforeToken: return "PersistentHistoryChangeRequest(delete before \(token.map(String.init(describing:)) ?? "the end"))"
        case .deleteBeforeDate(let date): return "PersistentHistoryChangeRequest(delete before \(date))"
        }
    }

    /// The fetch request set on a request made from a token or a date, for ``description``.
    private var narrowing: String {
        fetchRequest.map { " matching \($0)" } ?? ""
    }

    // MARK: - Planning

    /// The request in the store's terms, for the store whose tables `schema` describes (an entity compared with
    /// `changedEntity` is known there by its number).
    /// - Throws: error 134060 for a fetch request the history entities cannot answer (see ``fetchRequest``), for
    ///   ``fetchHistory(withFetch:)`` left without one, and for a purge given one.
    func storeQuery(schema: StoreSchema) throws -> StoreHistoryQuery {
        let selection: StoreHistoryQuery.Selection
        switch operation {
        case .fetchAfterToken:
            selection = token.map { .afterToken(storeIdentifier: $0.storeIdentifier, transactionNumber: $0.transactionNumber) } ?? .all
        case .fetchAfterDate(let date):
            selection = .afterDate(date)
        case .fetchMatching:
            guard fetchRequest != nil else {
                throw PersistenceError(.coreData, "fetchHistory(withFetch:) reads what its fetch request selects, and its fetchRequest was set to nil: set a fetch request on the transaction or change entity, or use fetchHistory(after:).")
            }
            selection = .all
        case .deleteBeforeToken:
            selection = token.map { .beforeToken(storeIdentifier: $0.storeIdentifier, transactionNumber: $0.transactionNumber) } ?? .all
        case .deleteBeforeDate(let date):
            selection = .beforeDate(date)
        }
        let deletes: Bool
        switch operation {
        case .deleteBeforeToken, .deleteBeforeDate: deletes = true
        case .fetchAfterToken, .fetchAfterDate, .fetchMatching: deletes = false
        }
        // Apple documents the fetch request "when retrieving history" only: a purge that would honour it, or one
        // that would ignore it, would both be guesses, so it is refused.
        if deletes, fetchRequest != nil {
            throw PersistenceError(.coreData, "A purge (deleteHistory(before:)) takes no fetch request: Core Data documents fetchRequest for reading history only. Set it to nil; nothing was deleted.")
        }
        let filter = try fetchRequest.map { try PersistentHistoryFilter.filter(for: $0, schema: schema) }
        // A purge reads nothing back: it answers with its status, or with how many transactions it deleted.
        return StoreHistoryQuery(selection: selection, filter: filter, deletes: deletes,
                                 readsTransactions: !deletes && (resultType == .transactionsOnly || resultType == .transactionsAndChanges),
                                 readsChanges: !deletes && [.transactionsAndChanges, .changesOnly, .objectIDs].contains(resultType),
                                 countsChanges: !deletes && resultType == .count)
    }

    /// The result of the store's answer, as the result type asks.
    func result(from answer: StoreHistoryAnswer) -> PersistentHistoryResult {
        let result: Any?
        switch operation {
        case .deleteBeforeToken, .deleteBeforeDate:
            return PersistentHistoryResult(resultType: resultType, result: resultType == .count ? answer.numbers.count : true)
        case .fetchAfterToken, .fetchAfterDate, .fetchMatching:
            break
        }
        switch resultType {
        case .statusOnly:
            result = true
        case .count:
            result = answer.changeCount
        case .objectIDs:
            var seen = Set<ManagedObjectID>()
            result = answer.changes.compactMap { seen.insert($0.objectID).inserted ? $0.objectID : nil }
        case .changesOnly:
            result = answer.changes.map(PersistentHistoryChange.init)
        case .transactionsOnly:
            result = answer.transactions.map { PersistentHistoryTransaction($0, storeIdentifier: answer.storeIdentifier, changes: nil) }
        case .transactionsAndChanges:
            var changes: [Int64: [PersistentHistoryChange]] = [:]
            for change in answer.changes { changes[change.transactionNumber, default: []].append(PersistentHistoryChange(change)) }
            result = answer.transactions.map {
                PersistentHistoryTransaction($0, storeIdentifier: answer.storeIdentifier, changes: changes[$0.number] ?? [])
            }
        }
        return PersistentHistoryResult(resultType: resultType, result: result)
    }
}
