import Foundation
import Persistence

/// The budget app's consumer of the store's history. A notification, a button or the app's start asks it to catch
/// up and returns at once; the work runs on a serial queue of its own: it asks the store for the other writers'
/// transactions after its bookmark, merges their changes into the view context one transaction at a time, and keeps
/// the bookmark in a file for the next launch.
final class BudgetHistory: @unchecked Sendable {
    /// What one catch-up did.
    struct Report: @unchecked Sendable {
        /// The transactions read: the other writers' only, oldest first.
        var read: [PersistentHistoryTransaction] = []
        /// The object IDs merged into the view context, by kind of change.
        var inserted = 0, updated = 0, deleted = 0
        /// The bookmark afterwards.
        var bookmark: PersistentHistoryToken?
        /// Whether the bookmark had expired (134301), so that the app re-read what it shows instead.
        var startedOver = false
    }

    let container: PersistentContainer
    /// The author of the app's own saves, which the view context has already.
    let me: String
    let bookmarkFile: URL
    /// Catch-ups run here, one after another. A catch-up on it waits for the main queue to merge; nothing ever
    /// waits for it, so the main thread may ask for a catch-up while another one is merging.
    private let line = DispatchQueue(label: "budget history")
    /// Read and written on `line` only.
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

    /// Queues a catch-up and returns at once, on any thread; `done` runs on the history's queue afterwards.
    func catchUp(then done: @escaping @Sendable (Result<Report, any Error>) -> Void = { _ in }) {
        line.async { done(Result { try self.readOthersAndMerge() }) }
    }

    /// Queues a start-over (after a 134301) and returns at once; `done` runs on the history's queue afterwards.
    func startOver(then done: @escaping @Sendable (Result<Report, any Error>) -> Void = { _ in }) {
        line.async { done(Result { try self.reReadEverything() }) }
    }

    private func readOthersAndMerge() throws -> Report {
        // region: read
        // The store leaves the app's own transactions out, as Apple's article does: a fetch request on the
        // transaction entity narrows the request after the bookmark.
        let othersOnly = PersistentHistoryTransaction.fetchRequest!
        othersOnly.predicate = FetchPredicate(format: "author != %@", me)
        let request = PersistentHistoryChangeRequest.fetchHistory(after: bookmark)
        request.fetchRequest = othersOnly
        let background = container.newBackgroundContext()
        let fromOthers = try background.performAndWait {
            (try background.execute(request) as? PersistentHistoryResult)?.result as? [PersistentHistoryTransaction]
        } ?? []
        // endregion: read
        guard let last = fromOthers.last else { return Report(bookmark: bookmark) }
        // region: merge
        // One transaction at a time, as Apple's article does: each is a save-shaped dictionary of object IDs. (All
        // of them in one dictionary would put an expense added and then deleted under two keys at once, which
        // Apple's page does not say how a merge takes.)
        var report = Report(read: fromOthers)
        for transaction in fromOthers {
            var ids: [String: [ManagedObjectID]] = [:]
            for change in transaction.changes ?? [] {
                let key = switch change.changeType {
                case .insert: NSInsertedObjectsKey
                case .update: NSUpdatedObjectsKey
                case .delete: NSDeletedObjectsKey
                }
                ids[key, default: []].append(change.changedObjectID)
            }
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: ids, into: [container.viewContext])
            report.inserted += ids[NSInsertedObjectsKey]?.count ?? 0
            report.updated += ids[NSUpdatedObjectsKey]?.count ?? 0
            report.deleted += ids[NSDeletedObjectsKey]?.count ?? 0
        }
        // endregion: merge
        // region: keep
        // After the merge: a bookmark moves past only what the screen has.
        try NSKeyedArchiver.archivedData(withRootObject: last.token, requiringSecureCoding: true)
            .write(to: bookmarkFile, options: .atomic)
        bookmark = last.token
        // endregion: keep
        report.bookmark = bookmark
        return report
    }

    private func reReadEverything() throws -> Report {
        // region: start-over
        let newest = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        let screen = container.viewContext
        screen.performAndWait {
            // On Apple's platforms set screen.stalenessInterval = 0 first (Persistence has no row cache to skip).
            screen.refreshAllObjects()
        }
        if let newest {
            try NSKeyedArchiver.archivedData(withRootObject: newest, requiringSecureCoding: true)
                .write(to: bookmarkFile, options: .atomic)
        }
        bookmark = newest
        // endregion: start-over
        return Report(bookmark: newest, startedOver: true)
    }
}
