import Foundation
import KataSupport
// Persistence-only: FetchPredicate(parsing:), a throwing parse Core Data has not.
@_spi(PredicateParsing) import Persistence

// Lesson 13's runnable example, on a mail client (lesson 15's mail model) rather than the katas' cookbook: a sender
// typed without its accents, filter chips that must all hold, and a subject the user typed taken literally; then a
// mailbox of many messages, read first blocking the main queue, then as an asynchronous fetch with a progress,
// cancelled when the user leaves the folder, and in a background context that hands one screenful of IDs to the main
// queue. `swift run lessons run 13`.

let mail = PersistentContainer(name: MailModel.name, managedObjectModel: try MailModel.make())
mail.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
mail.loadPersistentStores { _, error in
    if let error { print("could not load the mail store: \(error)") }
}
let mailbox = mail.viewContext

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

func seconds(since start: Date) -> String { String(format: "%.3f s", Date().timeIntervalSince(start)) }

for (minute, (subject, sender, folder, unread)) in [
    ("Invoice 42", "Ada", "work", true), ("Lunch on Friday", "Ada", "inbox", true),
    ("Quarterly figures", "Grace", "work", true), ("Invoice 41", "Ada", "work", false),
    ("Boarding pass", "Zoë Okafor", "travel", true), ("Mom's birthday", "ZOË BRANDT", "family", false),
    ("100% attendance", "Grace", "school", false), ("1000 photos from the trip", "Zoë Okafor", "travel", false),
].enumerated() {
    let message = MailMessage(context: mailbox)
    (message.subject, message.sender, message.folder, message.unread, message.received)
        = (subject, sender, folder, unread, minute)
}
try mailbox.save()

/// The subjects of the messages `predicate` lets through, oldest first; or the error that building it threw.
func subjects(_ makePredicate: () throws -> FetchPredicate?) -> String {
    do {
        let request: FetchRequest<MailMessage> = MailMessage.fetchRequest()
        request.predicate = try makePredicate()
        request.sortDescriptors = [FetchSortDescriptor(key: "received", ascending: true)]
        let found = try mailbox.fetch(request).map(\.subject)
        return found.isEmpty ? "nothing" : found.joined(separator: " · ")
    } catch {
        return "error: " + ("\(error)".split(separator: "\n").first.map(String.init) ?? "")   // its first line
    }
}

/// The senders `predicate` finds, each once.
func senders(_ predicate: FetchPredicate) throws -> String {
    let request: FetchRequest<MailMessage> = MailMessage.fetchRequest()
    request.predicate = predicate
    request.sortDescriptors = [FetchSortDescriptor(key: "received", ascending: true)]
    var found: [String] = []
    for sender in try mailbox.fetch(request).map(\.sender) where !found.contains(sender) { found.append(sender) }
    return found.isEmpty ? "nothing" : found.joined(separator: " · ")
}

print("1. \"zoe\" typed into the To: field: case and accents")
// region: options
let plain = FetchPredicate(format: "sender BEGINSWITH %@", "zoe")
let caseOnly = FetchPredicate(format: "sender BEGINSWITH[c] %@", "zoe")
let caseAndAccents = FetchPredicate(format: "sender BEGINSWITH[cd] %@", "zoe")
// endregion: options
print("   BEGINSWITH      finds \(try senders(plain))")
print("   BEGINSWITH[c]   finds \(try senders(caseOnly))")
print("   BEGINSWITH[cd]  finds \(try senders(caseAndAccents))")

print("2. Filter chips above a mailbox: every chip must hold")
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

let chips: [Chip] = [.from("ada"), .folder("work"), .unreadOnly]
print("   no chip                        finds \(subjects { filter([]) })")
print("   from ada                       finds \(subjects { filter([.from("ada")]) })")
print("   from ada, work, unread (AND)   finds \(subjects { filter(chips) })")
print("   unread, work, from ada (AND)   finds \(subjects { filter(chips.reversed()) })")
print("   any chip (OR)                  finds "
    + "\(subjects { CompoundPredicate(orPredicateWithSubpredicates: chips.map(\.condition)) })")

print("3. What the user types is an argument, never part of the format")
for typed in ["mom's", "x' OR subject CONTAINS 'e", "100%"] {
    print("   typed \(typed)")
    // region: interpolated
    let formatted = { try FetchPredicate(parsing: "subject BEGINSWITH[cd] '\(typed)'") }  // WRONG: typed becomes format
    // endregion: interpolated
    // region: bound
    let bound = { FetchPredicate(format: "subject BEGINSWITH[cd] %@", typed) }             // typed is a value
    // endregion: bound
    print("     written into the format: \(subjects(formatted))")
    print("     passed as an argument:   \(subjects(bound))")
}

