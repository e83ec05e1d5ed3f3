// Persistence-only: the concurrency debugger in code (Core Data has only the launch argument).
@_spi(ConcurrencyDebugging) import Persistence
import Foundation
import KataSupport

// Lesson 7's runnable example: a context used off its queue, caught by the concurrency debugger; perform against
// performAndWait; an object against its objectID; re-entrant performAndWait against a hand-made wait; and the
// deadlock of two queues waiting for each other; a throwaway context for one task; and three ways to write in the
// background — a sibling context with automatic merging, a private writer under the UI context, and a background
// child of the UI context. `swift run lessons run 7`.

let container = PersistentContainer(name: PodcastModel.name, managedObjectModel: try PodcastModel.shared())
container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
container.loadPersistentStores { _, error in
    if let error { print("could not load the store: \(error)") }
}
let viewContext = container.viewContext
for title in ["Pilot", "Finale", "Bonus"] {
    Episode(context: viewContext).title = title
}
try viewContext.save()

/// Lets the main queue run — as an app's main run loop does all the time — until `done()` or `seconds` have passed.
/// Returns whether `done()` became true.
@discardableResult
func runMainQueue(for seconds: TimeInterval = 2, until done: () -> Bool) -> Bool {
    let deadline = Date() + seconds
    while !done() && Date() < deadline {
        RunLoop.main.run(until: Date() + 0.01)
    }
    return done()
}

/// A flag set on one thread and read on another.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    var isRaised: Bool { lock.withLock { raised } }
    func raise() { lock.withLock { raised = true } }
}

// region: debugger-on
// What every kata does: check every use of a context and its objects, and report what breaks the rule instead of
// stopping the program (with no handler, the first violation stops it, as Core Data's debugger does).
ConcurrencyDebugging.violationHandler = { violation in
    print("   debugger: \(violation.operation) used off the queue of \(violation.context)")
}
ConcurrencyDebugging.isEnabled = true          // or run with PERSISTENCE_CONCURRENCY_DEBUG=1
// endregion: debugger-on

print("1. Document 000's BAD example: main-context objects used on a background thread")
let badDone = Flag()
// region: bad
DispatchQueue.global().async {                 // a network callback, say: some background thread
    let episodes = viewContext.performAndWait {    // the fetch itself runs on the main queue…
        let request: FetchRequest<Episode> = Episode.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.title, ascending: true)]
        return (try? viewContext.fetch(request)) ?? []
    }
    // …but the objects come out of the block, and are read here, on the wrong thread:
    print("   titles: \(episodes.map(\.title)) — right this time, by luck")
    badDone.raise()
}
// endregion: bad
runMainQueue { badDone.isRaised }
print("   the same work inside the context's performAndWait:")
let goodDone = Flag()
// region: good
DispatchQueue.global().async {
    let titles = viewContext.performAndWait {  // runs on the main queue, returns when done
        let request: FetchRequest<Episode> = Episode.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.title, ascending: true)]
        return ((try? viewContext.fetch(request)) ?? []).map(\.title)  // values leave the block, objects do not
    }
    print("   fetched \(titles), no report")
    goodDone.raise()
}
// endregion: good
runMainQueue { goodDone.isRaised }

print("")
print("2. perform returns at once; performAndWait returns when its block is done")
// region: perform-order
let background = container.newBackgroundContext()
viewContext.perform { print("   (b) the main context's perform block runs, once the main queue is free") }
print("   (a) perform returned")
let count = background.performAndWait {
    (try? background.count(for: Episode.fetchRequest())) ?? -1
}
print("   (c) performAndWait returned its block's result: \(count) episodes")
// endregion: perform-order
runMainQueue(for: 0.2) { false }

print("")
print("3. An object stays in its context; its objectID travels")
let pilot = try viewContext.fetch(Episode.fetchRequest()).first { $0.title == "Pilot" }!
let smuggled = Flag()
// region: object-across
nonisolated(unsafe) let caller = pilot         // a main-context object, smuggled past Swift's checks
DispatchQueue.global().async {
    background.performAndWait {
        caller.listened = true                 // wrong: this object belongs to the main context
    }
    smuggled.raise()
}
// endregion: object-across
runMainQueue { smuggled.isRaised }
viewContext.rollback()
// region: object-id
let pilotID = pilot.objectID                   // an ID is a value: any thread, any context
try background.performAndWait {
    let mine = try background.existingObject(with: pilotID) as? Episode
    mine?.listened = true                      // the background context's own copy
    try background.save()
}
// endregion: object-id
let check = container.newBackgroundContext()
let listenedInStore = try check.performAndWait { try (check.existingObject(with: pilotID) as? Episode)?.listened }
print("   saved through the background context's copy; read back from the store, Pilot is listened: "
    + "\(listenedInStore ?? false)")

print("")
print("4. performAndWait is re-entrant; a wait made by hand is not")
// region: reentrant
let nested = background.performAndWait {
    background.performAndWait { "the inner block ran at once" }   // already on the queue: runs directly
}
print("   nested performAndWait: \(nested)")
let handMade = background.performAndWait {
    let done = DispatchSemaphore(value: 0)
    background.perform { done.signal() }       // queued behind the block that is waiting for it…
    return done.wait(timeout: .now() + 1)      // …so this wait can only time out (without the time-out: for ever)
}
print("   perform + semaphore inside the queue: \(handMade == .timedOut ? "timed out after 1 s — a deadlock" : "finished")")
// endregion: reentrant

