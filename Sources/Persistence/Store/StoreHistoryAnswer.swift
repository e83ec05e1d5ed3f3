import Foundation

/// What the store answers a ``StoreHistoryQuery``: the selected transactions and their changes as plain values, in
/// the order asked for. The context makes the history objects an app sees from it.
struct StoreHistoryAnswer {
    /// One transaction, as `ATRANSACTION` holds it.
    struct Transaction {
        let number: Int64
        let timestamp: Date
        let author: String?
        let bundleID: String
        let contextName: String?
        let processID: String
    }

    /// One change, as `ACHANGE` holds it, with its object's ID and what the model says about its columns.
    struct Change {
        let id: Int64
        let transactionNumber: Int64
        /// ``PersistentHistoryChangeType``'s raw value.
        let kind: Int64
        let entity: EntityDescription
        let objectID: ManagedObjectID
        /// For an update: the property indexes of the changed columns, ascending.
        let updatedProperties: [Int]?
        /// For a deletion of an entity with preserved attributes: their names and stored values (nil ones left out).
        let tombstone: [(name: String, value: PersistentValue)]?

        /// This change followed by `later`, a change of the same object in the same transaction, as one change: an
        /// insertion stays an insertion whatever else is written to the new row, updates add up, a deletion ends
        /// everything (an object deleted after its insertion in one transaction cannot happen in a save or a batch
        /// request; it would read as deleted).
        func folding(_ later: Change) -> Change {
            switch (kind, later.kind) {
            case (PersistentHistoryChangeType.insert.rawValue, PersistentHistoryChangeType.update.rawValue):
                return self
            case (PersistentHistoryChangeType.update.rawValue, PersistentHistoryChangeType.update.rawValue):
                let merged = Set(updatedProperties ?? []).union(later.updatedProperties ?? []).sorted()
                return Change(id: id, transactionNumber: transactionNumber, kind: kind, entity: entity, objectID: objectID,
                              updatedProperties: merged, tombstone: nil)
            default:
                return Change(id: id, transactionNumber: transactionNumber, kind: later.kind, entity: entity,
                              objectID: objectID, updatedProperties: later.updatedProperties, tombstone: later.tombstone)
            }
        }
    }

    let storeIdentifier: String
    /// The selected transactions' numbers, in the order asked for (every query reads them).
    var numbers: [Int64] = []
    /// With ``StoreHistoryQuery/readsTransactions``: the transactions, in the same order.
    var transactions: [Transaction] = []
    /// With ``StoreHistoryQuery/readsChanges``: their changes, by transaction number then change.
    var changes: [Change] = []
    /// With ``StoreHistoryQuery/countsChanges`` or ``StoreHistoryQuery/readsChanges``: how many changes (one per
    /// object and transaction).
    var changeCount = 0
}
