import Foundation
import KataSupport
import Persistence

// Lesson 2's runnable example: what setting up a stack can run into, shown with the plain container API.
// `swift run lessons run 2`.

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-lesson02-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

print("1. Finding the model by name")
for name in ["Garden", "Gardn"] {
    if let model = try ModelBundle.main.model(named: name) {
        print("   \"\(name)\": found, entities \(model.entities.compactMap(\.name))")
    } else {
        print("   \"\(name)\": no such model (the bundle has \(ModelBundle.main.modelNames)).")
        print("   On Apple platforms NSPersistentContainer(name: \"\(name)\") logs \"Failed to load model named \(name)\"")
        print("   and the app fails later, far from the typo; a lookup that can fail lets you say so at once.")
    }
}

print("")
print("2. Loading a store where it cannot be written")
// region: load-and-report
let blocked = folder.appendingPathComponent("Library")     // a file stands where the store's folder should be
try Data("not a folder".utf8).write(to: blocked)
let storeURL = blocked.appendingPathComponent("Bookshelf.sqlite")
let container = PersistentContainer(name: BookshelfModel.name, managedObjectModel: try BookshelfModel.shared())
container.persistentStoreDescriptions = [PersistentStoreDescription(url: storeURL)]
container.loadPersistentStores { description, error in
    if let error = error as NSError? {
        print("   could not load \(description.url?.path ?? "a store"):")
        print("   error \(error.code): \(error.localizedDescription)")
    }
}
// endregion: load-and-report
print("   The app is still running. Once the folder is there, the same container loads:")
try FileManager.default.removeItem(at: blocked)
try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
container.loadPersistentStores { _, error in
    print(error.map { "   still failing: \($0)" } ?? "   loaded \(storeURL.lastPathComponent).")
}

print("")
print("3. Persisted and in-memory stores (lesson 1's Bookshelf model, opened twice as two launches would)")
let shelfModel = try BookshelfModel.shared()
for url in [folder.appendingPathComponent("Bookshelf.sqlite"), URL(fileURLWithPath: "/dev/null")] {
    var held: [Int] = []
    for launch in 1...2 {
        let shelf = PersistentContainer(name: BookshelfModel.name, managedObjectModel: shelfModel)
        shelf.persistentStoreDescriptions.first?.url = url                // the default description, moved
        var loaded = true
        shelf.loadPersistentStores { description, error in
            guard let error else { return }
            print("   \(description.url?.path ?? "?"): launch \(launch) could not load: \(error)")
            loaded = false
        }
        guard loaded else { break }
        if launch == 1 {
            let book = Book(context: shelf.viewContext)
            book.title = "Dune"
            try shelf.viewContext.save()
        }
        held.append(try shelf.viewContext.count(for: Book.fetchRequest()))
    }                                                                    // each launch's container ends here
    print("   \(url.path): books after launch 1 and after launch 2: \(held).")
}

print("")
print("4. One model, or one per container?")
let readTwice = (try ModelBundle.main.model(named: "Garden"), try ModelBundle.main.model(named: "Garden"))
print("   Reading the model twice gives two instances: the same? \(readTwice.0 === readTwice.1)")
print("   Two containers made that way each have an entity description claiming the Plant class; Core Data")
print("   warns \"Multiple NSEntityDescriptions claim the NSManagedObject subclass 'Plant'\" and may pick the wrong one.")
// region: one-model
let shared = try GardenModel.make()                 // read once…
let a = PersistentContainer(name: "Garden", managedObjectModel: shared)
let b = PersistentContainer(name: "Garden", managedObjectModel: shared)   // …and shared by every container
// endregion: one-model
print("   Loading it once and sharing it: the same? \(a.managedObjectModel === b.managedObjectModel)")
