import Foundation
import KataSupport
import Persistence

// Lesson 14's runnable example: a budget app whose store file is also written by a bank-statement import (a batch
// insert) and by a home-screen widget in a process of its own — this program, started again with --widget. The
// app records persistent history, reads it after its token, skips its own saves, merges the rest into the view
// context, keeps its token between launches, and purges what every reader has read. `swift run lessons run 14`.

// MARK: The widget: another process on the same file

/// `--widget STORE BOOKMARK TITLE CENTS`: what the widget's "+" button does. It reads the history bookmark it is at
/// (the newest transaction when it wakes up), adds one expense signed "widget", and prints when it committed.
/// `--widget-without-history STORE`: the same widget built without the history option.
if CommandLine.arguments.count > 2, CommandLine.arguments[1].hasPrefix("--widget") {
    let arguments = CommandLine.arguments
    let withHistory = arguments[1] == "--widget"
    do {
        let widget = try Budget.open(URL(fileURLWithPath: arguments[2]), author: "widget", history: withHistory)
        let coordinator = widget.persistentStoreCoordinator
        if withHistory, arguments.count > 3, let newest = coordinator.currentPersistentHistoryToken(fromStores: nil) {
            try NSKeyedArchiver.archivedData(withRootObject: newest, requiringSecureCoding: true)
                .write(to: URL(fileURLWithPath: arguments[3]), options: .atomic)
        }
        let context = widget.viewContext
        context.name = "widget"
        let expense = Expense(context: context)
        expense.title = arguments.count > 4 ? arguments[4] : "Coffee"
        expense.cents = arguments.count > 5 ? Int(arguments[5]) ?? 320 : 320
        try context.save()
        let committed = Date().timeIntervalSince1970
        let request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        let all = (try context.execute(request) as? PersistentHistoryResult)?.result as? [PersistentHistoryTransaction]
        print("committed \(all?.last?.transactionNumber ?? 0) \(committed)")
        exit(0)
    } catch {
        let error = error as NSError
        print("failed \(error.code) \(error.localizedDescription)")
        exit(1)
    }
}

/// Starts this program again as the widget, waits for it, and returns what it printed.
@discardableResult
func runWidget(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    // Persistence warns on standard error when a store with history is opened without the option (Core Data logs
    // a line on the console); the example says what happened on its own.
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Runs the main queue — where merges into the view context happen — until `condition` holds (five seconds at most).
func waitFor(_ condition: () -> Bool) {
    let deadline = Date(timeIntervalSinceNow: 5)
    while !condition() && Date() < deadline { RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.005)) }
}

/// The expenses the view context shows: a fresh fetch, as a list on screen would show them.
func shown(_ context: ManagedObjectContext) throws -> [Expense] {
    let request: FetchRequest<Expense> = Expense.fetchRequest()
    request.sortDescriptors = [FetchSortDescriptor(keyPath: \Expense.title, ascending: true)]
    return try context.fetch(request)
}

/// Asks `history` for a catch-up (or a start-over) and runs the main queue — where it merges — until it is done.
func caughtUp(_ history: BudgetHistory, startingOver: Bool = false) throws -> BudgetHistory.Report {
    let outcome = Outcome()
    if startingOver { history.startOver(then: outcome.set) } else { history.catchUp(then: outcome.set) }
    waitFor { outcome.result != nil }
    guard let result = outcome.result else { throw CocoaError(.coreData) }
    return try result.get()
}

