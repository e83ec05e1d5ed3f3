/// What one catch-up of the app's history reader (`HistoryReader.catchUp()`) did.
public enum HistoryCatchUp: Equatable, Sendable {
    /// The reader read on from its token and merged this many transactions of other authors into the view context
    /// (its own author's were read and skipped).
    case merged(Int)
    /// The reader's token had expired (error 134301: the history after it was purged), so it could not tell what
    /// changed: it re-read the objects the view context holds and moved its token to the newest transaction. Lists
    /// on screen should fetch again.
    case startedOver
}
