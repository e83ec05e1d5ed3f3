import Foundation
import KataSupport
import Persistence

// Lesson 5's runnable example: one invalid object poisons a context — every later save fails, however valid the new
// work — until rollback() clears it. Then what rollback and reset each throw away. `swift run lessons run 5`.

let container = PersistentContainer(name: GardenModel.name, managedObjectModel: try GardenModel.make())
container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
container.loadPersistentStores { _, error in
    if let error { print("could not load the store: \(error)") }
}
let context = container.viewContext

func storeHolds() throws -> [String] {
    let reader = container.newBackgroundContext()
    return try reader.performAndWait {
        let request: FetchRequest<Plant> = Plant.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
        return try reader.fetch(request).map(\.name)
    }
}

func attemptSave(_ label: String) {
    do {
        try context.save()
        print("   \(label): saved")
    } catch let error as NSError {
        print("   \(label): failed, error \(error.code) (\(error.localizedDescription))")
    }
}

print("1. One plant without a name poisons the context")
// region: poisoned
let nameless = Plant(context: context)            // the name is mandatory, and never set
nameless.wateredOn = Date()
attemptSave("save 1, the nameless plant")
for name in ["Fern", "Rose"] {
    let plant = Plant(context: context)           // perfectly valid…
    plant.name = name
    attemptSave("save of \(name)")                // …and still refused: the nameless plant is saved with it
}
// endregion: poisoned
print("   the store holds \(try storeHolds()); the context has changes: \(context.hasChanges)")

print("")
print("2. rollback() cures it")
// region: cured
context.rollback()                                // the nameless plant, Fern and Rose all leave the context
let tulip = Plant(context: context)
tulip.name = "Tulip"
attemptSave("save of Tulip after rollback")
// endregion: cured
print("   Daisy, with the pattern every save should use:")

// region: save-or-rollback
let daisy = Plant(context: context)
daisy.name = "Daisy"
do {
    try context.save()
} catch {
    context.rollback()                            // first clean up, then report
    print("   could not save: \(error)")
}
// endregion: save-or-rollback
print("   the store holds \(try storeHolds())")

print("")
print("3. rollback() discards everything unsaved, not only the mistake")
// region: everything
tulip.wateredOn = Date()                          // a change the user wanted to keep
let basil = Plant(context: context)               // and a plant they just added
basil.name = "Basil"
let typo = Plant(context: context)                // then one mistake
typo.wateredOn = Date()
attemptSave("save of all three")
context.rollback()
print("   after rollback: Tulip watered? \(tulip.wateredOn != nil); Basil in the context? \(basil.managedObjectContext != nil)")
// endregion: everything

print("")
print("3b. A context of its own: rolling it back touches nothing else")
let rose = Plant(context: context)
rose.name = "Rose"
try context.save()
let pending = Plant(context: context)             // unsaved work in the app's context
pending.name = "Fern"
// region: own-context
let scratch = ManagedObjectContext(.mainQueue)
scratch.persistentStoreCoordinator = container.persistentStoreCoordinator   // same store, separate context
let roseHere = try scratch.existingObject(with: rose.objectID) as? Plant       // its own copy: only the ID crosses
roseHere?.wateredOn = Date()
scratch.rollback()                                                             // discards what scratch holds
// endregion: own-context
print("   after rolling back the scratch context: Fern still pending in the app's context? "
    + "\(context.insertedObjects.contains(pending)); Rose watered? \(roseHere?.wateredOn != nil)")
context.rollback()

print("")
print("4. reset() forgets every object, saved or not")
// region: reset
let old = try context.fetch(Plant.fetchRequest())[0]
context.reset()                                   // unsaved changes go, and so does every registered object
let fresh = try context.fetch(Plant.fetchRequest())[0]
// endregion: reset
print("   the object fetched before reset still belongs to the context: \(old.managedObjectContext != nil)")
print("   fetched again: \"\(fresh.name)\", a new object: \(old !== fresh)")

print("")
print("5. Work on a private-queue context, awaited by the caller")
// region: background
/// Waters every plant on `context`'s queue. The caller awaits the result instead of blocking a thread; a failed
/// save is rolled back before its error leaves the queue.
func waterAll(in context: ManagedObjectContext) async throws {
    try await context.perform {
        let plants = try context.fetch(Plant.fetchRequest())
        plants.forEach { $0.wateredOn = Date() }
        do { try context.save() } catch {
            context.rollback()                    // the context is clean for whoever uses it next
            throw error
        }
    }
}
// endregion: background
do {
    try await waterAll(in: container.newBackgroundContext())
    print("   watered every plant")
} catch {
    print("   watering failed: \(error)")
}
