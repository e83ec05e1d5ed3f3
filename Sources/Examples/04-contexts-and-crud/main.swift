import Foundation
import KataSupport
import Persistence

// Lesson 4's runnable example: the context as a scratch pad. Every change — insert, update, delete — lives in the
// context until it is saved; another context, reading the store, sees nothing before that. `swift run lessons run 4`.

let container = PersistentContainer(name: GardenModel.name, managedObjectModel: try GardenModel.make())
container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
container.loadPersistentStores { _, error in
    if let error { print("could not load the store: \(error)") }
}
let context = container.viewContext
/// A second context on the same store: it shows what the store holds, nothing more.
let observer = container.newBackgroundContext()

func storeHolds() throws -> String {
    try observer.performAndWait {
        observer.reset()                            // forget what it read before; read the store afresh
        let request: FetchRequest<Plant> = Plant.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
        let plants = try observer.fetch(request)
        return plants.isEmpty ? "nothing" : plants.map { $0.name + ($0.wateredOn == nil ? "" : " (watered)") }
            .joined(separator: ", ")
    }
}

print("1. Add: insert into the context, then save")
// region: add
for name in ["Rose", "Fern", "Tulip"] {
    let plant = Plant(context: context)             // made and inserted in one step
    plant.name = name
}
// endregion: add
print("   before save — the context has changes: \(context.hasChanges); the store holds \(try storeHolds())")
try context.save()
print("   after save  — the context has changes: \(context.hasChanges); the store holds \(try storeHolds())")

print("")
print("2. Fetch: a request, optionally a predicate and sort descriptors, run by a context")
// region: fetch
let everything: FetchRequest<Plant> = Plant.fetchRequest()  // the type spelt out; every plant, in no promised order
let byName: FetchRequest<Plant> = Plant.fetchRequest()
byName.sortDescriptors = [FetchSortDescriptor(keyPath: \Plant.name, ascending: true)]
let startingWithT: FetchRequest<Plant> = Plant.fetchRequest()
startingWithT.predicate = FetchPredicate(format: "name BEGINSWITH %@", "T")
// endregion: fetch
print("   no sort descriptor: \(try context.fetch(everything).map(\.name)) (an order you cannot rely on)")
print("   sorted by name:     \(try context.fetch(byName).map(\.name))")
print("   name BEGINSWITH T:  \(try context.fetch(startingWithT).map(\.name))")

print("")
print("3. Update: change the object; the context notices, the save writes it")
// region: update
let fern = try context.fetch(byName)[0]
fern.wateredOn = Date()
print("   updated objects in the context: \(context.updatedObjects.map { ($0 as? Plant)?.name ?? "?" })")
print("   before save — the store holds \(try storeHolds())")
try context.save()                                // without it, the change lives in this context only
// endregion: update
print("   after save  — the store holds \(try storeHolds())")

print("")
print("4. Delete: mark the object deleted, then save")
// region: delete
let rose = try context.fetch(byName)[1]
context.delete(rose)
print("   deleted in the context: \(rose.isDeleted); its own context no longer fetches it: "
      + "\(try context.fetch(byName).map(\.name))")
// endregion: delete
print("   before save — the store holds \(try storeHolds())")
try context.save()
print("   after save  — the store holds \(try storeHolds())")

print("")
print("5. The same record, one object per context")
// region: two-contexts
let mine = try context.fetch(byName)[0]
let theirs = try observer.performAndWait { try observer.fetch(byName)[0] }
print("   same record: \(mine.objectID == theirs.objectID); same object: \(mine === theirs)")
mine.name = "Maidenhair fern"                       // not saved: only this context's object changes
print("   this context says \"\(mine.name)\"; the other context's object says \"\(observer.performAndWait { theirs.name })\"")
context.rollback()
// endregion: two-contexts
