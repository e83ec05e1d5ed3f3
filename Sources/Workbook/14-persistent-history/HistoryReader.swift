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

    /// Guards `lastToken`, only for a moment: ``token`` may be read on any thread, the main one included. Hold no
    /// lock while waiting for a queue: `catchUp()` may be called on the main thread while another call, on a
    /// background queue, waits for the main queue to merge.
    private let tokenLock = NSLock()
    private var lastToken: PersistentHistoryToken?

    /// A reader for `author`, going on from the token kept at `tokenURL` by an earlier launch, if any.
    public init(container: PersistentContainer, author: String, tokenURL: URL) {
        self.container = container
        self.author = author
        self.tokenURL = tokenURL
        // A token that cannot be read is no token: the reader then reads the whole history, which is safe.
        lastToken = (try? Self.restoredToken(at: tokenURL)) ?? nil
    }

    /// The token an earlier reader kept at `url`, archived as Core Data's tokens are (`NSKeyedArchiver`, secure
    /// coding); `nil` when there is none yet.
    public static func restoredToken(at url: URL) throws -> PersistentHistoryToken? {
        throw KataNotDone(lesson: 14)
    }

    /// Reads the history after the token, merges the transactions of other authors into the view context on its
    /// queue, and keeps the newest token — its own transactions' included, so they are not read again. When the
    /// token has expired (134301), re-reads what the view context holds instead and starts over from the newest
    /// token. Any queue may call it, the main one included, and two callers may call it at once: each transaction
    /// is merged once, and neither caller waits for the other forever.
    public func catchUp() throws -> HistoryCatchUp {
        throw KataNotDone(lesson: 14)
    }
}
