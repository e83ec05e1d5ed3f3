// Persistence-only: the concurrency debugger in code (Core Data has only the launch argument).
@_spi(ConcurrencyDebugging) import Persistence
import Foundation
import KataSupport

// Lesson 7's runnable example, on lesson 6's weather-station log: a dashboard reads on the main queue while sensor
// callbacks, a cleaner and a recalibration work in the background. A context used off its queue, caught by the
// concurrency debugger; a value, not objects, out of performAndWait; perform against performAndWait; an object
// against its objectID; re-entrant performAndWait against a hand-made wait; two queues waiting for each other; a
// context for one task; and three ways to write in the background — a sibling context with automatic merging, a
// private writer under the UI context, and a background child of the UI context. `swift run lessons run 7`.

let container = PersistentContainer(name: WeatherModel.name, managedObjectModel: try WeatherModel.shared())
container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
container.loadPersistentStores { _, error in
    if let error { print("could not load the store: \(error)") }
}
/// The main-queue context the dashboard reads.
let viewContext: ManagedObjectContext = container.viewContext

extension Reading {
    /// A new reading in `context`, taken `minutesAgo` minutes ago. Call it on the context's queue.
    convenience init(_ celsius: Double, at station: String, minutesAgo: Double = 0, in context: ManagedObjectContext) {
        self.init(context: context)
        self.station = station
        self.celsius = celsius
        takenAt = Date(timeIntervalSinceNow: -minutesAgo * 60)
    }
}

extension ManagedObjectContext {
    /// Saves, unless there is nothing to save. Call it on the context's queue.
    func saveIfChanged() throws {
        if hasChanges { try save() }
    }
}

for (celsius, station, minutesAgo) in [(17.5, "Harbour", 30.0), (18.0, "Harbour", 20), (18.5, "Harbour", 10),
                                       (12.0, "Hill", 15)] {
    _ = Reading(celsius, at: station, minutesAgo: minutesAgo, in: viewContext)
}
try viewContext.saveIfChanged()

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

/// A request for the readings of one station, or of all of them.
func readings(at station: String? = nil) -> FetchRequest<Reading> {
    let request = FetchRequest<Reading>(entityName: "Reading")
    if let station { request.predicate = FetchPredicate(format: "station == %@", station) }
    return request
}

// region: debugger-on
// What every kata does: check every use of a context and its objects, and report what breaks the rule instead of
// stopping the program (with no handler, the first violation stops it, as Core Data's debugger does).
ConcurrencyDebugging.violationHandler = { violation in
    print("   debugger: \(violation.operation) used off the queue of \(violation.context)")
}
ConcurrencyDebugging.isEnabled = true          // or run with PERSISTENCE_CONCURRENCY_DEBUG=1
// endregion: debugger-on

print("1. A sensor's callback averages the dashboard's readings on its own thread")
let badDone = Flag()
// region: bad
DispatchQueue.global().async {                     // a sensor's callback: some background thread
    let harbour = viewContext.performAndWait {     // the fetch itself runs on the main queue…
        (try? viewContext.fetch(readings(at: "Harbour"))) ?? []
    }
    // …but the readings leave the block, and their temperatures are read here, on the wrong thread:
    let mean = harbour.reduce(0) { $0 + $1.celsius } / Double(harbour.count)
    print("   Harbour's mean: \(mean) °C — right this time, by luck")
    badDone.raise()
}
// endregion: bad
runMainQueue { badDone.isRaised }
print("   the same average, worked out inside the block:")
let goodDone = Flag()
// region: good
DispatchQueue.global().async {
    let mean: Double = viewContext.performAndWait {    // returns what the block returns
        let harbour = (try? viewContext.fetch(readings(at: "Harbour"))) ?? []
        return harbour.reduce(0) { $0 + $1.celsius } / Double(max(harbour.count, 1))
    }                                                  // a Double leaves the block; the readings do not
    print("   Harbour's mean: \(mean) °C, no report")
    goodDone.raise()
}
// endregion: good
runMainQueue { goodDone.isRaised }

print("")
print("2. perform returns at once; performAndWait returns when its block is done")
// region: perform-order
let sensor: ManagedObjectContext = container.newBackgroundContext()   // a private queue of its own
viewContext.perform { print("   (b) the dashboard's perform block runs, once the main queue is free") }
print("   (a) perform returned")
let stationCount = try sensor.performAndWait {     // the block throws, so the call does: it rethrows
    try sensor.count(for: readings())
}
print("   (c) performAndWait returned its block's result: \(stationCount) readings")
// endregion: perform-order
runMainQueue(for: 0.2) { false }

