import Foundation
import KataSupport
import Persistence

// Lesson 8's runnable example: child contexts. A child's save goes one level up, into its parent; a child reads
// through its parent; a new object keeps its temporary ID in the child unless it asks for a permanent one; a failed
// parent save; and a private-queue child next to a background context on the store. `swift run lessons run 8`.

let container = PersistentContainer(name: GardenModel.name, managedObjectModel: try GardenModel.make())
container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
container.loadPersistentStores { _, error in
    if let error { print("could not load the store: \(error)") }
}
let viewContext = container.viewContext

/// The plants' names as the store has them, read through a context of its own.
func storeHolds() throws -> [String] {
    let reader = container.newBackgroundContext()
    return try reader.performAndWait {
        let request: FetchRequest<Plant> = Plant.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
        return try reader.fetch(request).map(\.name)
    }
}

/// A short form of an error: its code and message, object IDs (which differ from run to run) left out.
func describe(_ error: any Error) -> String {
    let error = error as NSError
    let message = error.localizedDescription.replacingOccurrences(of: "<x-coredata:[^>]*>", with: "<id>", options: .regularExpression)
    return "error \(error.code) (\(message))"
}

let fern = Plant(context: viewContext)
fern.name = "Fern"
try viewContext.save()

print("1. A child's save goes one level up")
/// Where the fern's new name has got to: the view context, and the store.
@MainActor func report(_ step: String) throws {
    print("   \(step) view context has changes? \(viewContext.hasChanges); its fern is \"\(fern.name)\"; "
        + "the store holds \(try storeHolds())")
}
// region: one-level-up
let child = ManagedObjectContext(.mainQueue)
child.parent = viewContext                                   // saves go into viewContext, reads go through it
let fernInChild = try child.existingObject(with: fern.objectID) as? Plant   // the child's own copy
fernInChild?.name = "Maidenhair"
try report("edited in the child:")
try child.save()
try report("child saved:        ")
try viewContext.save()
try report("view context saved: ")
// endregion: one-level-up

print("")
print("2. An edit screen's Save and Cancel")
let pending = Plant(context: viewContext)                    // unsaved work elsewhere in the app
pending.name = "Rose"
// region: nothing-to-save
let untouched = ManagedObjectContext(.mainQueue)
untouched.parent = viewContext
_ = try untouched.existingObject(with: fern.objectID)        // the screen opened the fern, and the user typed nothing
print("   nothing edited: the child has changes? \(untouched.hasChanges); the view context has changes? "
    + "\(viewContext.hasChanges) (Rose, another screen's)")
// endregion: nothing-to-save
print("   so a Save that saved the view context anyway would write Rose too; the store holds \(try storeHolds())")
// region: discard
var scratch: ManagedObjectContext? = ManagedObjectContext(.mainQueue)
scratch?.parent = viewContext
let copy = try scratch?.existingObject(with: fern.objectID) as? Plant
copy?.name = "Bracken"
scratch = nil                                                // Cancel: the edit goes with the child
// endregion: discard
print("   after Cancel: the view context's fern is \"\(fern.name)\"; Rose still pending? "
    + "\(viewContext.insertedObjects.contains(pending)); the store holds \(try storeHolds())")

print("")
print("3. A child reads through its parent, unsaved changes included")
// region: reads-through
let reader = ManagedObjectContext(.mainQueue)
reader.parent = viewContext
let names = try reader.fetch(Plant.fetchRequest()).map(\.name).sorted()
let roseInChild = try reader.existingObject(with: pending.objectID) as? Plant   // Rose exists only in viewContext
// endregion: reads-through
print("   the child fetches \(names); it finds the unsaved Rose by its temporary ID: \"\(roseInChild?.name ?? "-")\"")
let onStore = ManagedObjectContext(.mainQueue)
onStore.persistentStoreCoordinator = container.persistentStoreCoordinator
print("   a context on the store fetches \(try onStore.fetch(Plant.fetchRequest()).map(\.name).sorted())", terminator: "")
do {
    _ = try onStore.existingObject(with: pending.objectID)
    print(" and finds Rose")
} catch {
    print(" and cannot find Rose: \(describe(error))")
}
viewContext.rollback()                                       // Rose was only there to be seen

