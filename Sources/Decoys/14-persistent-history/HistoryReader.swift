import Foundation
import KataSupport
import Persistence

/// The reference solution with known mistakes behind `Decoy.isActive(…)` (see `Sources/Decoys/Decoy.swift`).
public final class HistoryReader: @unchecked Sendable {
    public let container: PersistentContainer
    public let author: String
    public let tokenURL: URL

    public var token: PersistentHistoryToken? { tokenLock.withLock { lastToken } }

    private let catchingUp = NSLock()
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
            } catch where Self.isExpiredToken(error) && !Decoy.isActive("expired-token-rethrown") {
                return try startOver()
            }
            guard let newest = transactions.last else { return .merged(0) }
            // Without the author filter, the app's own saves are merged back into the context that made them.
            let others = Decoy.isActive("merge-own-author") ? transactions : transactions.filter { $0.author != author }
            let viewContext = container.viewContext
            if Decoy.isActive("catch-up-merges-off-queue") {
                // Merged on whatever queue called catchUp(): the main-queue view context used off its queue.
                for transaction in others {
                    viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                }
            } else if Decoy.isActive("merge-into-reading-context") {
                // Merged into the background context that read the history, which shows nothing on screen.
                context.performAndWait {
                    for transaction in others {
                        context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                    }
                }
            } else if Decoy.isActive("refetch-everything") {
                // Everything read again instead of merging what changed: nothing says which objects changed.
                if !others.isEmpty {
                    viewContext.performAndWait {
                        viewContext.refreshAllObjects()
                        _ = try? viewContext.fetch(TodoItem.fetchRequest())
                    }
                }
            } else {
                viewContext.performAndWait {
                    for transaction in others {
                        viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                    }
                }
            }
            if !Decoy.isActive("token-not-advanced") {
                try keep(newest.token)
            }
            return .merged(others.count)
        }
    }

    private func startOver() throws -> HistoryCatchUp {
        let newest = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        let viewContext = container.viewContext
        if !Decoy.isActive("expired-without-refresh") {
            viewContext.performAndWait { viewContext.refreshAllObjects() }
        }
        // Keeping the expired token: every later catch-up runs into 134301 again.
        if !Decoy.isActive("expired-token-kept") {
            try keep(newest)
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
