import Foundation
import KataSupport
import Persistence

/// Deletes the persistent history every reader of the store has read. The app and its widget each keep a token
/// (see ``HistoryReader``); history older than the oldest of them is read by everyone and only takes up space.
public struct HistoryPurger {
    public let container: PersistentContainer
    /// Where each reader of the store keeps its token.
    public let readerTokenURLs: [URL]

    public init(container: PersistentContainer, readerTokenURLs: [URL]) {
        self.container = container
        self.readerTokenURLs = readerTokenURLs
    }

    /// Deletes the history before the oldest reader's token and returns that token; `nil` when nothing may go —
    /// a reader that has no token yet needs the whole history.
    @discardableResult
    public func purge() throws -> PersistentHistoryToken? {
        var tokens: [PersistentHistoryToken] = []
        for url in readerTokenURLs {
            guard let token = try HistoryReader.restoredToken(at: url) else { return nil }
            tokens.append(token)
        }
        guard !tokens.isEmpty else { return nil }
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            // Core Data's tokens are not Comparable: the oldest is the one the history itself lists first.
            let request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            request.resultType = .transactionsOnly
            let result = try context.execute(request) as? PersistentHistoryResult
            let history = result?.result as? [PersistentHistoryTransaction] ?? []
            guard let oldest = history.first(where: { tokens.contains($0.token) })?.token else { return nil }
            try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: oldest))
            return oldest
        }
    }
}
