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
        /// Transactions a fetch request on the transaction entity matches (compiled against ``PersistentHistoryModel``).
        case matching(StoreQuery)
        /// Transactions before a token's, the token's own kept.
        case beforeToken(storeIdentifier: String, transactionNumber: Int64)
        /// Transactions made before a date.
        case beforeDate(Date)
    }

    let selection: Selection
    /// Delete the selected transactions (and their changes) instead of only reading them.
    let deletes: Bool
    /// What the answer must hold besides the selected transactions' numbers.
    let readsTransactions: Bool
    let readsChanges: Bool
    let countsChanges: Bool
}
