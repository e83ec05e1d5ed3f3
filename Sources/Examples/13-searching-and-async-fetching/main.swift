import Foundation
import KataSupport
// Persistence-only: FetchPredicate(parsing:), a throwing parse Core Data has not, and a case-insensitive sort
// without Objective-C selectors.
@_spi(PredicateParsing) @_spi(SortCaseFolding) import Persistence

// Lesson 13's runnable example: a search that ignores case and accents, filter chips that must all hold, and the
// user's text taken literally; then a search over many rows, first blocking the main queue, then as an asynchronous
// fetch with a progress, cancelled half-way, and the queue its completion arrives on. `swift run lessons run 13`.

func makeContainer() -> PersistentContainer {
    let container = PersistentContainer(name: CookbookModel.name, managedObjectModel: try! CookbookModel.shared())
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
    container.loadPersistentStores { _, error in
        if let error { print("could not load the store: \(error)") }
    }
    return container
}

/// Lets the main queue — the view context's queue — run until `condition` holds (ten seconds at most).
func runMainQueue(until condition: () -> Bool) {
    let deadline = Date(timeIntervalSinceNow: 10)
    while !condition() && Date() < deadline { RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.001)) }
}

/// A value that blocks on any queue may set.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// The same search, returning object IDs.
func idsOnly(_ request: FetchRequest<Dish>) -> FetchRequest<ManagedObjectID> {
    let ids = FetchRequest<ManagedObjectID>(entityName: "Dish")
    ids.resultType = .managedObjectIDResultType
    ids.predicate = request.predicate
    ids.sortDescriptors = request.sortDescriptors
    return ids
}

func seconds(since start: Date) -> String { String(format: "%.3f s", Date().timeIntervalSince(start)) }

let container = makeContainer()
let context = container.viewContext
for name in CookbookModel.menu { Dish(context: context).name = name }
try context.save()

/// The names of the dishes `predicate` finds, by name; or the error that building it threw.
func names(_ makePredicate: () throws -> FetchPredicate) -> String {
    do {
        let request: FetchRequest<Dish> = Dish.fetchRequest()
        request.predicate = try makePredicate()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Dish.name, ascending: true, caseInsensitive: true)]
        let found = try context.fetch(request).map(\.name)
        return found.isEmpty ? "nothing" : found.joined(separator: " · ")
    } catch {
        return "error: " + ("\(error)".split(separator: "\n").first.map(String.init) ?? "")   // its first line
    }
}

print("1. \"creme brulee\": case and accents")
// region: options
let plain = FetchPredicate(format: "name CONTAINS %@", "creme brulee")
let caseOnly = FetchPredicate(format: "name CONTAINS[c] %@", "creme brulee")
let caseAndAccents = FetchPredicate(format: "name CONTAINS[cd] %@", "creme brulee")
// endregion: options
print("   CONTAINS      finds \(names { plain })")
print("   CONTAINS[c]   finds \(names { caseOnly })")
print("   CONTAINS[cd]  finds \(names { caseAndAccents })")

print("2. Filter chips above a mailbox: every chip must hold")
// Another screen with the same question: the chips a user switched on above a mailbox, each one condition of a
// different kind. Lesson 15's mail model, in a store of its own.
let mail = PersistentContainer(name: MailModel.name, managedObjectModel: try MailModel.make())
mail.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
mail.loadPersistentStores { _, error in
    if let error { print("could not load the mail store: \(error)") }
}
let mailbox = mail.viewContext
for (minute, (subject, sender, folder, unread)) in [
    ("Invoice 42", "Ada", "work", true), ("Lunch on Friday", "Ada", "inbox", true),
    ("Quarterly figures", "Grace", "work", true), ("Invoice 41", "Ada", "work", false),
    ("Boarding pass", "Zoë", "travel", true),
].enumerated() {
    let message = MailMessage(context: mailbox)
    (message.subject, message.sender, message.folder, message.unread, message.received)
        = (subject, sender, folder, unread, minute)
}
try mailbox.save()