// A bigger mailbox, like the source document's store: each subject a shuffle of the letters of "LaSErBeAmZ",
// received one minute after the other.
let rows = 200_000
let letters = Array("LaSErBeAmZ")
var generator = SystemRandomNumberGenerator()
let shuffled: [[String: Any]] = (0..<rows).map { minute in
    ["subject": String(letters.shuffled(using: &generator)), "received": 100 + minute]
}
try mailbox.execute(BatchInsertRequest(entityName: "MailMessage", objects: shuffled))

// region: three-terms
let search: FetchRequest<MailMessage> = MailMessage.fetchRequest()
search.predicate = FetchPredicate(
    format: "subject CONTAINS[cd] %@ AND subject CONTAINS[cd] %@ AND subject CONTAINS[cd] %@", "la", "be", "rz")
search.sortDescriptors = [FetchSortDescriptor(key: "received", ascending: false)]     // newest first
// endregion: three-terms

print("4. Three CONTAINS[cd] terms over \(rows) shuffled subjects")
// Something else the main queue has to do meanwhile: a timer that should fire every 10 ms, as a UI would.
let ticks = Box(0)
let timer = Timer(timeInterval: 0.01, repeats: true) { _ in ticks.value += 1 }
RunLoop.main.add(timer, forMode: .default)
var start = Date()
let blocking = try mailbox.fetch(search)
print("   fetch(_:) on the main queue: \(blocking.count) messages in \(seconds(since: start)); "
    + "the timer fired \(ticks.value) times meanwhile")
mailbox.reset()         // forget those objects: the next fetch registers its own

ticks.value = 0
start = Date()
let completion = Box<String?>(nil)
// region: async-fetch
let asynchronous = AsynchronousFetchRequest(fetchRequest: search) { result in
    // On the view context's queue: the main queue.
    let count = result.finalResult?.count ?? 0
    completion.value = "completion on the main thread: \(Thread.isMainThread); \(count) messages in "
        + "\(seconds(since: start)); the timer fired \(ticks.value) times meanwhile"
}
let loading = Progress(totalUnitCount: 1)              // what the folder's progress bar shows
loading.becomeCurrent(withPendingUnitCount: 1)         // current while execute runs: the fetch reports to it
let running = try mailbox.execute(asynchronous)       // returns at once: an AsynchronousFetchResult<MailMessage>
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
mailbox.reset()

print("5. The user leaves the folder half-way: cancelling through a progress of the caller's own")
let cancelled = Box(false)
// region: cancel
let folderProgress = Progress(totalUnitCount: 1)
folderProgress.becomeCurrent(withPendingUnitCount: 1)      // the fetch's progress becomes its child
let another = try mailbox.execute(AsynchronousFetchRequest(fetchRequest: search) { result in
    let code = (result.operationError as NSError?)?.code
    print("   completion: finalResult \(result.finalResult.map { "\($0.count) messages" } ?? "nil"), "
        + "operationError \(code.map(String.init) ?? "nil") — \(result.operationError?.localizedDescription ?? "")")
    cancelled.value = true
})
folderProgress.resignCurrent()
// endregion: cancel
runMainQueue { folderProgress.fractionCompleted >= 0.5 || cancelled.value }
let seenAt = folderProgress.fractionCompleted
folderProgress.cancel()                 // cancels its children too: the fetch stops reading
let own = (another as? PersistentStoreAsynchronousResult)?.progress
print("   cancelled the caller's progress at \(Int(seenAt * 100)) %; the fetch's own progress: cancelled "
    + "\(own?.isCancelled ?? false), \(own?.completedUnitCount ?? 0) of \(own?.totalUnitCount ?? 0) rows read")
runMainQueue { cancelled.value }
print("   objects the context registered: \(mailbox.registeredObjects.count)")

print("6. The completion runs on the queue of the context that executed the request")
let background = mail.newBackgroundContext()
let done = Box(false)
let screenful = 20
// region: background
let newestIDs = FetchRequest<ManagedObjectID>(entityName: "MailMessage")
newestIDs.resultType = .managedObjectIDResultType
newestIDs.predicate = search.predicate
newestIDs.sortDescriptors = search.sortDescriptors
try background.performAndWait {
    _ = try background.execute(AsynchronousFetchRequest(fetchRequest: newestIDs) { result in
        // On the background context's queue: not the main thread. Only the IDs may leave it.
        let ids = result.finalResult ?? []
        print("   background context: completion on the main thread: \(Thread.isMainThread); \(ids.count) IDs")
        mailbox.perform {
            // The main queue: the view context makes objects for the first screenful only, faults until read.
            let firstRows = ids.prefix(screenful).map { mailbox.object(with: $0) }
            print("   handed to the view context: on the main thread: \(Thread.isMainThread); the first "
                + "\(firstRows.count) of \(ids.count) as objects, \(firstRows.filter(\.isFault).count) still faults")
            done.value = true
        }
    })
}
// endregion: background
runMainQueue { done.value }
timer.invalidate()
