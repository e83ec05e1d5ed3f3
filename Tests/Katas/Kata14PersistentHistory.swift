import Foundation
import KataSupport
import Persistence
import XCTest
// The code under test: your starters, or (for `lessons verify`) the reference solutions or the decoys.
#if Solutions
import Solutions
#elseif Decoys
import Decoys
#else
import Workbook
#endif

/// Lesson 14 — Persistent history: catching up with changes you did not make. A to-do app whose widget and calendar
/// import write to the same store: the stack records history and posts remote changes (kata 1); the import signs its
/// transactions (2); the app's history reader merges other authors' transactions into the view context on its queue
/// (3), skips its own (4) and moves its token on (5); the import's batch reaches the screen through history alone
/// (6); the token outlives the reader (7); a purge keeps what the slowest reader still needs (8); and an expired
/// token starts the reader over (9).
///
/// Katas 2–9 run on a store of their own at `/dev/null` that records history, with the view context signed as the
/// app. The reader is called from a background queue, as a remote-change notification would call it; merges into the
/// view context happen on the main queue, which runs while a kata waits. Every wait has a time limit.
final class Kata14PersistentHistory: KataCase {
    override class var lesson: Int { 14 }
    override class var folder: String { "14-persistent-history" }
    override class func makeModel() throws -> ManagedObjectModel { try TodoModel.shared() }

    /// The kata's store: `/dev/null`, recording persistent history.
    private var store: PersistentContainer!
    /// A folder of the kata's own for the readers' token files.
    private var folder: URL!
    /// The store's main-queue context, signed as the app.
    private var view: ManagedObjectContext { store.viewContext }
    /// Where the app's reader keeps its token.
    private var appTokenURL: URL { folder.appendingPathComponent("app-token.data") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        store = try Self.makeStore()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kata14-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        store = nil
        if let folder { try? FileManager.default.removeItem(at: folder) }
        folder = nil
        try super.tearDownWithError()
    }

    /// A loaded container on a private in-memory store that records persistent history, its view context signed
    /// as the app — what kata 1 asks of `TodoStack`, made here so that the later katas do not depend on it.
    private static func makeStore() throws -> PersistentContainer {
        let container = PersistentContainer(name: TodoModel.name, managedObjectModel: try TodoModel.shared())
        let description = PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        container.persistentStoreDescriptions = [description]
        nonisolated(unsafe) var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        container.viewContext.name = "viewContext"
        container.viewContext.transactionAuthor = TodoAuthor.app
        return container
    }

    // MARK: Waiting, with a time limit

    // MARK: The app, its widget, the store

    /// A reader for the app, keeping its token in the kata's folder.
    private func appReader() -> HistoryReader {
        HistoryReader(container: store, author: TodoAuthor.app, tokenURL: appTokenURL)
    }

    /// Runs `reader.catchUp()` on a background queue — as the handler of a remote-change notification does, on the
    /// queue the notification came on — and waits for it while the main queue runs.
    private func catchUpInBackground(_ reader: HistoryReader) throws -> HistoryCatchUp {
        let result = LockedBox<Result<HistoryCatchUp, any Error>?>(nil)
        DispatchQueue.global().async { result.value = Result { try reader.catchUp() } }
        try expect(eventually(10) { result.value != nil }, "catchUp() did not return within ten seconds. Is it "
            + "waiting for the main queue from the main queue, or holding a lock a merge needs?")
        return try result.value!.get()
    }

    /// An item the app saved from its view context (author: the app), its values read as a list on screen would.
    @discardableResult
    private func appSaves(_ title: String) throws -> TodoItem {
        let item = TodoItem(context: view)
        item.title = title
        try view.save()
        _ = item.done
        return item
    }

    /// The widget writes to the store: its own context, signed as the widget, saving `change`.
    private func widget(_ change: (ManagedObjectContext) throws -> Void) throws {
        let widget = store.newBackgroundContext()
        widget.name = "widget"
        widget.transactionAuthor = TodoAuthor.widget
        try widget.performAndWait {
            try change(widget)
            try widget.save()
        }
    }

    /// The widget adds an item; returns its ID.
    @discardableResult
    private func widgetAdds(_ title: String) throws -> ManagedObjectID {
        var id: ManagedObjectID?
        try widget { context in
            let item = TodoItem(context: context)
            item.title = title
            try context.obtainPermanentIDs(for: [item])
            id = item.objectID
        }
        return try require(id, "the kata's widget could not add \(title).")
    }

    /// The widget adds an item to `container`'s store from any thread; returns its ID.
    private static func add(_ title: String, asWidgetTo container: PersistentContainer) throws -> ManagedObjectID {
        let widget = container.newBackgroundContext()
        widget.name = "widget"
        widget.transactionAuthor = TodoAuthor.widget
        return try widget.performAndWait {
            let item = TodoItem(context: widget)
            item.title = title
            try widget.save()
            return item.objectID
        }
    }

