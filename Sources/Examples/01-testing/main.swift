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
    container.persistentStoreDescriptions.first?.url = URL(fileURLWithPath: "/dev/null")   // the default one, moved
    var failures: [String] = []
    container.loadPersistentStores { description, error in
        if let error { failures.append("\(description.url?.path ?? "?"): \(error)") }
    }
    guard failures.isEmpty else { throw ExampleTest.Failure(description: failures.joined(separator: "; ")) }
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
print("3. Reading back exactly what was asked for:")
let shelf = try freshContext()
for (title, author) in [("Emma", "Jane Austen"), ("Persuasion", "Jane Austen"), ("Dune", "Frank Herbert")] {
    let book = Book(context: shelf)
    book.title = title
    book.author = author
}
try shelf.save()
// region: fetch-with-predicate
let byAusten: FetchRequest<Book> = Book.fetchRequest()
byAusten.predicate = FetchPredicate(format: "author == %@", "Jane Austen")               // only rows that match
byAusten.sortDescriptors = [FetchSortDescriptor(keyPath: \Book.title, ascending: true)]  // in this order
byAusten.fetchLimit = 10                                                                 // at most ten rows
let austen = try shelf.fetch(byAusten)                                                   // [Book], maybe empty
let onShelf = try shelf.count(for: Book.fetchRequest())                                  // counts, fetches no book
// endregion: fetch-with-predicate
print("  by Jane Austen: \(austen.map(\.title)); books on the shelf: \(onShelf)")

for suffix in ["", "-wal", "-shm"] {
    try? FileManager.default.removeItem(atPath: NaiveBookManager.storeURL.path + suffix)
}
