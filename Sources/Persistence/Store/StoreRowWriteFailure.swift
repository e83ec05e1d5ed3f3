/// A row of a save that SQLite refused for a uniqueness constraint; the transaction is rolled back by the time the
/// context sees it, and the context reports it as Core Data's constraint conflict (133021).
struct StoreRowWriteFailure: Error {
    let item: StoreSaveRequest.Item
    /// The key the row was being written under, or nil.
    let primaryKey: Int64?
    let error: SQLiteError
}