    /// The widget ticks off the item titled `title`.
    private func widgetTicksOff(_ title: String) throws {
        try widget { context in
            let request: FetchRequest<TodoItem> = TodoItem.fetchRequest()
            request.predicate = FetchPredicate(format: "title == %@", title)
            for item in try context.fetch(request) { item.done = true }
        }
    }

    /// The store's history after `token` (all of it for `nil`), read through a context of its own.
    private func storedHistory(after token: PersistentHistoryToken? = nil,
                               in container: PersistentContainer? = nil) throws -> [PersistentHistoryTransaction] {
        let reader = (container ?? store).newBackgroundContext()
        return try reader.performAndWait {
            let result = try reader.execute(PersistentHistoryChangeRequest.fetchHistory(after: token))
            return (result as? PersistentHistoryResult)?.result as? [PersistentHistoryTransaction] ?? []
        }
    }

    /// The token of the store's newest transaction.
    private func newestToken() -> PersistentHistoryToken? {
        store.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
    }

    /// The IDs of the stored items with these titles.
    private func storedIDs(_ titles: [String]) throws -> Set<ManagedObjectID> {
        let reader = store.newBackgroundContext()
        return try reader.performAndWait {
            let request: FetchRequest<TodoItem> = TodoItem.fetchRequest()
            request.predicate = FetchPredicate(format: "title IN %@", titles)
            return Set(try reader.fetch(request).map(\.objectID))
        }
    }

