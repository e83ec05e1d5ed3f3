import Foundation

/// A history request in the store's terms: which transactions, and whether to read or delete them (made by
/// `PersistentHistoryChangeRequest`, run by `SQLiteStore.executeHistory(_:)`).
struct StoreHistoryQuery {
    enum Selection {
        /// Every transaction.
        case all
        /// Transactions after a token's: checked first, as the token may have expired.
        case afterToken(storeIdentifier: String, transactionNumber: Int64)
        /// Transactions made after a date.
        case afterDate(Date)
        /// Transactions before a token's, the token's own kept.
        case beforeToken(storeIdentifier: String, transactionNumber: Int64)
        /// Transactions made before a date.
        case beforeDate(Date)
    }

    /// A fetch request on a history entity, compiled against ``PersistentHistoryModel``: it narrows a read further.
    enum Filter {
        /// Keeps the selected transactions it matches, in its order and within its limit and offset. Its columns are
        /// the transaction entity's (`ZAUTHOR`, `ZTOKEN`…) on the table `t0`.
        case transactions(StoreQuery)
        /// Keeps the changes it matches (each object's change in a transaction, as the history reports it) and the
        /// transactions that hold one. Its columns are the change entity's (`ZCHANGEDENTITY`…) on the table `t0`.
        case changes(StoreQuery)
    }

    let selection: Selection
    /// Only for reads.
    var filter: Filter? = nil
    /// Delete the selected transactions (and their changes) instead of only reading them.
    let deletes: Bool
    /// What the answer must hold besides the selected transactions' numbers.
    let readsTransactions: Bool
    let readsChanges: Bool
    let countsChanges: Bool
}
