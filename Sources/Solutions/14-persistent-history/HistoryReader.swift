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

    /// One catch-up at a time: two remote-change notifications close together must not read (and merge) the same
    /// transactions twice.
    private let catchingUp = NSLock()
    /// Guards `lastToken`, only for a moment: ``token`` may be read on any thread, the main one included, while a
    /// catch-up waits for the main queue to merge.
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
    /// token.
    public func catchUp() throws -> HistoryCatchUp {
        try catchingUp.withLock {
            let context = historyContext
            let after = token
            let transactions: [PersistentHistoryTransaction]
            do {
                transactions = try context.performAndWait {
                    let request = PersistentHistoryChangeRequest.fetchHistory(after: after)
                    let result = try context.execute(request) as? PersistentHistoryResult
                    return result?.result as? [PersistentHistoryTransaction] ?? []
                }
            } catch where Self.isExpiredToken(error) {
                return try startOver()
            }
            guard let newest = transactions.last else { return .merged(0) }
            let others = transactions.filter { $0.author != author }
            let viewContext = container.viewContext
            viewContext.performAndWait {
                for transaction in others {
                    viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                }
            }
            try keep(newest.token)
            return .merged(others.count)
        }
    }

    /// The history after the token is gone: nothing can tell what changed. Take the newest token first (what is
    /// written after it will be read next time), then re-read every object the view context holds.
    private func startOver() throws -> HistoryCatchUp {
        let newest = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        let viewContext = container.viewContext
        viewContext.performAndWait { viewContext.refreshAllObjects() }
        try keep(newest)
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
