import Foundation
import Persistence

/// The budget app's reader of the store's history: it reads what happened after its bookmark, merges what others
/// wrote into the view context, and keeps the bookmark in a file for the next launch.
final class BudgetHistory: @unchecked Sendable {
    let container: PersistentContainer
    /// The author of the app's own saves, which the view context has already.
    let me: String
    let bookmarkFile: URL
    /// One catch-up at a time: two notifications close together must not merge the same transactions twice.
    private let oneAtATime = NSLock()
    /// Guards `bookmark` for a moment only, so that `token` can be read while a catch-up waits for the main queue.
    private let bookmarkLock = NSLock()
    private var bookmark: PersistentHistoryToken?

    init(_ container: PersistentContainer, me: String, bookmarkFile: URL) {
        self.container = container
        self.me = me
        self.bookmarkFile = bookmarkFile
        // region: restore
        if let data = try? Data(contentsOf: bookmarkFile) {
            bookmark = try? NSKeyedUnarchiver.unarchivedObject(ofClass: PersistentHistoryToken.self, from: data)
        }
        // endregion: restore
    }

    var token: PersistentHistoryToken? { bookmarkLock.withLock { bookmark } }

    /// Reads on from the bookmark and merges the others' transactions; returns what it read and what it merged.
    func catchUp() throws -> (read: [PersistentHistoryTransaction], merged: [PersistentHistoryTransaction]) {
        try oneAtATime.withLock {
            // region: read
            let request = PersistentHistoryChangeRequest.fetchHistory(after: token)
            let reader = container.newBackgroundContext()
            let unread = try reader.performAndWait {
                let result = try reader.execute(request) as? PersistentHistoryResult
                return result?.result as? [PersistentHistoryTransaction] ?? []
            }
            // endregion: read
            // region: merge
            let fromOthers = unread.filter { $0.author != me }
            let screen = container.viewContext
            screen.performAndWait {
                for transaction in fromOthers {
                    screen.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
                }
            }
            // endregion: merge
            // region: keep
            if let newest = unread.last?.token {
                let archive = try NSKeyedArchiver.archivedData(withRootObject: newest, requiringSecureCoding: true)
                try archive.write(to: bookmarkFile, options: .atomic)
                bookmarkLock.withLock { bookmark = newest }
            }
            // endregion: keep
            return (unread, fromOthers)
        }
    }

    /// After a 134301: re-read what the view context holds and go on from the newest transaction.
    func startOver() throws {
        try oneAtATime.withLock {
            // region: start-over
            let newest = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
            let screen = container.viewContext
            screen.performAndWait { screen.refreshAllObjects() }
            if let newest {
                try NSKeyedArchiver.archivedData(withRootObject: newest, requiringSecureCoding: true)
                    .write(to: bookmarkFile, options: .atomic)
            }
            bookmarkLock.withLock { bookmark = newest }
            // endregion: start-over
        }
    }
}