/// The whole history of the store, read through a context of its own.
func wholeHistory(_ container: PersistentContainer) throws -> [PersistentHistoryTransaction] {
    let context = container.newBackgroundContext()
    return try context.performAndWait {
        let request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        let result = try context.execute(request) as? PersistentHistoryResult
        return result?.result as? [PersistentHistoryTransaction] ?? []
    }
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("budget-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let storeURL = folder.appendingPathComponent("Budget.sqlite")
let appBookmark = folder.appendingPathComponent("app-token.data")
let widgetBookmark = folder.appendingPathComponent("widget-token.data")

/// The number of the transaction `token` marks, looked up in `history`.
func number(of token: PersistentHistoryToken?, in history: [PersistentHistoryTransaction]) -> String {
    guard let token else { return "none" }
    return history.first { $0.token == token }.map { String($0.transactionNumber) } ?? "?"
}

print("1. Turning history on")
do {
    // An older version of the app used the file without history.
    let old = try Budget.open(storeURL, author: "app", history: false)
    let rent = Expense(context: old.viewContext)
    rent.title = "Rent"
    rent.cents = 95_000
    try old.viewContext.save()
}
var app = try Budget.open(storeURL, author: "app")
print("   the file had no history: turned on, the history holds \(try wholeHistory(app).count) transactions; the "
    + "rent saved before is in none")
let groceries = Expense(context: app.viewContext)
groceries.title = "Groceries"
groceries.cents = 4_210
try app.viewContext.save()
for transaction in try wholeHistory(app) { print("   the first save: \(Budget.describe(transaction))") }

print("")
print("2. A batch import is recorded too")
var appHistory = BudgetHistory(app, me: "app", bookmarkFile: appBookmark)
_ = try caughtUp(appHistory)                                  // nothing from others so far
let firstBookmark = app.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
let firstHistory = try wholeHistory(app)
do {
    let counter = SaveCounter()
    // region: import
    let importer = app.newBackgroundContext()
    importer.name = "statement import"
    importer.transactionAuthor = "bank-import"
    let lines = (1...500).map { ["title": "Card payment \($0)", "cents": 100 + $0] as [String: Any] }
    try importer.performAndWait {
        _ = try importer.execute(BatchInsertRequest(entityName: "Expense", objects: lines))
    }
    // endregion: import
    print("   500 statement lines inserted in SQL; did-save notifications: \(counter.count); the view context "
        + "holds \(app.viewContext.registeredObjects.count) expense, as before")
    for transaction in try wholeHistory(app).dropFirst() { print("   in the history: \(Budget.describe(transaction))") }
}

print("")
print("3. Catching up: ask for the others' transactions, merge them")
do {
    let view = app.viewContext
    groceries.cents = 4_390                                   // the user fixes an amount on screen
    try view.save()
    // What the merge tells the view context's observers (a list on screen would redraw on it).
    let told = MergeTally()
    let watch = NotificationCenter.default.addObserver(
        forName: ManagedObjectContext.didChangeObjectsNotification, object: view, queue: nil
    ) { note in
        told.add((note.userInfo?[ManagedObjectContext.NotificationKey.insertedObjects.rawValue] as? Set<ManagedObject>)?.count ?? 0)
    }
    let report = try caughtUp(appHistory)
    NotificationCenter.default.removeObserver(watch)
    let own = try wholeHistory(app).filter { $0.author == "app" }.last?.transactionNumber ?? 0
    print("   read after the app's bookmark: "
        + report.read.map { "\($0.transactionNumber) (\($0.author ?? "nil"))" }.joined(separator: ", ")
        + "; the app's own save, transaction \(own), was left out by the store")
    print("   merged \(report.read.count) transaction (\(report.inserted) inserted IDs) into the view context; its "
        + "did-change named \(told.count) new expenses")
}

print("")
print("4. A widget writes the same file from another process")
do {
    // Let the notifications of the saves above go by first: this part watches the widget's alone.
    RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.3))
    let arrival = NotificationArrival()
    let history = appHistory
    // region: watch
    let observer = NotificationCenter.default.addObserver(
        forName: .NSPersistentStoreRemoteChange, object: app.persistentStoreCoordinator, queue: nil
    ) { note in
        let seenAt = Date(), onMain = Thread.isMainThread
        let token = note.userInfo?[NSPersistentHistoryTokenKey] as? PersistentHistoryToken
        // Returns at once: the history's own queue reads, and merges on the view context's queue.
        history.catchUp { result in
            arrival.record(token, at: seenAt, onMain: onMain, merged: (try? result.get())?.read.count ?? 0)
        }
    }
    // endregion: watch
    defer { NotificationCenter.default.removeObserver(observer) }
    let printed = try runWidget(["--widget", storeURL.path, widgetBookmark.path, "Coffee", "320"])
    let words = printed.split(separator: " ")
    waitFor { arrival.merged > 0 }
    let coffee = try shown(app.viewContext).filter { $0.title == "Coffee" }.map(Budget.describe)
    if words.count == 3, let committed = Double(words[2]), let seen = arrival.first,
       let transaction = try wholeHistory(app).last {
        let latency = Int(((seen.at.timeIntervalSince1970 - committed) * 1000).rounded())
        print("   the widget committed transaction \(words[1]); the app's coordinator posted "
            + "NSPersistentStoreRemoteChange \(latency) ms later, \(seen.onMain ? "on the main thread" : "on a private queue")")
        let ours = String(ProcessInfo.processInfo.processIdentifier)
        print("   the transaction's author: \"\(transaction.author ?? "nil")\", its process: "
            + "\(transaction.processID == ours ? "this one" : "another one"); the notification's token is its token: "
            + "\(seen.token == transaction.token)")
    }
    print("   merged into the view context: \(coffee.joined(separator: ", "))")
    let refused = try runWidget(["--widget-without-history", storeURL.path])
    print("   a widget built without the history option: its save fails with "
        + "\(refused.split(separator: " ").dropFirst().first ?? "nothing")")
}

