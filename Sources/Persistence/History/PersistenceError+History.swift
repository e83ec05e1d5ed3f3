extension PersistenceError.Code {
    /// A history request's token is older than the history the store still has: the transactions after it were
    /// purged (`PersistentHistoryChangeRequest.deleteHistory(before:)`), so the reader
    /// has missed changes. Core Data's `NSPersistentHistoryTokenExpiredError`, 134301. Read the store afresh (refetch
    /// what you show), then go on from the newest token.
    public static let persistentHistoryTokenExpired = PersistenceError.Code(rawValue: 134_301)
}

#if !canImport(CoreData)
/// A persistent history token has expired (``PersistenceError/Code/persistentHistoryTokenExpired``, 134301).
public let NSPersistentHistoryTokenExpiredError = PersistenceError.Code.persistentHistoryTokenExpired.rawValue
#endif
