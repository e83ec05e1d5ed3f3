import Foundation
import KataSupport
import Persistence

// Lesson 9's runnable example: a podcast player (lesson 7's Podcast model). A feed refresh saves in the background
// and tells whoever listens; the screen's context stays behind; a long-lived download worker follows the screen's
// saves, by hand and then by itself; marking a whole season listened in pages keeps the screen quiet until the end;
// and a batch delete of played episodes tells nobody until its IDs are merged. `swift run lessons run 9`.

func makeContainer() -> PersistentContainer {
    let container = PersistentContainer(name: PodcastModel.name, managedObjectModel: try! PodcastModel.shared())
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

/// The episodes the download worker will fetch audio for: objects of its context, touched only on its queue.
final class DownloadQueue: @unchecked Sendable {
    var episodes: [Episode] = []
    /// The titles of the episodes still in the context, by number; a played one is marked.
    var titles: [String] {
        episodes.filter { $0.managedObjectContext != nil }.sorted { $0.number < $1.number }
            .map { $0.listened ? "\($0.title) (played)" : $0.title }
    }
}

func episode(_ number: Int, _ title: String, in context: ManagedObjectContext) -> Episode {
    let episode = Episode(context: context)
    episode.number = number
    episode.title = title
    return episode
}

let container = makeContainer()
let viewContext = container.viewContext
// The player's screen holds the three episodes it lists.
let pilot = episode(1, "Pilot", in: viewContext)
let second = episode(2, "Second wind", in: viewContext)
let trailer = episode(3, "Trailer", in: viewContext)
try viewContext.save()
let feed = container.newBackgroundContext()
feed.name = "feed"

print("1. A save tells whoever listens what it inserted, updated and deleted")
// region: observe
let token = NotificationCenter.default.addObserver(
    forName: ManagedObjectContext.didSaveObjectsNotification,
    object: feed,                                        // this context's saves only
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
try feed.performAndWait {
    for episode in try feed.fetch(Episode.fetchRequest()) where episode.number == 2 {
        episode.title = "Second wind (extended)"
    }
    _ = episode(4, "Fourth wall", in: feed)
    try feed.save()
}
NotificationCenter.default.removeObserver(token)

print("")
print("2. The view context has not heard of it")
// region: stale
let found = try viewContext.fetch(Episode.fetchRequest()).map(\.number).sorted()
print("   a fetch finds episodes \(found) — episode 4's row is in the store — but episode 2, held already, is still "
    + "titled \"\(second.title)\"")
// endregion: stale

print("")
print("3. The other way round, by hand: a download worker follows the screen's saves")
// A long-lived private-queue context, holding what it will download: every episode not yet listened to.
let downloader = container.newBackgroundContext()
downloader.name = "downloader"
let queue = DownloadQueue()
try downloader.performAndWait {
    let request: FetchRequest<Episode> = Episode.fetchRequest()
    request.predicate = FetchPredicate(format: "listened == NO")
    queue.episodes = try downloader.fetch(request)
}
let heard = Counter()
// region: did-change
let changes = NotificationCenter.default.addObserver(
    forName: ManagedObjectContext.didChangeObjectsNotification, object: downloader, queue: nil
) { note in
    // Posted on the downloader's queue: its objects may be read here, and kept.
    let objects = { (key: String) in (note.userInfo?[key] as? Set<ManagedObject>) ?? [] }
    let titles = { (key: String) in objects(key).compactMap { ($0 as? Episode)?.title }.sorted() }
    print("   did-change of the downloader: inserted \(titles("inserted")), refreshed \(titles("refreshed")), "
        + "deleted \(objects("deleted").count) object(s)")
    queue.episodes += objects("inserted").compactMap { $0 as? Episode }   // a new episode: download it too
    heard.add()
}
// endregion: did-change
// region: merge-by-hand
let relayQueue = DispatchQueue(label: "downloader relay")   // serial: saves are merged in the order they were made
let relay = NotificationCenter.default.addObserver(
    forName: ManagedObjectContext.didSaveObjectIDsNotification, object: viewContext, queue: nil
) { note in
    // The screen saved, on the main queue. Take the IDs, which are safe to keep and to send anywhere, and return.
    typealias Key = ManagedObjectContext.NotificationKey
    let ids = { (key: Key) in Array(note.userInfo?[key.rawValue] as? Set<ManagedObjectID> ?? []) }
    let (added, changed, removed) = (ids(.insertedObjectIDs), ids(.updatedObjectIDs), ids(.deletedObjectIDs))
    relayQueue.async {
        // Merged into each context, under the did-save keys ("inserted"…), each with an array of IDs, as Apple asks.
        let save = [Key.insertedObjects.rawValue: added, Key.updatedObjects.rawValue: changed,
                    Key.deletedObjects.rawValue: removed]
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: save, into: [downloader])
    }
}
// endregion: merge-by-hand
// On screen: the pilot is played, the trailer is swiped away, and a live show is added by hand.
pilot.listened = true
viewContext.delete(trailer)
let liveShow = episode(5, "Live show", in: viewContext)
try viewContext.save()
runMainQueue { heard.value > 0 }
let (pilotListened, queued) = downloader.performAndWait {
    (queue.episodes.first { $0.number == 1 }?.listened ?? false, queue.titles)
}
print("   the downloader's pilot reads listened: \(pilotListened); its queue: \(queued)")
NotificationCenter.default.removeObserver(relay)

print("")
print("4. Merged automatically, into the same worker")
// region: automatic
downloader.performAndWait { downloader.automaticallyMergesChangesFromParent = true }   // a property of its queue
// endregion: automatic
let before = heard.value
try feed.performAndWait {
    _ = episode(6, "Sixth sense", in: feed)
    try feed.save()
}
liveShow.listened = true
try viewContext.save()
runMainQueue { heard.value >= before + 2 }
let (liveListened, queuedNow) = downloader.performAndWait {
    (queue.episodes.first { $0.number == 5 }?.listened ?? false, queue.titles)
}
print("   no merging code of ours: the live show reads listened: \(liveListened); the queue: \(queuedNow)")
NotificationCenter.default.removeObserver(changes)

print("")
print("5. Marking a season listened: 2,000 episodes in pages of 200, all of them on screen")
/// Marks every episode of `container` listened in pages of `pageSize`, in a background context, and counts how
/// many did-change notifications (redraws) the view context posted meanwhile.
func markSeasonListened(in container: PersistentContainer, pageSize: Int) throws -> Int {
    let screen = container.viewContext
    let redraws = Counter()
    let observer = NotificationCenter.default.addObserver(
        forName: ManagedObjectContext.didChangeObjectsNotification, object: screen, queue: nil
    ) { _ in redraws.add() }
    defer { NotificationCenter.default.removeObserver(observer) }
    let marker = container.newBackgroundContext()
    let pages = try marker.performAndWait {
        let episodes = try marker.fetch(Episode.fetchRequest())
        var pages = 0
        for first in stride(from: 0, to: episodes.count, by: pageSize) {
            for episode in episodes[first..<min(first + pageSize, episodes.count)] { episode.listened = true }
            try marker.save()
            pages += 1
        }
        return pages
    }
    runMainQueue { !screen.automaticallyMergesChangesFromParent || redraws.value >= pages }
    return redraws.value
}
/// A season of `count` episodes, saved, and held by the view context as a list screen holds them.
func season(_ count: Int) throws -> (PersistentContainer, [Episode]) {
    let container = makeContainer()
    let list = (1...count).map { episode($0, "Episode \($0)", in: container.viewContext) }
    try container.viewContext.save()
    container.viewContext.automaticallyMergesChangesFromParent = true
    return (container, list)
}
let (busy, busyList) = try season(2_000)
let busyRedraws = try markSeasonListened(in: busy, pageSize: 200)
print("   automatic merging on:  the screen's context changed \(busyRedraws) times while the job ran; "
    + "the last episode reads listened: \(busyList.last!.listened)")
let (quiet, quietList) = try season(2_000)
// region: quiet-season
let screen = quiet.viewContext
screen.automaticallyMergesChangesFromParent = false     // the pages are none of the screen's business…
let quietRedraws = try markSeasonListened(in: quiet, pageSize: 200)
screen.refreshAllObjects()                              // …until the end: every held episode re-reads its row once
screen.automaticallyMergesChangesFromParent = true
// endregion: quiet-season
print("   automatic merging off: the screen's context changed \(quietRedraws) times while the job ran; after one "
    + "refreshAllObjects() the last episode reads listened: \(quietList.last!.listened), and the screen still "
    + "holds all \(quietList.filter { $0.managedObjectContext === screen }.count)")

print("")
print("6. A batch delete tells nobody")
let saves = Counter()
let anySave = NotificationCenter.default.addObserver(
    forName: ManagedObjectContext.didSaveObjectsNotification, object: nil, queue: nil
) { _ in saves.add() }
// region: batch
let cleaner = container.newBackgroundContext()
let goneIDs = try cleaner.performAndWait {
    let played = FetchRequest<any FetchRequestResult>(entityName: "Episode")
    played.predicate = FetchPredicate(format: "listened == YES")
    let cleanUp = BatchDeleteRequest(fetchRequest: played)
    cleanUp.resultType = .resultTypeObjectIDs             // what went, to tell the contexts
    let outcome = try cleaner.execute(cleanUp) as? BatchDeleteResult
    return outcome?.result as? [ManagedObjectID] ?? []
}
// endregion: batch
runMainQueue { false }
let stillListed = downloader.performAndWait { queue.titles }
print("   \(goneIDs.count) played episodes deleted in SQL; did-save notifications posted: \(saves.value); "
    + "the screen still holds the pilot: \(viewContext.registeredObject(for: pilot.objectID) != nil); "
    + "the downloader's queue: \(stillListed)")
// region: merge-batch
let gone = [ManagedObjectContext.NotificationKey.deletedObjects.rawValue: goneIDs]
ManagedObjectContext.mergeChanges(fromRemoteContextSave: gone, into: [viewContext, downloader])
// endregion: merge-batch
let listedNow = downloader.performAndWait { queue.titles }
print("   after mergeChanges(fromRemoteContextSave:into:): the screen holds the pilot: "
    + "\(viewContext.registeredObject(for: pilot.objectID) != nil); the downloader's queue: \(listedNow)")
NotificationCenter.default.removeObserver(anySave)