print("")
print("5. The token between launches")
do {
    let bytes = (try? Data(contentsOf: appBookmark))?.count ?? 0
    print("   the app's token is archived in app-token.data (\(bytes) bytes); the app quits")
    try runWidget(["--widget", storeURL.path, widgetBookmark.path, "Bus ticket", "280"])
    app = try Budget.open(storeURL, author: "app")            // a new launch: a new container on the file
    // region: relaunch
    appHistory = BudgetHistory(app, me: "app", bookmarkFile: appBookmark)
    let report = try caughtUp(appHistory)
    // endregion: relaunch
    print("   relaunched, the app reads \(report.read.count) transaction after its bookmark and merges it: "
        + report.read.map { Budget.describe($0) }.joined(separator: "; "))
}

print("")
print("6. Purging what every reader has read")
do {
    let before = try wholeHistory(app)
    let readers = [appBookmark, widgetBookmark].map { file in
        (try? Data(contentsOf: file)).flatMap {
            try? NSKeyedUnarchiver.unarchivedObject(ofClass: PersistentHistoryToken.self, from: $0)
        }
    }
    print("   history: transactions \(before.first!.transactionNumber)–\(before.last!.transactionNumber); the app "
        + "has read up to \(number(of: readers[0], in: before)), the widget up to \(number(of: readers[1], in: before))")
    // region: purge
    // The slowest reader is the one with the most left to read: ask the history what comes after each bookmark.
    // Only the transactions are needed, not their changes. A bookmark the history no longer knows (134301) is
    // a reader that will start over and needs none of it; a reader with no bookmark yet needs all of it.
    let janitor = app.newBackgroundContext()
    let oldestNeeded = try janitor.performAndWait { () throws -> PersistentHistoryToken? in
        var slowest: (bookmark: PersistentHistoryToken, unread: Int)?
        for bookmark in readers {
            guard let bookmark else { return nil }
            let after = PersistentHistoryChangeRequest.fetchHistory(after: bookmark)
            after.resultType = .transactionsOnly
            let unread: Int
            do {
                unread = ((try janitor.execute(after) as? PersistentHistoryResult)?.result as? [Any])?.count ?? 0
            } catch let error as NSError where error.code == NSPersistentHistoryTokenExpiredError {
                continue
            }
            if unread > slowest?.unread ?? -1 { slowest = (bookmark, unread) }
        }
        guard let slowest else { return nil }
        _ = try janitor.execute(PersistentHistoryChangeRequest.deleteHistory(before: slowest.bookmark))
        return slowest.bookmark
    }
    // endregion: purge
    let left = try wholeHistory(app).map { String($0.transactionNumber) }
    print("   purged before transaction \(number(of: oldestNeeded, in: before)): the history holds "
        + left.joined(separator: ", "))

    let lateFile = folder.appendingPathComponent("late.data")
    if let firstBookmark {
        try NSKeyedArchiver.archivedData(withRootObject: firstBookmark, requiringSecureCoding: true).write(to: lateFile)
    }
    // region: expired
    let late = BudgetHistory(app, me: "app", bookmarkFile: lateFile)
    do {
        _ = try caughtUp(late)
    } catch let error as NSError where error.code == NSPersistentHistoryTokenExpiredError {
        print("   a reader still at transaction \(number(of: firstBookmark, in: firstHistory)) gets error \(error.code)")
        let fresh = try caughtUp(late, startingOver: true)
        print("   it re-reads what its context holds and goes on from transaction "
            + number(of: fresh.bookmark, in: try wholeHistory(app)))
    }
    // endregion: expired
}
try? FileManager.default.removeItem(at: folder)

/// What the app's remote-change observer saw: when the first notification came, on which thread, with which token.
final class NotificationArrival: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: (at: Date, onMain: Bool, token: PersistentHistoryToken?)?
    private var mergedCount = 0

    func record(_ token: PersistentHistoryToken?, at date: Date, onMain: Bool, merged: Int) {
        lock.withLock {
            if seen == nil { seen = (date, onMain, token) }
            mergedCount += merged
        }
    }

    var first: (at: Date, onMain: Bool, token: PersistentHistoryToken?)? { lock.withLock { seen } }
    var merged: Int { lock.withLock { mergedCount } }
}

/// The result of one catch-up, handed over from the history's queue.
final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<BudgetHistory.Report, any Error>?

    func set(_ result: Result<BudgetHistory.Report, any Error>) { lock.withLock { stored = result } }
    var result: Result<BudgetHistory.Report, any Error>? { lock.withLock { stored } }
}

/// How many new objects a context's did-change notifications named.
final class MergeTally: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0

    func add(_ count: Int) { lock.withLock { total += count } }
    var count: Int { lock.withLock { total } }
}