    /// Writes `token` where a reader keeps it, archived as Core Data's tokens are.
    private func keep(_ token: PersistentHistoryToken?, at url: URL) throws {
        let token = try require(token, "the kata's store has no history token to keep.")
        try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true).write(to: url)
    }

    /// The token archived at `url` (as Core Data's tokens are archived), if any.
    private func archivedToken(at url: URL) -> PersistentHistoryToken? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? NSKeyedUnarchiver.unarchivedObject(ofClass: PersistentHistoryToken.self, from: data)
    }

    /// Why `expected`, written by another author, did not reach the view context through `merges`.
    private func whyNotMerged(_ merges: MergeLog) -> String {
        merges.count == 0
            ? "Nothing at all was merged into the view context: merge each transaction of another author — its "
                + "objectIDNotification(), with mergeChanges(fromContextDidSave:) — into the view context, not into "
                + "the context that read the history, and not by re-reading objects."
            : "The merges into the view context named other objects."
    }

    /// Checks that one catch-up, reading on from the reader's token, merged the widget's one new item and nothing
    /// else. `when` says when the kata catches up ("after the relaunch").
    private func expectOnlyTheNewItem(_ item: ManagedObjectID, _ merges: MergeLog, _ result: HistoryCatchUp,
                                      when: String) throws {
        _ = eventually { merges.all.contains(item) }
        settle()
        try expect(merges.all.contains(item), "\(when) the widget added an item, and catchUp() (which returned "
            + "\(result)) did not bring it to the view context. " + whyNotMerged(merges))
        try expect(merges.all == [item] && result == .merged(1), "\(when) the widget added one item, and catchUp() "
            + "returned \(result) and merged \(merges.all.count) object(s) into the view context: only the "
            + "transactions after the reader's token should be read, and only the widget's one merged.")
    }

    /// The error code of a Persistence (or Core Data) error; nil for a starter's `KataNotDone`.
    private func code(of error: any Error) -> Int? {
        error is KataNotDone ? nil : (error as NSError).code
    }

    /// A token as the learner can read it.
    private func describe(_ token: PersistentHistoryToken?) -> String {
        token.map { "\($0)" } ?? "nil"
    }

    // MARK: Turning history on

    func test01_theStackRecordsHistoryFromItsFirstSave() {
        kata(1, in: "TodoStack.swift", "makeContainer(storeURL:)") {
            // A file of the kata's own, as the app and its widget share one in their app group.
            let storeURL = folder.appendingPathComponent("Todo.sqlite")
            let stack = try TodoStack.makeContainer(storeURL: storeURL)
            let opened = stack.persistentStoreCoordinator.persistentStores.first?.url
            defer {
                // A stack that opened another file leaves it behind: remove it, or the next run finds its history.
                if let opened, opened.standardizedFileURL != storeURL.standardizedFileURL,
                   let store = stack.persistentStoreCoordinator.persistentStores.first {
                    try? stack.persistentStoreCoordinator.remove(store)
                    for suffix in ["", "-wal", "-shm"] {
                        try? FileManager.default.removeItem(atPath: opened.path + suffix)
                    }
                }
            }
            try expect(opened != nil, "makeContainer(storeURL:) returned "
                + "a container whose store is not loaded: call loadPersistentStores and pass its error on.")
            try expect(opened?.standardizedFileURL == storeURL.standardizedFileURL, "makeContainer(storeURL:) was "
                + "asked for the store at \(storeURL.lastPathComponent) in the kata's folder and opened "
                + "\(opened?.path ?? "nothing") instead. The app, its widget and its import must open one file (the "
                + "app group's) or none of them sees the others' history: describe the store at the URL you are given.")
            let remoteChanges = NotificationLog(.NSPersistentStoreRemoteChange, from: stack.persistentStoreCoordinator)
            let item = TodoItem(context: stack.viewContext)
            item.title = "Buy milk"
            try stack.viewContext.save()
            let transactions: [PersistentHistoryTransaction]
            do {
                transactions = try storedHistory(in: stack)
            } catch {
                guard code(of: error) == CocoaError.Code.coreData.rawValue else { throw error }
                try expect(false, "the store refused a history request (\(code(of: error) ?? 0)): it keeps no "
                    + "history. Set NSPersistentHistoryTrackingKey (true as NSNumber) on the store description before "
                    + "loadPersistentStores — a store reads its options once, when it opens, and history only records "
                    + "what happens while it is on.")
                return
            }
            try expect(transactions.count == 1, "the view context saved once, and the history holds "
                + "\(transactions.count) transactions.")
            let author = transactions[0].author
            try expect(author == TodoAuthor.app, "the view context's save is in the history with the author "
                + "\(author.map { "\"\($0)\"" } ?? "nil"), not \"\(TodoAuthor.app)\". Set the view context's "
                + "transactionAuthor to TodoAuthor.app, so that the app's reader can tell its own saves from the others'.")
            try expect(eventually(3) { remoteChanges.count > 0 }, "the view context saved and the coordinator posted no "
                + "NSPersistentStoreRemoteChange notification within three seconds. The app learns of the widget's "
                + "writes from it: set NSPersistentStoreRemoteChangeNotificationPostOptionKey (true as NSNumber) on "
                + "the description too.")
        }
    }

    func test02_theCalendarImportSignsItsTransactions() {
        kata(2, in: "CalendarImporter.swift", "importReminders(_:)") {
            try appSaves("Buy milk")
            let start = newestToken()
            let reminders = ["Dentist", "Pay rent", "Call mum"].map(ReminderEntry.init(title:))
            // Named, so that a transaction the view context wrote says so.
            view.name = "the app's view context"
            let count = try CalendarImporter(container: store).importReminders(reminders)
            let written = try storedHistory(after: start)
            try expect(!written.contains { $0.contextName == view.name }, "the import's transaction was written by "
                + "the view context (its contextName is \"\(view.name ?? "")\"). The view context runs on the main "
                + "queue: an import there holds up the screen for as long as it runs, and while its author is the "
                + "import's, a save the user makes is signed as the import — and the app's reader merges it again. "
                + "Run the import on a background context of its own, signed for the import.")
            try expect(view.transactionAuthor == TodoAuthor.app, "after importReminders(_:) the view context's "
                + "transactionAuthor is \(view.transactionAuthor.map { "\"\($0)\"" } ?? "nil"), not "
                + "\"\(TodoAuthor.app)\": the import changed the caller's context. Sign the import's own context.")
            try expect(!written.isEmpty, "importReminders(_:) wrote nothing to the store: the history has no "
                + "transaction after the app's save.")
            let authors = Set(written.map { $0.author ?? "nil" })
            try expect(!authors.contains("nil"), "the import's transaction has no author: the reader cannot tell "
                + "who wrote it. Set transactionAuthor = TodoAuthor.calendarImport on the background context that "
                + "runs the import, before it executes the request.")
            try expect(!authors.contains(TodoAuthor.app), "the import's transaction is signed \"\(TodoAuthor.app)\", "
                + "the app's own author: the app's reader skips its own transactions, so it would never bring the "
                + "reminders to the screen. Sign the import's context with TodoAuthor.calendarImport.")
            try expect(authors == [TodoAuthor.calendarImport], "the import's transactions are signed "
                + "\(authors.sorted()), not \"\(TodoAuthor.calendarImport)\".")
            let stored = try storedIDs(reminders.map(\.title)).count
            try expect(stored == 3, "the store has \(stored) of the three imported reminders.")
            try expect(count == 3, "importReminders(_:) returned \(count) for three reminders it inserted.")
        }
    }

    // MARK: Reading and merging

    func test03_theReaderMergesAnotherAuthorsChangeOnTheMainQueue() {
        kata(3, in: "HistoryReader.swift", "catchUp()") {
            let milk = try appSaves("Buy milk")
            let reader = appReader()
            let merges = MergeLog(view)
            try widgetTicksOff("Buy milk")
            let result = try catchUpInBackground(reader)
            _ = eventually { milk.done }
            if !milk.done {
                let merged = merges.count > 0 ? "" : " The view context merged nothing at all."
                try expect(false, "the widget ticked off Buy milk, and after catchUp() the view context still shows "
                    + "it not done.\(merged) For each transaction of another author, merge its "
                    + "objectIDNotification() into the view context with mergeChanges(fromContextDidSave:) — the "
                    + "view context, not the background context that read the history.")
            }
            try expect(merges.count > 0 && merges.updated.contains(milk.objectID), "the view context shows Buy milk "
                + "done, but it never merged a change to it: re-reading objects (refresh, refreshAllObjects, a new "
                + "fetch) gets the new values without telling anyone what changed. Merge the transaction's "
                + "objectIDNotification() with mergeChanges(fromContextDidSave:): the merge posts the view context's "
                + "notifications naming the objects, which a list on screen waits for.")
            try expect(merges.allOnMain, "a merge into the view context ran on a background thread. catchUp() is "
                + "called from any queue (a remote-change notification comes on a private one): merge inside "
                + "viewContext.performAndWait (or perform).")
            guard case .merged(let count) = result, count >= 1 else {
                try expect(false, "catchUp() merged the widget's change and returned \(result): it should return "
                    + ".merged with the number of transactions it merged.")
                return
            }
        }
    }

    func test04_theReaderSkipsTheAppsOwnSaves() {
        kata(4, in: "HistoryReader.swift", "catchUp()") {
            let milk = try appSaves("Buy milk")
            let eggs = try appSaves("Buy eggs")
            milk.title = "Buy oat milk"
            try view.save()
            let plants = try widgetAdds("Water the plants")
            let reader = appReader()
            let merges = MergeLog(view)
            let result = try catchUpInBackground(reader)
            _ = eventually { merges.inserted.contains(plants) }
            settle()
            let own = [milk, eggs].filter { merges.all.contains($0.objectID) }.map(\.title)
            try expect(own.isEmpty, "catchUp() merged the app's own saves back into the view context (it refreshed "
                + "\(own)): the view context made those changes, and merging them again only turns its objects "
                + "into faults and tells the screen they changed. Skip the transactions whose author is the "
                + "reader's own (the reader's author property, TodoAuthor.app here).")
            try expect(merges.inserted.contains(plants), "the widget added \"Water the plants\", and catchUp() did not "
                + "merge it into the view context. " + (merges.count == 0 ? whyNotMerged(merges)
                    : "Only the app's own transactions are to be skipped."))
            try expect(result == .merged(1), "catchUp() returned \(result): of the four transactions it read, one "
                + "was the widget's and three were the app's own, so it merged one.")
        }
    }

    func test05_theReaderMovesItsTokenOn() {
        kata(5, in: "HistoryReader.swift", "catchUp()") {
            try widgetAdds("Buy milk")
            let reader = appReader()
            _ = try catchUpInBackground(reader)
            try expect(reader.token != nil && reader.token == newestToken(), "after catchUp() the reader's token is "
                + "\(describe(reader.token)), not the token of the newest transaction it read "
                + "(\(describe(newestToken()))): the next catch-up would read the same transactions again. Keep the "
                + "last transaction's token.")
            let afterWidget = reader.token
            try appSaves("Buy eggs")
            let ownLast = try catchUpInBackground(reader)
            // Read and skipped in Swift, the app's own save moves the token past it; left out by the request (the
            // lesson's example), it is never read, and the token stays where it was. Either is right.
            try expect(reader.token == newestToken() || reader.token == afterWidget, "the newest transaction is the "
                + "app's own save, and after catchUp() the reader's token is \(describe(reader.token)): neither past "
                + "it nor where it was. A transaction read and skipped is still read: move the token past it.")
            try expect(ownLast == .merged(0), "catchUp() returned \(ownLast) after reading only the app's own save.")
            let merges = MergeLog(view)
            let again = try catchUpInBackground(reader)
            settle()
            try expect(again == .merged(0) && merges.count == 0, "nothing was written since the last catch-up, and "
                + "catchUp() returned \(again) and merged \(merges.count) time(s): it read old transactions again. "
                + "Fetch the history after the reader's token, then move the token to the last transaction read.")
            let bread = try widgetAdds("Buy bread")
            let next = try catchUpInBackground(reader)
            try expectOnlyTheNewItem(bread, merges, next, when: "then")
            try expectTwoCatchUpsAtOnce(reader)
        }
    }

    /// Two catch-ups at once — two remote-change notifications close together — while the main thread is busy: the
    /// first reads the widget's new item and waits for the main queue to merge it. Meanwhile its token must not
    /// have moved, and the second must still be able to read: if it cannot, it waits for something the first holds
    /// while the first waits for the main thread, and a catch-up called *on* the main thread would wait forever.
    /// The kata infers that from the SQL log rather than call it on the main thread, which would hang the run.
    private func expectTwoCatchUpsAtOnce(_ reader: HistoryReader) throws {
        let before = reader.token
        let toast = try widgetAdds("Buy toast")
        let merges = MergeLog(view)
        let first = LockedBox<Result<HistoryCatchUp, any Error>?>(nil)
        let second = LockedBox<Result<HistoryCatchUp, any Error>?>(nil)
        // The kata's thread is the main thread: while it sleeps, nothing runs on the main queue.
        let firstRead = SQLLog.capture {
            DispatchQueue.global().async { first.value = Result { try reader.catchUp() } }
            Thread.sleep(forTimeInterval: 1)
        }.log
        let tokenWhileWaiting = reader.token
        let secondRead = SQLLog.capture {
            DispatchQueue.global().async { second.value = Result { try reader.catchUp() } }
            Thread.sleep(forTimeInterval: 1)
        }.log
        // Both have read; before either has merged, the widget saves again. Neither read it.
        let jam = try widgetAdds("Buy jam")
        let finished = eventually(10) { first.value != nil && second.value != nil }
        try expect(finished, "two catch-ups called at once did not both return within ten seconds.")
        let historyReads = { (log: SQLLog) in log.statements.filter { $0.contains("FROM ATRANSACTION") }.count }
        try expect(historyReads(firstRead) > 0, "called from a background queue while the main thread was busy, "
            + "catchUp() did not read the history until the main thread was free: it reads on the view context's "
            + "queue. Read on a background context of the reader's own (Apple: \"to avoid blocking the main "
            + "thread\"), and go to the view context's queue only to merge.")
        try expect(tokenWhileWaiting == before, "while its merge of the widget's new item still waited for the main "
            + "queue, the reader's token had already moved past it: another catch-up, or a caller on the main thread, "
            + "reading after that token now takes the item for merged. Move the token after the merge, on the view "
            + "context's queue.")
        try expect(historyReads(secondRead) > 0, "while one catch-up waited for the main queue to merge, a second "
            + "catch-up, called from another queue, could not even read the history: it waited for something the "
            + "first one holds (a lock, a serial queue) while the first waits for the main thread. Called on the main "
            + "thread, that second catch-up hangs both. Hold no lock while waiting for the view context's queue: let "
            + "that queue put the catch-ups in order, and there skip what another catch-up has merged meanwhile.")
        _ = eventually { merges.all.contains(toast) }
        settle()
        let results = [first.value, second.value].compactMap { try? $0?.get() }
        try expect(merges.count == 1 && results.count == 2 && results.contains(.merged(1)) && results.contains(.merged(0)), "two catch-ups at once read the "
            + "widget's one new item, and between them merged \(merges.count) time(s), returning \(results): one of "
            + "them should merge it (.merged(1)) and the other find it merged already (.merged(0)).")
        let jamMerges = MergeLog(view)
        let later = try catchUpInBackground(reader)
        _ = eventually { jamMerges.all.contains(jam) }
        settle()
        try expect(jamMerges.all.contains(jam), "the widget saved an item after both catch-ups had read the history "
            + "and before either merged; the next catch-up returned \(later) and never brought it to the view context. "
            + "The token had moved past a transaction no one read: the store's newest token, taken after the read, "
            + "is already past what was saved meanwhile. Keep the token of the last transaction you read.")
        try expectOnlyTheNewItem(jam, jamMerges, later, when: "after two catch-ups at once")
    }

    // MARK: A batch import, through history

    func test06_theCalendarImportReachesTheScreenThroughHistory() {
        kata(6, in: "CalendarImporter.swift", "importReminders(_:)") {
            try appSaves("Buy milk")
            let reader = appReader()
            let merges = MergeLog(view)
            let saves = NotificationLog(ManagedObjectContext.didSaveObjectsNotification, from: nil)
            let reminders = ["Dentist", "Pay rent", "Call mum"].map(ReminderEntry.init(title:))
            let count = try CalendarImporter(container: store).importReminders(reminders)
            settle()
            try expect(saves.count == 0, "importReminders(_:) saved a context (\(saves.count) did-save "
                + "notification(s)): making an object per reminder and saving is what a batch insert replaces. Run "
                + "one BatchInsertRequest with a dictionary per reminder; the history records it all the same.")
            try expect(merges.count == 0, "importReminders(_:) merged its rows into the view context itself — "
                + "lesson 12's hand-made notification. With history on, that is the reader's job: the import only "
                + "writes, and catchUp() brings the rows. Merged here too, they reach the view context twice.")
            let imported = try storedIDs(reminders.map(\.title))
            try expect(imported.count == 3, "the store has \(imported.count) of the three imported reminders.")
            let result = try catchUpInBackground(reader)
            _ = eventually { merges.inserted.isSuperset(of: imported) }
            if result == .merged(0) {
                try expect(false, "the reader merged nothing after the import: it took the import's transaction for "
                    + "the app's own. Sign the import's context with TodoAuthor.calendarImport, not the app's author.")
            }
            try expect(merges.inserted.isSuperset(of: imported), "after catchUp() the view context was not told of "
                + "the \(imported.subtracting(merges.inserted).count) imported item(s) it does not have: the history "
                + "holds their insertion, and merging the transaction's objectIDNotification() registers them in the "
                + "view context and reports them as inserted — which a list on screen waits for. "
                + whyNotMerged(merges))
            try expect(count == 3, "importReminders(_:) returned \(count) for three reminders it inserted.")
        }
    }

    // MARK: Between launches

    func test07_theTokenOutlivesTheReader() {
        kata(7, in: "HistoryReader.swift", "restoredToken(at:)") {
            try widgetAdds("Buy milk")
            var reader: HistoryReader? = appReader()
            _ = try catchUpInBackground(try require(reader, "the kata's reader is gone."))
            let kept = try require(reader?.token, "after catchUp() the reader has no token.")
            try expect(FileManager.default.fileExists(atPath: appTokenURL.path), "after catchUp() there is no file at "
                + "the reader's tokenURL: the token lives in memory only, and the next launch reads (and merges) the "
                + "whole history again. Archive it (NSKeyedArchiver, requiringSecureCoding: true) and write it to "
                + "tokenURL each time it moves.")
            let archived = archivedToken(at: appTokenURL)
            try expect(archived == kept, "tokenURL holds something NSKeyedUnarchiver does not read back as the "
                + "reader's token (\(describe(archived))). Keep it the way Core Data's tokens are kept: "
                + "NSKeyedArchiver.archivedData(withRootObject:requiringSecureCoding: true).")
            let missing = folder.appendingPathComponent("never-written.data")
            let none = try HistoryReader.restoredToken(at: missing)
            try expect(none == nil, "restoredToken(at:) of a file that does not exist — the first launch — "
                + "returned \(describe(none)), not nil.")
            let restored = try HistoryReader.restoredToken(at: appTokenURL)
            try expect(restored == kept, "restoredToken(at:) read back \(describe(restored)), not the token the "
                + "reader kept (\(describe(kept))). Unarchive it with NSKeyedUnarchiver.unarchivedObject(ofClass: "
                + "PersistentHistoryToken.self, from:).")
            reader = nil                                          // the app quits…
            let bread = try widgetAdds("Buy bread")               // …the widget writes meanwhile…
            let relaunched = appReader()                          // …and the app starts again
            try expect(relaunched.token == kept, "a new reader on the same tokenURL starts with the token "
                + "\(describe(relaunched.token)), not the one kept (\(describe(kept))).")
            let merges = MergeLog(view)
            let result = try catchUpInBackground(relaunched)
            try expectOnlyTheNewItem(bread, merges, result, when: "while the app was away,")
        }
    }

    // MARK: Purging

    func test08_aPurgeKeepsWhatTheSlowestReaderNeeds() {
        kata(8, in: "HistoryPurger.swift", "purge()") {
            var tokens: [PersistentHistoryToken] = []
            for title in ["A", "B", "C", "D", "E"] {
                try widgetAdds("Item \(title)")
                tokens.append(try require(newestToken(), "the kata's store has no history token."))
            }
            let widgetTokenURL = folder.appendingPathComponent("widget-token.data")
            try keep(tokens[1], at: widgetTokenURL)               // the widget has read up to B
            try keep(tokens[3], at: appTokenURL)                  // the app up to D
            let purger = HistoryPurger(container: store, readerTokenURLs: [appTokenURL, widgetTokenURL])
            let purgedBefore = try purger.purge()
            let unread: [PersistentHistoryTransaction]
            do {
                unread = try storedHistory(after: tokens[1])
            } catch {
                guard code(of: error) == NSPersistentHistoryTokenExpiredError else { throw error }
                try expect(false, "after the purge the widget, which had read up to B, can no longer read on: "
                    + "its token has expired (134301), because the purge deleted history it had not read yet. "
                    + "Purge before the oldest token of all the readers, not the newest, nor everything.")
                return
            }
            try expect(unread.map(\.token) == Array(tokens[2...]), "after the purge the widget, which had read up to "
                + "B, reads \(unread.count) transaction(s) on, not the three it has not read (C, D, E).")
            let left = try storedHistory().map(\.token)
            try expect(!left.contains(tokens[0]), "purge() deleted nothing that every reader had read: transaction A "
                + "is still in the history. Delete the history before the oldest of the readers' tokens.")
            try expect(purgedBefore == tokens[1], "purge() returned \(describe(purgedBefore)), not the token it "
                + "purged before: the oldest of the readers' tokens, the widget's (\(describe(tokens[1]))).")

            // Both readers have read everything now; a third has never run.
            try keep(tokens[4], at: widgetTokenURL)
            try keep(tokens[4], at: appTokenURL)
            let shareExtension = folder.appendingPathComponent("share-extension-token.data")
            let before = try storedHistory().count
            let again = try HistoryPurger(container: store, readerTokenURLs: [appTokenURL, widgetTokenURL, shareExtension])
                .purge()
            let after = try storedHistory().count
            try expect(after == before && again == nil, "the share extension has never read the history (it has no "
                + "token file yet), so it needs all of it — and purge() deleted \(before - after) transaction(s) and "
                + "returned \(describe(again)). A reader without a token means nothing may go: return nil.")

            // Later the widget has read up to transaction 9, the app up to 12.
            for title in ["F", "G", "H", "I", "J", "K", "L"] {
                try widgetAdds("Item \(title)")
                tokens.append(try require(newestToken(), "the kata's store has no history token."))
            }
            try keep(tokens[8], at: widgetTokenURL)
            try keep(tokens[11], at: appTokenURL)
            let third = try HistoryPurger(container: store, readerTokenURLs: [appTokenURL, widgetTokenURL]).purge()
            do {
                _ = try storedHistory(after: tokens[8])
            } catch {
                guard code(of: error) == NSPersistentHistoryTokenExpiredError else { throw error }
                try expect(false, "the widget had read up to transaction 9 and the app up to 12, and after purge() "
                    + "the widget's token has expired (134301): purge() took the app's token for the oldest. Tokens "
                    + "have no order of their own, and what they print is not one (\"12\" sorts before \"9\" as "
                    + "text): find the oldest where the history lists it first.")
                return
            }
            try expect(third == tokens[8], "with the widget at transaction 9 and the app at 12, purge() returned "
                + "\(describe(third)), not the widget's token (\(describe(tokens[8]))).")

            // The widget's token file still names transaction 3, purged long ago: when it wakes it gets 134301 and
            // starts over (kata 9), needing none of the history. The app has read up to transaction 13.
            for title in ["M", "N"] {
                try widgetAdds("Item \(title)")
                tokens.append(try require(newestToken(), "the kata's store has no history token."))
            }
            try keep(tokens[2], at: widgetTokenURL)
            try keep(tokens[12], at: appTokenURL)
            let fourth = try HistoryPurger(container: store, readerTokenURLs: [appTokenURL, widgetTokenURL]).purge()
            let remaining = try storedHistory().map(\.token)
            try expect(fourth == tokens[12] && !remaining.contains(tokens[11]), "the widget's token names a "
                + "transaction no longer in the history, the app's transaction 13; purge() returned "
                + "\(describe(fourth)) and left \(remaining.count) transaction(s). A reader whose token has expired "
                + "will start over and needs nothing; letting it stop every purge means the history grows for good. "
                + "Purge before the oldest token the history still lists.")
        }
    }

    // MARK: When the token has expired

    func test09_anExpiredTokenStartsOver() {
        kata(9, in: "HistoryReader.swift", "catchUp()") {
            let milk = try appSaves("Buy milk")
            try widgetAdds("Buy rice")
            let reader = appReader()
            _ = try catchUpInBackground(reader)
            try expect(reader.token != nil, "after catchUp() the reader has no token: keep the last transaction's "
                + "token (kata 5), or no purge can ever leave it behind.")
            try widgetTicksOff("Buy milk")
            try widgetAdds("Buy eggs")
            // Another reader purged everything: the history after this reader's token is gone.
            let janitor = store.newBackgroundContext()
            try janitor.performAndWait {
                _ = try janitor.execute(PersistentHistoryChangeRequest.deleteHistory(before: nil as PersistentHistoryToken?))
            }
            // While the reader re-reads what the view context holds, the widget adds an item: written after the
            // reader learned its token had expired, so its next catch-up must bring it.
            let tea = LockedBox<ManagedObjectID?>(nil)
            let beforeTea = LockedBox<PersistentHistoryToken?>(nil)
            let container = store!
            TodoItem.onNextRefresh(in: view) {
                beforeTea.value = container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
                tea.value = try? Self.add("Buy tea", asWidgetTo: container)
            }
            defer { TodoItem.onNextRefresh(in: nil, nil) }
            let result: HistoryCatchUp
            do {
                result = try catchUpInBackground(reader)
            } catch {
                guard code(of: error) == NSPersistentHistoryTokenExpiredError else { throw error }
                try expect(false, "catchUp() threw 134301 (NSPersistentHistoryTokenExpiredError): the history after "
                    + "its token was purged. That is no reason to stop — catch it, re-read what the view context "
                    + "holds, take the store's newest token (currentPersistentHistoryToken(fromStores:)) and return "
                    + ".startedOver, or every later catch-up fails the same way.")
                return
            }
            try expect(result == .startedOver, "the reader's token had expired, and catchUp() returned \(result), not "
                + ".startedOver: the app's lists must fetch again, since nothing can tell what changed.")
            // The newest when the reader started over: before the widget's write during the re-read, if it came.
            let newest = tea.value == nil ? newestToken() : beforeTea.value
            if reader.token != newest, tea.value != nil, reader.token == newestToken() {
                try expect(false, "while the reader re-read the view context, the widget added Buy tea, and the "
                    + "reader's new token is already past it: it was taken after the re-read, so the next catch-up "
                    + "never reads that write — on a device the widget's item is lost for good. Take the store's "
                    + "newest token before re-reading anything.")
            }
            try expect(reader.token == newest, "after starting over the reader's token is \(describe(reader.token)), "
                + "not the store's newest (\(describe(newest))): the next catch-up runs into 134301 again.")
            let kept = archivedToken(at: appTokenURL)
            let inFile = FileManager.default.fileExists(atPath: appTokenURL.path)
                ? "tokenURL holds \(describe(kept))" : "there is no token at tokenURL (kata 7)"
            try expect(kept == newest, "after starting over, \(inFile), not the newest token: the next launch would "
                + "not go on from where the reader started over. Keep the new token there too.")
            _ = eventually { milk.done }
            try expect(milk.done, "after starting over the view context still shows Buy milk not done, as the widget "
                + "left it in the purged history. Nothing can say what changed, so re-read everything the view "
                + "context holds (refreshAllObjects() on its queue).")
            if let tea = tea.value {
                let teaMerges = MergeLog(view)
                let first = try catchUpInBackground(reader)
                _ = eventually { teaMerges.all.contains(tea) }
                settle()
                try expect(teaMerges.all.contains(tea), "while the reader re-read the view context, the widget added "
                    + "Buy tea, and the next catch-up (which returned \(first)) never brought it: the reader's new "
                    + "token was taken after the re-read, past a write that happened during it. On a device the "
                    + "widget's item is lost for good. Take the store's newest token before re-reading anything.")
            }
            let merges = MergeLog(view)
            let bread = try widgetAdds("Buy bread")
            let next = try catchUpInBackground(reader)
            try expectOnlyTheNewItem(bread, merges, next, when: "after starting over,")
            // Any other error says nothing about the history: here the store is closed under the reader.
            let before = reader.token
            let coordinator = store.persistentStoreCoordinator
            for closing in coordinator.persistentStores { try coordinator.remove(closing) }
            let closed: Result<HistoryCatchUp, any Error> = Result { try catchUpInBackground(reader) }
            if case .success(let answer) = closed {
                try expect(false, "with its store closed, catchUp() returned \(answer) instead of throwing. Only "
                    + "134301 means the history after the token is gone; any other error (a closed store, a busy "
                    + "file) says nothing about it. Starting over then drops the bookmark for history that was "
                    + "never merged: throw the error and keep the token, so the next catch-up reads it again.")
            }
            try expect(reader.token == before, "a catch-up that failed with another error than 134301 moved the "
                + "token from \(describe(before)) to \(describe(reader.token)): keep it where it was.")
        }
    }
}

