import Foundation
import KataSupport
import Persistence

// Lesson 10's runnable example: a podcast app's episode list while an import saves the feed page by page. Unpinned,
// the list changes under the user after every page; pinned to a query generation, it stays still and its faults
// still fire; then what moves it forward. `swift run lessons run 10`.

func makeContainer() throws -> PersistentContainer {
    let container = PersistentContainer(name: PodcastModel.name, managedObjectModel: try PodcastModel.make())
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
    container.loadPersistentStores { _, error in
        if let error { print("could not load the store: \(error)") }
    }
    return container
}

/// Saves the feed before the import: three episodes.
func saveFeed(in context: ManagedObjectContext) throws {
    for (number, title) in [(1, "Pilot"), (2, "Second wind"), (3, "Third time")] {
        let episode = Episode(context: context)
        episode.number = number
        episode.title = title
    }
    try context.save()
}

/// One page of the import, saved by a background context.
@discardableResult
func importPage(_ container: PersistentContainer, insert: [Int] = [], rename: [Int: String] = [:],
                delete: [Int] = []) throws -> Notification? {
    let importer = container.newBackgroundContext()
    let recorder = SaveRecorder(of: importer)
    try importer.performAndWait {
        for number in insert {
            let episode = Episode(context: importer)
            episode.number = number
            episode.title = "Episode \(number)"
        }
        for episode in try importer.fetch(Episode.fetchRequest()) {
            if let title = rename[episode.number] { episode.title = title }
            if delete.contains(episode.number) { importer.delete(episode) }
        }
        try importer.save()
    }
    return recorder.notification
}

/// Keeps the did-save notification of one context, to merge it elsewhere by hand.
final class SaveRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var saved: Notification?
    private var observer: (any NSObjectProtocol)?

    init(of context: ManagedObjectContext) {
        observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                          object: context, queue: nil) { [weak self] note in
            self?.lock.withLock { self?.saved = note }
        }
    }

    deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }

    var notification: Notification? { lock.withLock { saved } }
}

/// What a context's list shows: its episodes by number.
func list(_ context: ManagedObjectContext) throws -> String {
    let request: FetchRequest<Episode> = Episode.fetchRequest()
    request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.number, ascending: true)]
    return try context.fetch(request).map { "\($0.number) \($0.title)" }.joined(separator: " · ")
}

print("1. Not pinned: the list changes after every page of the import")
do {
    let container = try makeContainer()
    let context = container.viewContext
    try saveFeed(in: context)
    print("   before:       \(try list(context))")
    let third = try context.fetch(Episode.fetchRequest()).first { $0.number == 3 }!
    // region: unpinned
    try importPage(container, insert: [4, 5])
    print("   after page 1: \(try list(context))")
    try importPage(container, insert: [6], delete: [3])
    print("   after page 2: \(try list(context))")
    context.refresh(third, mergeChanges: false)        // a memory warning: episode 3 is a fault again
    let title = third.value(forKey: "title").map { "\"\($0)\"" } ?? "nil"   // `third.title` would meet that nil
    print("   episode 3, deleted by page 2, fires: title \(title), isDeleted \(third.isDeleted)")
    // endregion: unpinned
}

print("")
print("2. Pinned to a query generation: the list stays still, and its faults still fire")
do {
    let container = try makeContainer()
    let context = container.viewContext
    try saveFeed(in: context)
    // region: pin
    try context.setQueryGenerationFrom(.current)        // pin at the next read…
    print("   before:       \(try list(context))")       // …which is this one
    try importPage(container, insert: [4, 5])
    print("   after page 1: \(try list(context))")
    try importPage(container, insert: [6], delete: [3])
    print("   after page 2: \(try list(context))")
    // endregion: pin
    let third = try context.fetch(Episode.fetchRequest()).first { $0.number == 3 }!
    context.refresh(third, mergeChanges: false)
    print("   episode 3, deleted by page 2, fires: title \"\(third.title)\", isDeleted \(third.isDeleted)")
    let reader = container.newBackgroundContext()
    print("   the store itself holds: \(try reader.performAndWait { try list(reader) })")
}

print("")
print("3. A context's own token before it is pinned")
do {
    let container = try makeContainer()
    let context = container.viewContext
    try saveFeed(in: context)
    // region: own-token
    let token = context.queryGenerationToken            // nil: this context is not pinned
    try context.setQueryGenerationFrom(token)           // so this asks for no pinning at all
    _ = try list(context)
    try importPage(container, insert: [4])
    print("   token \(token.map { "\($0)" } ?? "nil"); after a page the list shows \(try list(context))")
    // endregion: own-token
}

print("")
print("4. Moving forward when the import ends: .current, then refreshAllObjects()")
do {
    let container = try makeContainer()
    let context = container.viewContext
    try saveFeed(in: context)
    try context.setQueryGenerationFrom(.current)
    _ = try list(context)
    try importPage(container, insert: [4], rename: [1: "Pilot (remastered)"])
    // region: move-forward
    try context.setQueryGenerationFrom(.current)
    print("   .current only:         \(try list(context))")
    context.refreshAllObjects()
    print("   then refreshAllObjects: \(try list(context))")
    // endregion: move-forward
}

print("")
print("5. What else moves a pinned context forward: its own save, reset(), a merge")
do {
    let container = try makeContainer()
    let context = container.viewContext
    try saveFeed(in: context)
    var number = 4
    /// Pins the context, lets the import save one more episode, then moves the context with `move`.
    func pinThen(_ label: String, _ move: (Notification?) throws -> Void) throws {
        try context.setQueryGenerationFrom(.current)
        let before = try context.count(for: Episode.fetchRequest())
        let saved = try importPage(container, insert: [number])
        number += 1
        let pinned = try context.count(for: Episode.fetchRequest())
        try move(saved)
        let after = try context.count(for: Episode.fetchRequest())
        print("   \(label): pinned at \(before) episodes; the import saves one more; still \(pinned); "
            + "after \(label), \(after)")
    }
    // region: moves
    try pinThen("its own save") { _ in
        context.fetchEpisode(1)?.listened = true
        try context.save()                              // a save moves the context to the newest data
    }
    try pinThen("reset()") { _ in
        context.reset()                                 // so does reset(), which also forgets every object
    }
    try pinThen("merging the import's save") { saved in
        if let saved { context.mergeChanges(fromContextDidSave: saved) }     // and so does a merge
    }
    // endregion: moves
}

print("")
print("6. shouldDeleteInaccessibleFaults = false: a fault whose row is gone is an error, not an empty object")
do {
    let container = try makeContainer()
    let context = container.viewContext
    try saveFeed(in: context)
    let third = context.fetchEpisode(3)!
    try importPage(container, delete: [3])
    // region: strict
    context.shouldDeleteInaccessibleFaults = false
    context.refresh(third, mergeChanges: false)
    _ = third.title                                     // Core Data throws an exception here
    context.fetchEpisode(1)?.listened = true
    do {
        try context.save()                              // Persistence reports it at the next save
    } catch let error as NSError {
        print("   the save failed: error \(error.code), \(error.localizedDescription)")
    }
    // endregion: strict
}

extension ManagedObjectContext {
    /// The episode with `number` in this context, fetched.
    func fetchEpisode(_ number: Int) -> Episode? {
        let request: FetchRequest<Episode> = Episode.fetchRequest()
        request.predicate = FetchPredicate(format: "number == %d", number)
        return (try? fetch(request))?.first
    }
}
