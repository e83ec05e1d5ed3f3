import Foundation
import KataSupport
import Persistence

// Lesson 1's runnable example: the same two tests, run twice, first against a manager that builds its own stack on
// the app's store file, then against a fresh in-memory store per test. `swift run lessons run 1`.

// Start as a fresh install would: no store file yet.
for suffix in ["", "-wal", "-shm"] {
    try? FileManager.default.removeItem(atPath: NaiveBookManager.storeURL.path + suffix)
}

// region: the-tests
/// Saves a book, then expects the shelf to hold exactly that book.
let createsABook = ExampleTest(name: "testCreatesABook") { context in
    let book = Book(context: context)
    book.title = "Dune"
    try context.save()
    let titles = try context.fetch(Book.fetchRequest()).map(\.title)
    try ExampleTest.expect(titles == ["Dune"], "expected [\"Dune\"], found \(titles)")
}

/// Expects a new shelf to be empty.
let startsEmpty = ExampleTest(name: "testStartsEmpty") { context in
    let count = try context.count(for: Book.fetchRequest())
    try ExampleTest.expect(count == 0, "expected no books, found \(count)")
}
// endregion: the-tests

print("1. Each test makes a NaiveBookManager, which opens the app's store file:")
print("   \(NaiveBookManager.storeURL.path)")
for run in 1...2 {
    print("  run \(run) of the test suite:")
    for test in [createsABook, startsEmpty] {
        test.run { try NaiveBookManager().context }
    }
}
let left = (try? NaiveBookManager().allTitles()) ?? []
print("  The file now holds \(left.count) books: \(left). They outlive every test and every run.")

print("")
print("2. Each test gets its own container on an in-memory store (the URL /dev/null):")
// region: fresh-store
func freshContext() throws -> ManagedObjectContext {
    let container = PersistentContainer(name: BookshelfModel.name, managedObjectModel: try BookshelfModel.shared())
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
    nonisolated(unsafe) var loadError: (any Error)?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container.viewContext
}
// endregion: fresh-store
for run in 1...2 {
    print("  run \(run) of the test suite:")
    for test in [createsABook, startsEmpty] {
        test.run(with: freshContext)
    }
}
print("  Nothing is left behind: each store disappeared with its container.")

print("")
print("3. Writing on a background context, reading on the main one:")
let shelf = PersistentContainer(name: BookshelfModel.name, managedObjectModel: try BookshelfModel.shared())
shelf.persistentStoreDescriptions = [.inMemory()]
shelf.loadPersistentStores { _, error in
    if let error { print("  could not load the store: \(error)") }
}
// region: background-write
let main = shelf.viewContext
let background = shelf.newBackgroundContext()
// The background context's objects may only be touched on its queue: performAndWait runs the block there.
try background.performAndWait {
    for title in ["Emma", "Dune"] {
        let book = Book(context: background)
        book.title = title
    }
    try background.save()
}
let request = Book.fetchRequest()
request.sortDescriptors = [FetchSortDescriptor(\Book.title)]
let books = try main.fetch(request)           // objects of the main context, for the UI
// endregion: background-write
print("  the main context reads \(books.map(\.title))")
// region: pass-the-id
let dune = books[0]
let duneID = dune.objectID                    // an ID may cross queues; the object may not
try background.performAndWait {
    guard let mine = try background.existingObject(with: duneID) as? Book else { return }
    mine.title = "Dune Messiah"
    try background.save()
}
print("  after the background rename, the main context's object still says \"\(dune.title)\"")
main.refresh(dune, mergeChanges: false)       // forget what it read; the next read goes to the store
print("  after refresh(_:mergeChanges:), it says \"\(dune.title)\"")
// endregion: pass-the-id
for suffix in ["", "-wal", "-shm"] {
    try? FileManager.default.removeItem(atPath: NaiveBookManager.storeURL.path + suffix)
}