print("")
print("3. An object stays in its context; its objectID travels")
let glitch = Reading(85, at: "Hill", minutesAgo: 5, in: viewContext)    // a sensor glitch on the dashboard
try viewContext.saveIfChanged()
let cleaner: ManagedObjectContext = container.newBackgroundContext()
let smuggled = Flag()
// region: object-across
nonisolated(unsafe) let flagged = glitch         // a dashboard object, smuggled past Swift's checks
DispatchQueue.global().async {
    cleaner.performAndWait {
        print("   the cleaner checks \(flagged.celsius) °C")   // wrong: this object belongs to the viewContext
    }
    smuggled.raise()
}
// endregion: object-across
runMainQueue { smuggled.isRaised }
// region: object-id
let glitchID = glitch.objectID                   // an ID is a value: any thread, any context
cleaner.performAndWait {
    if let mine = try? cleaner.existingObject(with: glitchID) as? Reading, mine.celsius > 60 {
        cleaner.delete(mine)                     // the cleaner's own copy of the reading
    }
    do { try cleaner.saveIfChanged() } catch { print("   the cleaner could not save: \(error)") }
}
// endregion: object-id
let check: ManagedObjectContext = container.newBackgroundContext()
let glitchGone = check.performAndWait { (try? check.existingObject(with: glitchID)) == nil }
print("   deleted through the cleaner's copy; gone from the store: \(glitchGone)")

print("")
print("4. performAndWait is re-entrant; a wait made by hand is not")
// region: reentrant
let nested = sensor.performAndWait {
    sensor.performAndWait { "the inner block ran at once" }   // already on the queue: runs directly
}
print("   nested performAndWait: \(nested)")
let handMade = sensor.performAndWait {
    let done = DispatchSemaphore(value: 0)
    sensor.perform { done.signal() }             // queued behind the block that is waiting for it…
    return done.wait(timeout: .now() + 1)        // …so this wait can only time out (without the time-out: for ever)
}
print("   perform + semaphore inside the queue: \(handMade == .timedOut ? "timed out after 1 s — a deadlock" : "finished")")
// endregion: reentrant

