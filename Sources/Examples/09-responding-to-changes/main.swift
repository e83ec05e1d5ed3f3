import Foundation
import KataSupport
import Persistence

// Lesson 9's runnable example: what a context's save tells the world, why the view context stays behind until it
// merges, merging by hand and automatically, a paged import with and without automatic merging, and a batch update
// that tells nobody. `swift run lessons run 9`.

func makeContainer() -> PersistentContainer {
    let container = PersistentContainer(name: GardenModel.name, managedObjectModel: try! GardenModel.make())
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
    container.loadPersistentStores { _, error in
        if let error { print("could not load the store: \(error)") }
    }
    return container
}

/// Lets the main queue — the view context's queue — run until `condition` holds (two seconds at most).
func runMainQueue(until condition: () -> Bool) {
    let deadline = Date(timeIntervalSinceNow: 2)
    while !condition() && Date() < deadline { RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.01)) }
}

/// A counter that blocks on any queue may bump.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int = 1) { lock.withLock { count += n } }
    var value: Int { lock.withLock { count } }
}

func described(_ date: Date?) -> String { date.map { "\($0)" } ?? "nil" }

let container = makeContainer()
let viewContext = container.viewContext
let fern = Plant(context: viewContext)
fern.name = "Fern"
let rose = Plant(context: viewContext)
rose.name = "Rose"
try viewContext.save()
let background = container.newBackgroundContext()
background.name = "background"
let noon = Date(timeIntervalSinceReferenceDate: 800_000_000)

print("1. A save tells whoever listens what it inserted, updated and deleted")
// region: observe
let token = NotificationCenter.default.addObserver(
    forName: ManagedObjectContext.didSaveObjectsNotification,
    object: background,                                  // this context's saves only
    queue: nil                                           // run here and now, on the saving context's queue
) { note in
    typealias Key = ManagedObjectContext.NotificationKey
    let objects = { (key: Key) in note.userInfo?[key.rawValue] as? Set<ManagedObject> ?? [] }   // "inserted"…
    print("   did-save: \(objects(.insertedObjects).count) inserted, \(objects(.updatedObjects).count) updated, "
        + "\(objects(.deletedObjects).count) deleted")
    let byCase = note.userInfo?[AnyHashable(Key.insertedObjects)]                               // the wrong key
    print("   looked up by the enum case: \(byCase == nil ? "nothing" : "found"); "
        + "by its raw value \"inserted\": \(objects(.insertedObjects).count) object(s)")
}
// endregion: observe
try background.performAndWait {
    for plant in try background.fetch(Plant.fetchRequest()) where plant.name == "Fern" { plant.wateredOn = noon }
    let basil = Plant(context: background)
    basil.name = "Basil"
    try background.save()
}
NotificationCenter.default.removeObserver(token)

print("")
print("2. The view context has not heard of it")
// region: stale
let found = try viewContext.fetch(Plant.fetchRequest()).map(\.name).sorted()
print("   a fetch finds \(found) — Basil's row is in the store — but Fern, held already, reads watered: "
    + "\(described(fern.wateredOn))")
// endregion: stale

print("")
print("3. Merged by hand, on the view context's queue")
let merged = Counter()
// region: did-change
let changes = NotificationCenter.default.addObserver(
    forName: ManagedObjectContext.didChangeObjectsNotification, object: viewContext, queue: nil
) { note in
    // Posted on the view context's queue: its objects may be read here.
    let objects = { (key: String) in (note.userInfo?[key] as? Set<ManagedObject>) ?? [] }
    let names = { (key: String) in objects(key).compactMap { ($0 as? Plant)?.name }.sorted() }
    print("   did-change of the view context: inserted \(names("inserted")), refreshed \(names("refreshed")), "
        + "deleted \(objects("deleted").count) object(s)")
    merged.add()
}
// endregion: did-change
// region: merge-by-hand
let merging = NotificationCenter.default.addObserver(
    forName: ManagedObjectContext.didSaveObjectsNotification, object: background, queue: nil
) { note in
    nonisolated(unsafe) let note = note                 // merging reads only the IDs: safe to hand over
    viewContext.perform { viewContext.mergeChanges(fromContextDidSave: note) }
}
// endregion: merge-by-hand
let dusk = Date(timeIntervalSinceReferenceDate: 800_030_000)
let daisyID = try background.performAndWait {
    let plants = try background.fetch(Plant.fetchRequest())
    for plant in plants where plant.name == "Fern" { plant.wateredOn = dusk }
    for plant in plants where plant.name == "Rose" { background.delete(plant) }
    let daisy = Plant(context: background)
    daisy.name = "Daisy"
    try background.save()
    return daisy.objectID
}
runMainQueue { merged.value > 0 }
print("   Fern watered: \(described(fern.wateredOn)); Rose still held: \(rose.managedObjectContext != nil); "
    + "Daisy still registered: \(viewContext.registeredObject(for: daisyID) != nil)")
