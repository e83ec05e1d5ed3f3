import Foundation
import KataSupport
import Persistence

// Lesson 1's runnable example: the same two tests, run twice, first against a manager that builds its own stack on
// the app's store file, then against a fresh in-memory store per test. It keeps to a to-do list (lesson 14's
// TodoItem), so that the books of the katas are the learner's to write. `swift run lessons run 1`.

// Start as a fresh install would: no store file yet.
for suffix in ["", "-wal", "-shm"] {
    try? FileManager.default.removeItem(atPath: NaiveTodoManager.storeURL.path + suffix)
}

// region: the-tests
/// Saves a to-do, then expects the list to hold exactly that one.
let addsATodo = ExampleTest(name: "testAddsATodo") { context in
    let item = TodoItem(context: context)
    item.title = "Buy milk"
    try context.save()
    let titles = try context.fetch(TodoItem.fetchRequest()).map(\.title)
    try ExampleTest.expect(titles == ["Buy milk"], "expected [\"Buy milk\"], found \(titles)")
}

/// Expects a new list to be empty.
let startsEmpty = ExampleTest(name: "testStartsEmpty") { context in
    let count = try context.count(for: TodoItem.fetchRequest())
    try ExampleTest.expect(count == 0, "expected no to-dos, found \(count)")
}
// endregion: the-tests

print("1. Each test makes a NaiveTodoManager, which opens the app's store file:")
print("   \(NaiveTodoManager.storeURL.path)")
for run in 1...2 {
    print("  run \(run) of the test suite:")
    for test in [addsATodo, startsEmpty] {
        test.run { try NaiveTodoManager().context }
    }
}
let left = (try? NaiveTodoManager().allTitles()) ?? []
print("  The file now holds \(left.count) to-dos: \(left). They outlive every test and every run.")

print("")
print("2. Each test gets its own container on an in-memory store (the URL /dev/null):")
// region: fresh-store
func freshContext() throws -> ManagedObjectContext {
    let container = PersistentContainer(name: TodoModel.name, managedObjectModel: try TodoModel.shared())
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
    for test in [addsATodo, startsEmpty] {
        test.run(with: freshContext)
    }
}
print("  Nothing is left behind: each store disappeared with its container.")

print("")
print("3. Reading back exactly what was asked for:")
let list = try freshContext()
for (title, done) in [("Water the fern", false), ("Buy milk", true), ("Call the bank", false)] {
    let item = TodoItem(context: list)
    item.title = title
    item.done = done
}
try list.save()
// region: fetch-with-predicate
let open: FetchRequest<TodoItem> = TodoItem.fetchRequest()
open.predicate = FetchPredicate(format: "done == %@", false as NSNumber)                 // only rows that match
open.sortDescriptors = [FetchSortDescriptor(keyPath: \TodoItem.title, ascending: true)] // in this order
open.fetchLimit = 10                                                                    // at most ten rows
let toDo = try list.fetch(open)                                                         // [TodoItem], maybe empty
let onList = try list.count(for: TodoItem.fetchRequest())                               // counts, fetches none
// endregion: fetch-with-predicate
print("  still to do: \(toDo.map(\.title)); to-dos on the list: \(onList)")

for suffix in ["", "-wal", "-shm"] {
    try? FileManager.default.removeItem(atPath: NaiveTodoManager.storeURL.path + suffix)
}