// region: chips
/// A filter chip the user switched on; each narrows the list.
enum Chip {
    case from(String)       // part of the sender's name, whatever its case and accents
    case folder(String)
    case unreadOnly

    var condition: FetchPredicate {
        switch self {
        case .from(let name): FetchPredicate(format: "sender CONTAINS[cd] %@", name)
        case .folder(let folder): FetchPredicate(format: "folder == %@", folder)
        case .unreadOnly: FetchPredicate(format: "unread == YES")
        }
    }
}

/// Every chip must hold, whatever the order they were switched on in; no chip, no predicate: every message.
func filter(_ chips: [Chip]) -> FetchPredicate? {
    chips.isEmpty ? nil : CompoundPredicate(andPredicateWithSubpredicates: chips.map(\.condition))
}
// endregion: chips

/// The subjects of the messages `predicate` lets through, oldest first.
func subjects(_ predicate: FetchPredicate?) throws -> String {
    let request: FetchRequest<MailMessage> = MailMessage.fetchRequest()
    request.predicate = predicate
    request.sortDescriptors = [FetchSortDescriptor(key: "received", ascending: true)]
    let found = try mailbox.fetch(request).map(\.subject)
    return found.isEmpty ? "nothing" : found.joined(separator: " · ")
}
let chips: [Chip] = [.from("ada"), .folder("work"), .unreadOnly]
print("   no chip                        finds \(try subjects(filter([])))")
print("   from ada                       finds \(try subjects(filter([.from("ada")])))")
print("   from ada, work, unread (AND)   finds \(try subjects(filter(chips)))")
print("   unread, work, from ada (AND)   finds \(try subjects(filter(chips.reversed())))")
print("   any chip (OR)                  finds "
    + "\(try subjects(CompoundPredicate(orPredicateWithSubpredicates: chips.map(\.condition))))")

print("3. What the user types is an argument, never part of the format")
for typed in ["mom's", "x' OR name CONTAINS 'e", "100%"] {
    print("   typed \(typed)")
    // region: interpolated
    let formatted = { try FetchPredicate(parsing: "name CONTAINS[cd] '\(typed)'") }  // WRONG: typed becomes format
    // endregion: interpolated
    // region: bound
    let bound = { FetchPredicate(format: "name CONTAINS[cd] %@", typed) }           // typed is a value
    // endregion: bound
    print("     written into the format: \(names(formatted))")
    print("     passed as an argument:   \(names(bound))")
}

// A bigger store, like the source document's: each dish's name a shuffle of the letters of "LaSErBeAmZ".
let rows = 200_000
let letters = Array("LaSErBeAmZ")
var generator = SystemRandomNumberGenerator()
let shuffled: [[String: Any]] = (0..<rows).map { _ in ["name": String(letters.shuffled(using: &generator))] }
try context.execute(BatchInsertRequest(entityName: "Dish", objects: shuffled))

// region: three-terms
let search: FetchRequest<Dish> = Dish.fetchRequest()
search.predicate = FetchPredicate(format: "name CONTAINS[cd] %@ AND name CONTAINS[cd] %@ AND name CONTAINS[cd] %@",
                                      "la", "be", "rz")
// endregion: three-terms

print("4. Three CONTAINS[cd] terms over \(rows) shuffled names")
// Something else the main queue has to do meanwhile: a timer that should fire every 10 ms, as a UI would.
let ticks = Box(0)
let timer = Timer(timeInterval: 0.01, repeats: true) { _ in ticks.value += 1 }
RunLoop.main.add(timer, forMode: .default)
var start = Date()
let blocking = try context.fetch(search)
print("   fetch(_:) on the main queue: \(blocking.count) dishes in \(seconds(since: start)); "
    + "the timer fired \(ticks.value) times meanwhile")
context.reset()         // forget those objects: the next fetch registers its own

