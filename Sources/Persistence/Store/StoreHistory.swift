/// A store's persistent history: its schema, and whether this store records transactions in it.
///
/// A store has one when its file has history tables, whether or not it was opened with
/// `NSPersistentHistoryTrackingKey`: history can be read either way. Only a store opened with the key records;
/// one opened without it on a file that has history is read-only (see ``SQLiteStore/checkWritable()``), as Core
/// Data makes it, because its saves would leave holes in the history other readers rely on.
final class StoreHistory {
    let schema: StoreHistorySchema
    /// Opened with tracking on and writable: the triggers are installed and every write is recorded.
    let isRecording: Bool
    /// Opened writable without tracking on a file that has history: every write is refused.
    let forbidsWriting: Bool
    /// The number of the transaction being written, between its first statement and its commit.
    var currentTransaction: Int64?

    init(schema: StoreHistorySchema, isRecording: Bool, forbidsWriting: Bool) {
        self.schema = schema
        self.isRecording = isRecording
        self.forbidsWriting = forbidsWriting
    }

    /// The `Z_METADATA` key under which the highest purged transaction number is kept.
    static let purgedThroughKey = "historyPurgedThrough"
}
