import Foundation
import KataSupport
import Persistence

/// The app's reader of the store's persistent history. Whoever wrote to the store — the widget in its own process,
/// the calendar import's batch insert, a background sync — ``catchUp()`` reads what happened after the reader's
/// token, merges what other authors did into the view context, and keeps the new token on disk for the next
/// launch. Call it when the store posts a remote-change notification, from any queue.
public final class HistoryReader: @unchecked Sendable {
    public let container: PersistentContainer
    /// The author whose transactions the reader skips: the view context has them already.
    public let author: String
    /// Where the token is kept between launches.
    public let tokenURL: URL

    /// The token of the last transaction read, `nil` before the first.
    public var token: PersistentHistoryToken? { tokenLock.withLock { lastToken } }

    /// Guards `lastToken`, only for a moment: ``token`` may be read on any thread, the main one included. No lock
    /// is held while a catch-up waits for a queue: the view context's queue is what puts catch-ups in order.
    private let tokenLock = NSLock()
    private var lastToken: PersistentHistoryToken?
    /// Where the history is read: off the main queue, which the view context needs for the merges.
    private let historyContext: ManagedObjectContext

    /// A reader for `author`, going on from the token kept at `tokenURL` by an earlier launch, if any.
    public init(container: PersistentContainer, author: String, tokenURL: URL) {
        self.container = container
        self.author = author
        self.tokenURL = tokenURL
        historyContext = container.newBackgroundContext()
        historyContext.name = "history reader"
        // A token that cannot be read is no token: the reader then reads the whole history, which is safe.
        lastToken = (try? Self.restoredToken(at: tokenURL)) ?? nil
    }

    /// The token an earlier reader kept at `url`, archived as Core Data's tokens are (`NSKeyedArchiver`, secure
    /// coding); `nil` when there is none yet.
    public static func restoredToken(at url: URL) throws -> PersistentHistoryToken? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try NSKeyedUnarchiver.unarchivedObject(ofClass: PersistentHistoryToken.self, from: Data(contentsOf: url))
    }

    /// Reads the history after the token, merges the transactions of other authors into the view context on its
    /// queue, and keeps the newest token — its own transactions' included, so they are not read again. When the
    /// token has expired (134301), re-reads what the view context holds instead and starts over from the newest
    /// token. Any queue may call it, the main one included, and two callers may call it at once: each transaction
    /// is merged once, and neither caller waits for the other forever.
    public func catchUp() throws -> HistoryCatchUp {
        let context = historyContext
        let after = token
        let transactions: [PersistentHistoryTransaction]
        do {
            // Read off the main queue, holding nothing: a caller on the main thread never waits for a lock that
            // a catch-up waiting for the main queue holds.
            transactions = try context.performAndWait {
                let request = PersistentHistoryChangeRequest.fetchHistory(after: after)
                let result = try context.execute(request) as? PersistentHistoryResult
                return result?.result as? [PersistentHistoryTransaction] ?? []
            }
        } catch where Self.isExpiredToken(error) {
            return try startOver()
        }
        guard !transactions.isEmpty else { return .merged(0) }
        let viewContext = container.viewContext
        // The view context's queue runs one block at a time: there each catch-up decides what is still unread,
        // merges it and only then moves the token, so two catch-ups never merge the same transaction.
        return try viewContext.performAndWait {
            let unread = Self.unread(transactions, readAfter: after, tokenNow: token)
            guard let newest = unread.last else { return .merged(0) }
            let others = unread.filter { $0.author != author }
            for transaction in others {
                viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
            try keep(newest.token)
            return .merged(others.count)
        }
    }

    /// What is left of `transactions`, read after `readAfter`, now that the token is `tokenNow`: another catch-up
    /// may have merged some or all of them meanwhile.
    private static func unread(_ transactions: [PersistentHistoryTransaction], readAfter: PersistentHistoryToken?,
                               tokenNow: PersistentHistoryToken?) -> ArraySlice<PersistentHistoryTransaction> {
        if tokenNow == readAfter { return transactions[...] }
        // Tokens are not ordered: where the token now is, the list itself says. Not in it, it is past them all.
        guard let reached = transactions.firstIndex(where: { $0.token == tokenNow }) else { return [] }
        return transactions[(reached + 1)...]
    }

    /// The history after the token is gone: nothing can tell what changed. Take the newest token first (what is
    /// written after it will be read next time), then re-read every object the view context holds.
    private func startOver() throws -> HistoryCatchUp {
        let newest = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        let viewContext = container.viewContext
        try viewContext.performAndWait {
            // On Apple's platforms, with the view context's stalenessInterval at 0 while its faults fill again:
            // the missed writes went past the row data its coordinator caches. Persistence has no such cache.
            viewContext.refreshAllObjects()
            try keep(newest)
        }
        return .startedOver
    }

    /// Writes `token` to ``tokenURL``, then makes it the reader's: a token that could not be written is not
    /// advanced, so the next catch-up reads the same transactions again rather than skip any.
    private func keep(_ token: PersistentHistoryToken?) throws {
        if let token {
            let data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
            try data.write(to: tokenURL, options: .atomic)
        }
        tokenLock.withLock { lastToken = token }
    }

    private static func isExpiredToken(_ error: any Error) -> Bool {
        let error = error as NSError
        return error.domain == NSCocoaErrorDomain && error.code == NSPersistentHistoryTokenExpiredError
    }
}