ticks.value = 0
start = Date()
let completion = Box<String?>(nil)
// region: async-fetch
let asynchronous = AsynchronousFetchRequest(fetchRequest: search) { result in
    // On the view context's queue: the main queue.
    let count = result.finalResult?.count ?? 0
    completion.value = "completion on the main thread: \(Thread.isMainThread); \(count) dishes in "
        + "\(seconds(since: start)); the timer fired \(ticks.value) times meanwhile"
}
let loading = Progress(totalUnitCount: 1)              // what the screen's progress bar shows
loading.becomeCurrent(withPendingUnitCount: 1)         // current while execute runs: the fetch reports to it
let running = try context.execute(asynchronous)       // returns at once: an AsynchronousFetchResult<Dish>
loading.resignCurrent()
// endregion: async-fetch
// Typed as the base class, as in Core Data: the progress is PersistentStoreAsynchronousResult's.
let fetchProgress = (running as? PersistentStoreAsynchronousResult)?.progress
let handedOut = fetchProgress.map { "\($0.completedUnitCount) of \($0.totalUnitCount) rows" } ?? "nil"
print("   execute(_:) returned after \(seconds(since: start)); the result's progress: \(handedOut)")
var seen: [String] = []
runMainQueue {
    // The main queue stays free: it can read the progress (and redraw a progress bar) while the rows stream in.
    let fraction = loading.fractionCompleted
    if fraction >= Double(seen.count + 1) / 4, seen.count < 3 { seen.append("\(Int(fraction * 100)) %") }
    return completion.value != nil
}
print("   progress read on the main queue while the rows streamed in: \(seen.joined(separator: ", ")), then "
    + "\(Int(loading.fractionCompleted * 100)) %")
print("   " + (completion.value ?? "no completion within ten seconds"))
context.reset()

print("5. Cancelling half-way, through a progress of the caller's own")
let cancelled = Box(false)
// region: cancel
let screenProgress = Progress(totalUnitCount: 1)
screenProgress.becomeCurrent(withPendingUnitCount: 1)      // the fetch's progress becomes its child
let another = try context.execute(AsynchronousFetchRequest(fetchRequest: search) { result in
    let code = (result.operationError as NSError?)?.code
    print("   completion: finalResult \(result.finalResult.map { "\($0.count) dishes" } ?? "nil"), "
        + "operationError \(code.map(String.init) ?? "nil") — \(result.operationError?.localizedDescription ?? "")")
    cancelled.value = true
})
screenProgress.resignCurrent()
// endregion: cancel
runMainQueue { screenProgress.fractionCompleted >= 0.5 || cancelled.value }
let seenAt = screenProgress.fractionCompleted
screenProgress.cancel()                 // cancels its children too: the fetch stops reading
let own = (another as? PersistentStoreAsynchronousResult)?.progress
print("   cancelled the caller's progress at \(Int(seenAt * 100)) %; the fetch's own progress: cancelled "
    + "\(own?.isCancelled ?? false), \(own?.completedUnitCount ?? 0) of \(own?.totalUnitCount ?? 0) rows read")
runMainQueue { cancelled.value }
print("   objects the context registered: \(context.registeredObjects.count)")

print("6. The completion runs on the queue of the context that executed the request")
let background = container.newBackgroundContext()
let done = Box(false)
let searchForIDs = idsOnly(search)
// region: background
try background.performAndWait {
    _ = try background.execute(AsynchronousFetchRequest(fetchRequest: searchForIDs) { result in
        // On the background context's queue: not the main thread. Only the IDs may leave it.
        let ids = result.finalResult ?? []
        print("   background context: completion on the main thread: \(Thread.isMainThread); \(ids.count) IDs")
        context.perform {
            // The main queue: the view context turns IDs into its own objects, faults until read.
            let dishes = ids.map { context.object(with: $0) }
            print("   handed to the view context: on the main thread: \(Thread.isMainThread); "
                + "\(dishes.filter(\.isFault).count) of \(dishes.count) still faults")
            done.value = true
        }
    })
}
// endregion: background
runMainQueue { done.value }
timer.invalidate()
