import Foundation
import KataSupport
import Persistence

// Lesson 10's runnable example: a to-do app's weekly review makes several reads — how many items are open, which
// ones, how many are done — that must add up, while the home-screen widget, another process with its own container
// on the same store file, ticks items off, adds and deletes them. Unpinned, the reads disagree; pinned to a query
// generation they agree, and a second context can share the snapshot; then what moves a pinned context forward.
// `swift run lessons run 10`.

/// Where this run keeps its store files: a store file in WAL mode, as on Apple platforms (see the lesson).
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("review-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

/// A container on the store file `name` in the run's folder. The app and the widget each open their own, as two
/// processes do.
func openStore(_ name: String) throws -> PersistentContainer {
    let container = PersistentContainer(name: TodoModel.name, managedObjectModel: try TodoModel.shared())
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: folder.appendingPathComponent(name))]
    container.loadPersistentStores { _, error in
        if let error { print("could not load the store: \(error)") }
    }
    return container
}

/// Saves the week's to-do list before the review: three open items and one done.
func writeWeek(in context: ManagedObjectContext) throws {
    for (title, done) in [("Buy milk", false), ("Call mum", false), ("Pay rent", false), ("Renew passport", true)] {
        let item = TodoItem(context: context)
        item.title = title
        item.done = done
    }
    try context.save()
}

/// The widget's work, saved in its own container: items ticked off, added and deleted by title. Returns what it
/// saved as object URIs under the did-save keys, the way one process tells another.
@discardableResult
func widget(_ widget: PersistentContainer, ticks: [String] = [], adds: [String] = [], deletes: [String] = []) throws
    -> [AnyHashable: Any] {
    let context = widget.viewContext
    var added: [TodoItem] = [], changed: [TodoItem] = [], removed: [TodoItem] = []
    for title in adds {
        let item = TodoItem(context: context)
        item.title = title
        added.append(item)
    }
    for item in try context.fetch(TodoItem.fetchRequest()) {
        if ticks.contains(item.title) { item.done = true; changed.append(item) }
        if deletes.contains(item.title) { context.delete(item); removed.append(item) }
    }
    try context.save()
    func uris(_ items: [TodoItem]) -> [URL] { items.map { $0.objectID.uriRepresentation() } }
    return [ManagedObjectContext.NotificationKey.insertedObjects.rawValue: uris(added),
            ManagedObjectContext.NotificationKey.updatedObjects.rawValue: uris(changed),
            ManagedObjectContext.NotificationKey.deletedObjects.rawValue: uris(removed)]
}

/// A request for the open items, by title.
func openItems() -> FetchRequest<TodoItem> {
    let request: FetchRequest<TodoItem> = TodoItem.fetchRequest()
    request.predicate = FetchPredicate(format: "done == NO")
    request.sortDescriptors = [FetchSortDescriptor(keyPath: \TodoItem.title, ascending: true)]
    return request
}

/// The item titled `title` in `context`, fetched.
func item(_ title: String, in context: ManagedObjectContext) throws -> TodoItem? {
    let request: FetchRequest<TodoItem> = TodoItem.fetchRequest()
    request.predicate = FetchPredicate(format: "title == %@", title)
    return try context.fetch(request).first
}

print("1. Not pinned: the review's reads disagree")
do {
    let app = try openStore("unpinned.sqlite"), phone = try openStore("unpinned.sqlite")
    let review = app.viewContext
    try writeWeek(in: review)
    let call = try item("Call mum", in: review)!       // held by the review's screen
    // region: unpinned
    let counted = try review.count(for: openItems())                    // read 1
    try widget(phone, ticks: ["Buy milk"], adds: ["Walk the dog"], deletes: ["Call mum"])
    let listed = try review.fetch(openItems()).map(\.title)             // read 2, a moment later
    print("   counted \(counted) open; listed \(listed.count): \(listed.joined(separator: " · "))")
    review.refresh(call, mergeChanges: false)           // memory pressure: a fault again
    let title = call.value(forKey: "title").map { "\"\($0)\"" } ?? "nil"  // `call.title` would meet that nil
    print("   \"Call mum\", deleted by the widget, fires: title \(title), isDeleted \(call.isDeleted)")
    // endregion: unpinned
}