/// The did-merge notifications of one context (`didMergeChangesObjectIDsNotification`): which object IDs each
/// merge brought in, refreshed or removed, and whether every merge ran on the main thread.
private final class MergeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var merges: [(inserted: Set<ManagedObjectID>, updated: Set<ManagedObjectID>, deleted: Set<ManagedObjectID>)] = []
    private var offMain = false
    private var observer: (any NSObjectProtocol)?

    init(_ context: ManagedObjectContext) {
        observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didMergeChangesObjectIDsNotification, object: context, queue: nil
        ) { [weak self] note in
            func ids(_ key: ManagedObjectContext.NotificationKey) -> Set<ManagedObjectID> {
                note.userInfo?[key.rawValue] as? Set<ManagedObjectID> ?? []
            }
            let merge = (ids(.insertedObjectIDs), ids(.updatedObjectIDs), ids(.deletedObjectIDs))
            let onMain = Thread.isMainThread
            self?.lock.withLock {
                self?.merges.append(merge)
                if !onMain { self?.offMain = true }
            }
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    var count: Int { lock.withLock { merges.count } }
    var inserted: Set<ManagedObjectID> { lock.withLock { Set(merges.flatMap(\.inserted)) } }
    var updated: Set<ManagedObjectID> { lock.withLock { Set(merges.flatMap(\.updated)) } }
    var all: Set<ManagedObjectID> {
        lock.withLock { Set(merges.flatMap { $0.inserted.union($0.updated).union($0.deleted) }) }
    }
    var allOnMain: Bool { lock.withLock { !offMain } }
}

/// Counts the notifications of one name (from one object, or any), from any thread.
private final class NotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var posted = 0
    private var observer: (any NSObjectProtocol)?

    init(_ name: Notification.Name, from object: AnyObject?) {
        observer = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [weak self] _ in
            self?.lock.withLock { self?.posted += 1 }
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    var count: Int { lock.withLock { posted } }
}