print("")
print("5. Two queues waiting for each other")
// region: deadlock
let handedOver = Flag()
sensor.perform {
    viewContext.performAndWait {                 // the sensor's queue waits for the main queue…
        handedOver.raise()
    }
}
let sensorFree = DispatchSemaphore(value: 0)
sensor.perform { sensorFree.signal() }
// …while the main thread waits for the sensor's queue, as sensor.performAndWait would. An app hangs here; the
// example gives up after a second.
let result = sensorFree.wait(timeout: .now() + 1)
print("   main thread waiting for the sensor's queue: \(result == .timedOut ? "gave up after 1 s — deadlock" : "done")")
// endregion: deadlock
runMainQueue { handedOver.isRaised }             // let the main queue run, so the stuck block can finish
_ = sensorFree.wait(timeout: .now() + 1)
// region: no-deadlock
let handedOverAsync = Flag()
sensor.perform {
    viewContext.perform {                        // hand over and return: this queue never waits for the main one
        handedOverAsync.raise()
    }
}
let freeAgain = DispatchSemaphore(value: 0)
sensor.perform { freeAgain.signal() }
print("   with perform instead: \(freeAgain.wait(timeout: .now() + 1) == .success ? "the sensor's queue is free at once" : "still stuck")")
// endregion: no-deadlock
runMainQueue { handedOverAsync.isRaised }

print("")
print("6. A context for one task: performBackgroundTask")
let recalibrated = Flag()
// region: background-task
container.performBackgroundTask { context in    // a new private-queue context on the store, for this block only
    do {
        let harbour = try context.fetch(readings(at: "Harbour"))
        for reading in harbour { reading.celsius -= 0.5 }   // the Harbour sensor reads half a degree warm
        try context.saveIfChanged()
        print("   recalibrated \(harbour.count) Harbour readings on the task's queue")   // a count, not the objects
    } catch {
        print("   recalibration failed: \(error)")   // the task's context goes, and its changes with it
    }
    recalibrated.raise()
}
// endregion: background-task
runMainQueue { recalibrated.isRaised }
let reader: ManagedObjectContext = container.newBackgroundContext()
/// How many readings the store holds, read through a context of its own.
func storeCount() throws -> Int { try reader.performAndWait { try reader.count(for: readings()) } }
let harbourMean = reader.performAndWait {
    let harbour = (try? reader.fetch(readings(at: "Harbour"))) ?? []
    return harbour.reduce(0) { $0 + $1.celsius } / Double(max(harbour.count, 1))
}
print("   Harbour's mean in the store is now \(harbourMean) °C")

print("")
print("7. Three ways to write in the background")
print("   (a) Apple's: a background context beside the view context, which merges its saves")
let hillOnScreen = try viewContext.fetch(readings(at: "Hill")).first!   // the dashboard's Hill reading
let warmed = Flag()
// region: arrangement-a
viewContext.automaticallyMergesChangesFromParent = true     // once, when the app sets up its contexts
container.performBackgroundTask { context in                // a sibling: private queue, on the store
    do {
        for reading in try context.fetch(readings(at: "Hill")) { reading.celsius += 1 }
        try context.saveIfChanged()                         // to the store, from the task's queue
    } catch {
        context.rollback()                                  // a failed save must not stay in the context
        print("   the background write failed: \(error)")
    }
    warmed.raise()
}
// endregion: arrangement-a
print("   the main thread did not wait; the dashboard's Hill reading still shows \(hillOnScreen.celsius) °C")
runMainQueue { warmed.isRaised }
runMainQueue(for: 0.2) { false }                            // the merge runs on the main queue
print("   once the main queue has run the merge it shows \(hillOnScreen.celsius) °C")

print("   (b) Practical Core Data's: a private writer on the store, the UI context its child")
let wroteToDisk = Flag()
// region: arrangement-b
let writer = container.newBackgroundContext()   // a private-queue context on the coordinator
// The context the UI uses, made with the initializer older code writes (`.mainQueue` since iOS 15).
let screen = ManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
screen.parent = writer
_ = Reading(9.5, at: "Airport", in: screen)     // the user types in a reading
try screen.saveIfChanged()                      // on the main queue, but only into the writer, in memory
print("   after the UI context's save: the store has \(try storeCount()) readings")
// The airport's logger uploads its night. The writer adds those readings itself, on its own queue, and its save
// writes to disk everything it holds: the logger's readings, and the one the UI context handed it.
writer.perform {
    for (hoursAgo, celsius) in [(3.0, 7.0), (2.0, 7.5), (1.0, 8.0)] {
        _ = Reading(celsius, at: "Airport", minutesAgo: hoursAgo * 60, in: writer)
    }
    Thread.sleep(forTimeInterval: 0.5)          // a slow disk: the write takes half a second
    do {
        try writer.saveIfChanged()
    } catch {
        writer.rollback()                       // else every later write fails the same way
        print("   the logger's upload failed: \(error)")
    }
    wroteToDisk.raise()
}
let asked = Date()
let onScreen = try screen.count(for: readings())   // answered through the writer, on its queue
print("   the UI context counted \(onScreen) readings, and waited for the writer's disk write: "
    + "\(Date().timeIntervalSince(asked) > 0.3)")
// endregion: arrangement-b
runMainQueue { wroteToDisk.isRaised }
print("   after the writer's save: the store has \(try storeCount()) readings")

print("   (c) Core Data & Unit Tests' \"complex\" stack: a background child of the view context")
// region: child-save
let child = ManagedObjectContext(.privateQueue)
child.parent = viewContext
let gustID = try child.performAndWait {
    let gust = Reading(21, at: "Hill", in: child)
    try child.saveIfChanged()                   // into the view context, not the store
    return gust.objectID                        // the ID leaves the block, never the object
}
print("   after the child's save: main context has changes: \(viewContext.hasChanges), the store has "
    + "\(try storeCount()) readings")
try viewContext.saveIfChanged()                 // the disk write, on the main queue
print("   after the main context's save: the store has \(try storeCount()) readings")
// endregion: child-save
// region: child-ids
let foundByChildID = reader.performAndWait { (try? reader.existingObject(with: gustID)) != nil }
print("   the child's gust: temporary ID \(gustID.isTemporaryID), found by it in another context: \(foundByChildID)")
let frostID = try child.performAndWait {
    let frost = Reading(-2, at: "Hill", in: child)
    try child.obtainPermanentIDs(for: [frost])  // before the child's save
    try child.saveIfChanged()
    return frost.objectID
}
try viewContext.saveIfChanged()
let foundFrost = reader.performAndWait { (try? reader.existingObject(with: frostID)) != nil }
print("   with obtainPermanentIDs first, the frost: temporary ID \(frostID.isTemporaryID), found: \(foundFrost)")
// endregion: child-ids
print("   the store: \(try storeCount()) readings")