print("")
print("2. Pinned to a query generation: the reads agree, and a second context can share the snapshot")
do {
    let app = try openStore("pinned.sqlite"), phone = try openStore("pinned.sqlite")
    let review = app.viewContext
    try writeWeek(in: review)
    // region: pin
    try review.setQueryGenerationFrom(.current)         // pinned at the next read…
    let counted = try review.count(for: openItems())    // …which is this one
    try widget(phone, ticks: ["Buy milk"], adds: ["Walk the dog"], deletes: ["Call mum"])
    let listed = try review.fetch(openItems()).map(\.title)
    print("   counted \(counted) open; listed \(listed.count): \(listed.joined(separator: " · "))")
    let preview = ManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)   // the review's print preview
    preview.persistentStoreCoordinator = app.persistentStoreCoordinator
    try preview.setQueryGenerationFrom(review.queryGenerationToken)   // a pinned context's token: its snapshot
    print("   the print preview, on the review's token, counts \(try preview.count(for: openItems())) open")
    // endregion: pin
    let call = try item("Call mum", in: review)!
    review.refresh(call, mergeChanges: false)
    print("   \"Call mum\", deleted by the widget, fires: title \"\(call.title)\", isDeleted \(call.isDeleted)")
    let now = try phone.viewContext.fetch(openItems()).map(\.title)
    print("   the store itself has open: \(now.joined(separator: " · "))")
}

print("")
print("3. An unpinned context's token")
do {
    let app = try openStore("token.sqlite"), phone = try openStore("token.sqlite")
    let review = app.viewContext
    try writeWeek(in: review)
    // region: own-token
    let preview = ManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
    preview.persistentStoreCoordinator = app.persistentStoreCoordinator
    let token = review.queryGenerationToken             // nil: the review was never pinned
    try preview.setQueryGenerationFrom(token)           // so this asks for no pinning at all
    let before = try preview.count(for: openItems())
    try widget(phone, ticks: ["Buy milk"])
    print("   token \(token.map { "\($0)" } ?? "nil"); the preview counts \(before) open, then "
        + "\(try preview.count(for: openItems())) after the widget's save")
    // endregion: own-token
}

print("")
print("4. Next week's review: .current, then refresh what is held")
do {
    let app = try openStore("forward.sqlite"), phone = try openStore("forward.sqlite")
    let review = app.viewContext
    try writeWeek(in: review)
    try review.setQueryGenerationFrom(.current)
    let rent = try item("Pay rent", in: review)!       // held, loaded, in this week's snapshot
    try widget(phone, ticks: ["Pay rent"], adds: ["Walk the dog"])
    // region: move-forward
    try review.setQueryGenerationFrom(.current)
    let open = try review.fetch(openItems()).map(\.title).joined(separator: " · ")
    print("   .current only: open \(open); the held \"Pay rent\" says done \(rent.done)")
    review.refresh(rent, mergeChanges: false)           // this one object reads the new generation
    print("   after refresh(_:mergeChanges:): \"Pay rent\" says done \(rent.done)")
    // endregion: move-forward
}

print("")
print("5. What else moves a pinned context forward: its own save, reset(), a merge")
do {
    let app = try openStore("moves.sqlite"), phone = try openStore("moves.sqlite")
    let review = app.viewContext
    try writeWeek(in: review)
    var number = 1
    /// Pins the review, lets the widget add one item, then moves the review with `move`.
    func pinThen(_ label: String, _ move: ([AnyHashable: Any]) throws -> Void) throws {
        try review.setQueryGenerationFrom(.current)
        let before = try review.count(for: TodoItem.fetchRequest())
        let saved = try widget(phone, adds: ["Widget item \(number)"])
        number += 1
        let pinned = try review.count(for: TodoItem.fetchRequest())
        try move(saved)
        let after = try review.count(for: TodoItem.fetchRequest())
        print("   \(label): pinned at \(before) items; the widget adds one; still \(pinned); after \(label), \(after)")
    }
    // region: moves
    try pinThen("its own save") { _ in
        try item("Renew passport", in: review)?.done = false
        try review.save()                               // a save moves the context to the newest data
    }
    try pinThen("reset()") { _ in
        review.reset()                                  // so does reset(), which also forgets every object
    }
    try pinThen("merging the widget's save") { saved in  // and so does a merge
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: saved, into: [review])
    }
    // endregion: moves
}

print("")
print("6. shouldDeleteInaccessibleFaults = false: a fault whose row is gone is an error, not an empty object")
do {
    let app = try openStore("strict.sqlite"), phone = try openStore("strict.sqlite")
    let review = app.viewContext
    try writeWeek(in: review)
    let call = try item("Call mum", in: review)!
    try widget(phone, deletes: ["Call mum"])
    // region: strict
    review.shouldDeleteInaccessibleFaults = false
    review.refresh(call, mergeChanges: false)
    _ = call.title                                      // Core Data throws an exception here
    try item("Buy milk", in: review)?.done = true
    do {
        try review.save()                               // Persistence reports it at the next save
    } catch let error as NSError {
        print("   the save failed: error \(error.code), \(error.localizedDescription)")
    }
    // endregion: strict
}

try? FileManager.default.removeItem(at: folder)