print("")
print("5. Two queues waiting for each other")
// region: deadlock
let handedOver = Flag()
background.perform {
    viewContext.performAndWait {               // the background queue waits for the main queue…
        handedOver.raise()
    }
}
let backgroundFree = DispatchSemaphore(value: 0)
background.perform { backgroundFree.signal() }
// …while the main thread waits for the background queue, as background.performAndWait would. An app hangs here;
// the example gives up after a second.
let result = backgroundFree.wait(timeout: .now() + 1)
print("   main thread waiting for the background queue: \(result == .timedOut ? "gave up after 1 s — deadlock" : "done")")
// endregion: deadlock
runMainQueue { handedOver.isRaised }           // let the main queue run, so the stuck block can finish
_ = backgroundFree.wait(timeout: .now() + 1)
// region: no-deadlock
let handedOverAsync = Flag()
background.perform {
    viewContext.perform {                      // hand over and return: this queue never waits for the main one
        handedOverAsync.raise()
    }
}
let freeAgain = DispatchSemaphore(value: 0)
background.perform { freeAgain.signal() }
print("   with perform instead: \(freeAgain.wait(timeout: .now() + 1) == .success ? "the background queue is free at once" : "still stuck")")
// endregion: no-deadlock
runMainQueue { handedOverAsync.isRaised }

print("")
print("6. A throwaway context for one task: performBackgroundTask")
let imported = Flag()
// region: background-task
container.performBackgroundTask { context in
    for title in ["Trailer", "Interview"] {
        Episode(context: context).title = title
    }
    do {
        try context.save()
    } catch {
        context.rollback()
        print("   import failed: \(error)")
    }
    imported.raise()
}
// endregion: background-task
runMainQueue { imported.isRaised }
print("   the main context now counts \(try viewContext.count(for: Episode.fetchRequest())) episodes")

print("")
print("7. Three ways to write in the background")
let reader = container.newBackgroundContext()
func storeCount() throws -> Int { try reader.performAndWait { try reader.count(for: Episode.fetchRequest()) } }
func storeTitles() throws -> [String] {
    try reader.performAndWait {
        let request: FetchRequest<Episode> = Episode.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.title, ascending: true)]
        return try reader.fetch(request).map(\.title)
    }
}

print("   (a) Apple's: a background context beside the view context, which merges its saves")
let finale = try viewContext.fetch(Episode.fetchRequest()).first { $0.title == "Finale" }!
let finaleID = finale.objectID
let renamed = Flag()
// region: arrangement-a
viewContext.automaticallyMergesChangesFromParent = true      // once, when the app sets up its contexts
let importer = container.newBackgroundContext()              // private queue, on the store: a sibling
importer.perform {                                            // the main thread goes on at once
    let copy = try? importer.existingObject(with: finaleID) as? Episode
    copy?.title = "Finale (remastered)"
    try? importer.save()                                      // to the store, on the importer's queue
    renamed.raise()
}
// endregion: arrangement-a
print("   the main thread did not wait; the UI's episode still reads \"\(finale.title)\"")
runMainQueue { renamed.isRaised }
runMainQueue(for: 0.2) { false }                             // the merge runs on the main queue
print("   once the main queue has run the merge it reads \"\(finale.title)\"")

print("   (b) Source 000's: a private writer on the store, the UI context its child")
let wroteToDisk = Flag()
// region: arrangement-b
let diskWriter = ManagedObjectContext(.privateQueue)
diskWriter.persistentStoreCoordinator = container.persistentStoreCoordinator
let screen = ManagedObjectContext(.mainQueue)   // the context the UI uses
screen.parent = diskWriter
Episode(context: screen).title = "Live show"
try screen.save()                              // on the main queue, but only into diskWriter, in memory
print("   after the UI context's save: store has \(try storeCount()) episodes")
diskWriter.perform {                           // the disk write, on the writer's queue
    print("   the writer saves on the main thread: \(Thread.isMainThread)")
    try? diskWriter.save()
    wroteToDisk.raise()
}
// endregion: arrangement-b
runMainQueue { wroteToDisk.isRaised }
print("   after the writer's save: store has \(try storeCount()) episodes")

print("   (c) Source 003's \"complex\" stack: a background child of the view context")
// region: child-save
let child = ManagedObjectContext(.privateQueue)
child.parent = viewContext
let outtakesID = try child.performAndWait {
    let episode = Episode(context: child)
    episode.title = "Outtakes"
    try child.save()                           // into the view context, not the store
    return episode.objectID                    // the ID leaves the block, never the object
}
print("   after the child's save: main context has changes: \(viewContext.hasChanges), store has \(try storeCount()) episodes")
try viewContext.save()                         // the disk write, on the main queue
print("   after the main context's save: store has \(try storeCount()) episodes")
// endregion: child-save
// region: child-ids
let foundByChildID = reader.performAndWait { (try? reader.existingObject(with: outtakesID)) != nil }
print("   the child's Outtakes: temporary ID \(outtakesID.isTemporaryID), found by it in another context: \(foundByChildID)")
let bloopersID = try child.performAndWait {
    let episode = Episode(context: child)
    episode.title = "Bloopers"
    try child.obtainPermanentIDs(for: [episode])   // before the child's save
    try child.save()
    return episode.objectID
}
try viewContext.save()
let foundBloopers = reader.performAndWait { (try? reader.existingObject(with: bloopersID)) != nil }
print("   with obtainPermanentIDs first, Bloopers: temporary ID \(bloopersID.isTemporaryID), found: \(foundBloopers)")
// endregion: child-ids
print("   the store: \(try storeTitles())")