print("")
print("4. A new object keeps its temporary ID in the child")
// region: temporary-id
let form = ManagedObjectContext(.mainQueue)
form.parent = viewContext
let basil = Plant(context: form)
basil.name = "Basil"
try form.save()
try viewContext.save()                                       // Basil is in the store now, under a permanent ID…
print("   after both saves, Basil's ID in the child is temporary? \(basil.objectID.isTemporaryID)")
// endregion: temporary-id
let background = container.newBackgroundContext()
let basilID = basil.objectID
background.performAndWait {
    do {
        _ = try background.existingObject(with: basilID)
        print("   another context finds Basil by that ID")
    } catch {
        print("   another context looks Basil up by that ID: \(describe(error))")
    }
}
basil.name = "Sweet basil"
do {
    try form.save()
    print("   a second save of the child worked")
} catch {
    print("   a second save of the child: \(describe(error))")
}
print("   with obtainPermanentIDs(for:) before the child's save:")
// region: permanent-id
let form2 = ManagedObjectContext(.mainQueue)
form2.parent = viewContext
let thyme = Plant(context: form2)
thyme.name = "Thyme"
try form2.obtainPermanentIDs(for: [thyme])                   // while Thyme is still an insert in the child
try form2.save()
try viewContext.save()
// endregion: permanent-id
let thymeID = thyme.objectID
background.performAndWait {
    let found = (try? background.existingObject(with: thymeID) as? Plant)?.name
    print("   Thyme's ID is temporary? \(thymeID.isTemporaryID); another context finds \"\(found ?? "nothing")\"")
}
thyme.name = "Lemon thyme"
try form2.save()
try viewContext.save()
print("   a second edit saves too: the store holds \(try storeHolds())")

print("")
print("5. The child's save works, the parent's fails")
let edit = ManagedObjectContext(.mainQueue)
edit.parent = viewContext
let fernToEdit = try edit.existingObject(with: fern.objectID) as? Plant
fernToEdit?.name = "Maidenhair fern"
let sync = container.newBackgroundContext()                  // meanwhile a sync waters the same plant
let fernID = fern.objectID
try sync.performAndWait {
    (try sync.existingObject(with: fernID) as? Plant)?.wateredOn = Date()
    try sync.save()
}
try edit.save()
print("   the child's save worked; the view context now holds the edit")
do {
    try viewContext.save()
} catch {
    viewContext.rollback()                                   // the failed edit must not stay in the app's context
    print("   the view context's save: \(describe(error)); rolled back, its fern is \"\(fern.name)\"")
}
print("   the store holds \(try storeHolds())")

print("")
print("6. Document 004's set-up: a private-queue child of the view context")
// region: private-child
let importer = ManagedObjectContext(.privateQueue)
importer.parent = viewContext
try importer.performAndWait {                                // the child's own queue, as always
    for name in ["Chive", "Mint"] {
        Plant(context: importer).name = name
    }
    try importer.save()                                      // into viewContext, which is on the main queue
}
// endregion: private-child
print("   after the child's save: the view context holds \(viewContext.insertedObjects.count) new plants, unsaved; "
    + "the store has \(try storeHolds().count) plants")
try viewContext.save()
print("   after the view context's save: the store has \(try storeHolds().count) plants")
// region: sibling
let sibling = container.newBackgroundContext()               // on the store, not a child
try sibling.performAndWait {
    (try sibling.existingObject(with: fernID) as? Plant)?.name = "Royal fern"
    try sibling.save()                                       // straight into the store
}
// endregion: sibling
print("   a background context renamed the fern in the store: the store holds \(try storeHolds().filter { $0.hasPrefix("R") }); "
    + "the view context's fern is still \"\(fern.name)\" (lesson 9)")