NotificationCenter.default.removeObserver(merging)
NotificationCenter.default.removeObserver(changes)

print("")
print("4. Merged automatically")
// region: automatic
viewContext.automaticallyMergesChangesFromParent = true
// endregion: automatic
let tulipID = try background.performAndWait {
    let tulip = Plant(context: background)
    tulip.name = "Tulip"
    try background.save()
    return tulip.objectID
}
// The merge hands Tulip to the did-change observers; nobody keeps it, so it is not registered for long.
let toldOfTulip = Counter()
let tulipWatch = NotificationCenter.default.addObserver(
    forName: ManagedObjectContext.didChangeObjectsNotification, object: viewContext, queue: nil
) { note in
    let inserted = (note.userInfo?["inserted"] as? Set<ManagedObject>) ?? []
    if inserted.contains(where: { $0.objectID == tulipID }) { toldOfTulip.add() }
}
runMainQueue { toldOfTulip.value > 0 }
NotificationCenter.default.removeObserver(tulipWatch)
print("   Tulip merged into the view context without any merging code of ours: \(toldOfTulip.value > 0)")

print("")
print("5. A paged import: 2,000 plants in pages of 200")
/// The plants a list on screen shows: every new one it is told of, kept.
final class PlantList: @unchecked Sendable {
    var plants: [ManagedObject] = []
}

/// Imports `count` plants in pages in a background context of `container`, and counts how many times the view context
/// was told of new objects meanwhile; `list` keeps each of them.
func importPlants(_ count: Int, pageSize: Int, into container: PersistentContainer, list: PlantList? = nil) throws -> Int {
    let view = container.viewContext
    let notified = Counter()
    let observer = NotificationCenter.default.addObserver(
        forName: ManagedObjectContext.didChangeObjectsNotification, object: view, queue: nil
    ) { note in
        let inserted = (note.userInfo?["inserted"] as? Set<ManagedObject>) ?? []
        if !inserted.isEmpty { notified.add() }
        list?.plants += inserted
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    let importer = container.newBackgroundContext()
    try importer.performAndWait {
        for page in stride(from: 0, to: count, by: pageSize) {
            for number in page..<min(page + pageSize, count) { Plant(context: importer).name = "Plant \(number)" }
            try importer.save()
            importer.reset()
        }
    }
    let pages = (count + pageSize - 1) / pageSize
    runMainQueue { !view.automaticallyMergesChangesFromParent || notified.value >= pages }
    return notified.value
}
let busy = makeContainer()
busy.viewContext.automaticallyMergesChangesFromParent = true
let busyList = PlantList()
let busyMerges = try importPlants(2_000, pageSize: 200, into: busy, list: busyList)
print("   automatic merging on:  the view context merged \(busyMerges) times; the list keeps "
    + "\(busyList.plants.count) plants, and the context holds \(busy.viewContext.registeredObjects.count) objects")
let quiet = makeContainer()
let quietView = quiet.viewContext
quietView.automaticallyMergesChangesFromParent = true
let old = Plant(context: quietView)
old.name = "Old"
try quietView.save()
// region: quiet-import
quietView.automaticallyMergesChangesFromParent = false  // the import's pages are none of its business…
let quietMerges = try importPlants(2_000, pageSize: 200, into: quiet)
quietView.reset()                                       // …until the end: forget everything once, fetch again
quietView.automaticallyMergesChangesFromParent = true
// endregion: quiet-import
print("   automatic merging off: the view context merged \(quietMerges) times; after reset() it holds "
    + "\(quietView.registeredObjects.count) objects, and a fetch finds \(try quietView.count(for: Plant.fetchRequest()))")

print("")
print("6. A batch update tells nobody")
let saves = Counter()
let anySave = NotificationCenter.default.addObserver(
    forName: ManagedObjectContext.didSaveObjectsNotification, object: nil, queue: nil
) { _ in saves.add() }
let evening = Date(timeIntervalSinceReferenceDate: 800_040_000)
// region: batch
let updatedIDs = try background.performAndWait {
    let request = BatchUpdateRequest(entityName: "Plant")
    request.propertiesToUpdate = ["wateredOn": evening]
    request.resultType = .updatedObjectIDsResultType
    let result = try background.execute(request) as? BatchUpdateResult
    return result?.result as? [ManagedObjectID] ?? []
}
// endregion: batch
runMainQueue { false }
print("   \(updatedIDs.count) plants updated in SQL; did-save notifications posted: \(saves.value); "
    + "Fern watered (view context): \(described(fern.wateredOn))")
// region: merge-batch
ManagedObjectContext.mergeChanges(
    fromRemoteContextSave: [ManagedObjectContext.NotificationKey.updatedObjects.rawValue: updatedIDs],
    into: [viewContext])
// endregion: merge-batch
print("   after mergeChanges(fromRemoteContextSave:into:): Fern watered \(described(fern.wateredOn))")
NotificationCenter.default.removeObserver(anySave)
