import Foundation
import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public final class HistoryReader: @unchecked Sendable {
    public let container: PersistentContainer
    public let author: String
    public let tokenURL: URL

    public var token: PersistentHistoryToken? { tokenLock.withLock { lastToken } }

    /// Only the "catch-up-lock-held" decoy takes it: one catch-up at a time, held while it waits for the main queue.
    private let catchingUp = NSLock()
    /// Only the "catch-up-on-serial-queue" decoy uses it.
    private let line = DispatchQueue(label: "history reader")
    private let tokenLock = NSLock()
    private var lastToken: PersistentHistoryToken?
    private let historyContext: ManagedObjectContext

    public init(container: PersistentContainer, author: String, tokenURL: URL) {
        self.container = container
        self.author = author
        self.tokenURL = tokenURL
        historyContext = container.newBackgroundContext()
        historyContext.name = "history reader"
        lastToken = (try? Self.restoredToken(at: tokenURL)) ?? nil
    }

    public static func restoredToken(at url: URL) throws -> PersistentHistoryToken? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try NSKeyedUnarchiver.unarchivedObject(ofClass: PersistentHistoryToken.self, from: Data(contentsOf: url))
    }

    public func catchUp() throws -> HistoryCatchUp {
        if Decoy.isActive("catch-up-lock-held") {
            // The lesson's first design: a lock around the whole catch-up, merge included. A main-thread caller
            // waits for the lock while its holder waits for the main queue: both hang.
            return try catchingUp.withLock { try catchUpInOneGo() }
        }
        if Decoy.isActive("token-kept-before-merge") {
            return try catchUpInOneGo()
        }
        if Decoy.isActive("catch-up-on-serial-queue") {
            // The example's serial queue, kept for a catch-up its caller waits for: a caller on the main thread
            // waits for the queue while the catch-up on it waits for the main queue.
            return try line.sync { try catchUpInOneGo() }
        }
        let context = historyContext
        let after = token
        let transactions: [PersistentHistoryTransaction]
        do {
            transactions = try read(after: after, in: context)
        } catch where Self.isExpiredToken(error) && !Decoy.isActive("expired-token-rethrown") {
            return try startOver()
        } catch where Decoy.isActive("any-error-starts-over") {
            // Every failure taken for an expired token: the bookmark is dropped for history nobody merged.
            return try startOver()
        }
        guard !transactions.isEmpty else { return .merged(0) }
        let viewContext = container.viewContext
        if Decoy.isActive("catch-up-merges-off-queue") {
            // Merged on whatever queue called catchUp(): the main-queue view context used off its queue.
            return try decide(transactions, after: after, viewContext: viewContext)
        }
        return try viewContext.performAndWait { try decide(transactions, after: after, viewContext: viewContext) }
    }

    /// Reads the history after `after`; on the view context's queue for one decoy.
    private func read(after: PersistentHistoryToken?, in context: ManagedObjectContext) throws -> [PersistentHistoryTransaction] {
        // The history read on the view context's queue, from a background caller: the main thread waits for SQL.
        let reading = Decoy.isActive("history-read-on-view-context") ? container.viewContext : context
        return try reading.performAndWait {
            let request = PersistentHistoryChangeRequest.fetchHistory(after: after)
            let result = try reading.execute(request) as? PersistentHistoryResult
            return result?.result as? [PersistentHistoryTransaction] ?? []
        }
    }

    /// On the view context's queue: what is still unread, merged, then the token moved.
    private func decide(_ transactions: [PersistentHistoryTransaction], after: PersistentHistoryToken?,
                        viewContext: ManagedObjectContext) throws -> HistoryCatchUp {
        let unread = Self.unread(transactions, readAfter: after, tokenNow: token)
        guard let newest = unread.last else { return .merged(0) }
        // Without the author filter, the app's own saves are merged back into the context that made them.
        let others = Decoy.isActive("merge-own-author") ? Array(unread) : unread.filter { $0.author != author }
        merge(others, into: viewContext)
        if Decoy.isActive("token-from-store") {
            // The store's newest token, taken after the read: a transaction saved since then is never read.
            try keep(container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil))
        } else if !Decoy.isActive("token-not-advanced") {
            try keep(newest.token)
        }
        return .merged(others.count)
    }

    private func merge(_ others: [PersistentHistoryTransaction], into viewContext: ManagedObjectContext) {
        if Decoy.isActive("merge-into-reading-context") {
            // Merged into the background context that read the history, which shows nothing on screen.
            let context = historyContext
            context.performAndWait {
                for transaction in others {
                    context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                }
            }
        } else if Decoy.isActive("refetch-everything") {
            // Everything read again instead of merging what changed: nothing says which objects changed.
            if !others.isEmpty {
                viewContext.refreshAllObjects()
                _ = try? viewContext.fetch(TodoItem.fetchRequest())
            }
        } else {
            for transaction in others {
                viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
        }
    }

    /// Read, keep, merge, in one go off the main queue (the lock, if any, is the caller's).
    private func catchUpInOneGo() throws -> HistoryCatchUp {
        let after = token
        let transactions: [PersistentHistoryTransaction]
        do {
            transactions = try read(after: after, in: historyContext)
        } catch where Self.isExpiredToken(error) {
            return try startOver()
        }
        guard let newest = transactions.last else { return .merged(0) }
        let others = transactions.filter { $0.author != author }
        if Decoy.isActive("token-kept-before-merge") {
            // The token moves before the merge has happened: a caller that reads it meanwhile skips what is not
            // on screen yet.
            try keep(newest.token)
        }
        let viewContext = container.viewContext
        viewContext.performAndWait { merge(others, into: viewContext) }
        if !Decoy.isActive("token-kept-before-merge") {
            try keep(newest.token)
        }
        return .merged(others.count)
    }

    private static func unread(_ transactions: [PersistentHistoryTransaction], readAfter: PersistentHistoryToken?,
                               tokenNow: PersistentHistoryToken?) -> ArraySlice<PersistentHistoryTransaction> {
        if tokenNow == readAfter { return transactions[...] }
        guard let reached = transactions.firstIndex(where: { $0.token == tokenNow }) else { return [] }
        return transactions[(reached + 1)...]
    }

    private func startOver() throws -> HistoryCatchUp {
        var newest = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        let viewContext = container.viewContext
        try viewContext.performAndWait {
            if !Decoy.isActive("expired-without-refresh") {
                viewContext.refreshAllObjects()
            }
            if Decoy.isActive("start-over-token-after-refresh") {
                // The newest token taken once the view context shows the store: a write made during the re-read
                // is already behind it, and never read.
                newest = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
            }
            // Keeping the expired token: every later catch-up runs into 134301 again.
            if !Decoy.isActive("expired-token-kept") {
                try keep(newest)
            }
        }
        return .startedOver
    }

    private func keep(_ token: PersistentHistoryToken?) throws {
        // In memory only: the next launch starts from nothing and reads (and merges) the whole history again.
        if let token, !Decoy.isActive("token-in-memory") {
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
