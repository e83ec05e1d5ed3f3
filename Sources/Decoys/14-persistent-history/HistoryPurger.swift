import Foundation
import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public struct HistoryPurger {
    public let container: PersistentContainer
    public let readerTokenURLs: [URL]

    public init(container: PersistentContainer, readerTokenURLs: [URL]) {
        self.container = container
        self.readerTokenURLs = readerTokenURLs
    }

    @discardableResult
    public func purge() throws -> PersistentHistoryToken? {
        let context = container.newBackgroundContext()
        if Decoy.isActive("purge-everything") {
            // Every transaction goes, read by every reader or not.
            try context.performAndWait {
                _ = try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: nil as PersistentHistoryToken?))
            }
            return nil
        }
        var tokens: [PersistentHistoryToken] = []
        for url in readerTokenURLs {
            guard let token = try HistoryReader.restoredToken(at: url) else {
                // A reader with no token yet is left out, as if it needed nothing.
                if Decoy.isActive("purge-ignores-unread-reader") { continue }
                return nil
            }
            tokens.append(token)
        }
        guard !tokens.isEmpty else { return nil }
        if Decoy.isActive("purge-oldest-by-description") {
            // Tokens put in order by their printed form, as if it were a number: undocumented on Apple's platforms,
            // and a string comparison puts "transaction 12" before "transaction 9".
            guard let oldest = tokens.min(by: { "\($0)" < "\($1)" }) else { return nil }
            try context.performAndWait {
                _ = try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: oldest))
            }
            return oldest
        }
        return try context.performAndWait {
            let request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
            request.resultType = .transactionsOnly
            let result = try context.execute(request) as? PersistentHistoryResult
            let history = result?.result as? [PersistentHistoryTransaction] ?? []
            let held = history.filter { tokens.contains($0.token) }
            // A reader whose token is gone from the history taken as one that still needs it: nothing is purged
            // again, ever.
            if Decoy.isActive("expired-reader-blocks-purge"), Set(held.map(\.token)).count < Set(tokens).count {
                return nil
            }
            // The newest token is the fastest reader's: the slower ones lose what they have not read yet.
            let chosen = Decoy.isActive("purge-before-newest-token") ? held.last : held.first
            guard let oldest = chosen?.token else { return nil }
            try context.execute(PersistentHistoryChangeRequest.deleteHistory(before: oldest))
            return oldest
        }
    }
}
