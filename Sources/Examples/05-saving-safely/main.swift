import Foundation
import KataSupport
import Persistence

// Lesson 5's runnable example: one invalid object poisons a context — every later save fails, however valid the new
// work — until rollback() clears it. Then what rollback and reset each throw away, a podcast import on a private
// queue that keeps every episode it can save, and a conflict that a rollback alone cannot clear.
// `swift run lessons run 5`.

extension Plant {
    /// A new plant called `name` in `context`, not saved yet.
    convenience init(named name: String, in context: ManagedObjectContext) {
        self.init(context: context)
        self.name = name
    }
}

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
Plant(context: context).wateredOn = Date()        // a plant whose mandatory name is never set
attemptSave("save 1, the nameless plant")
for name in ["Fern", "Rose"] {
    _ = Plant(named: name, in: context)           // perfectly valid…
    attemptSave("save of \(name)")                // …and still refused: the nameless plant is saved with it
}
// endregion: poisoned
print("   the store holds \(try storeHolds()); the context has changes: \(context.hasChanges)")

print("")
print("2. rollback() cures it")
// region: cured
context.rollback()                                // the nameless plant, Fern and Rose all leave the context
let tulip = Plant(named: "Tulip", in: context)
attemptSave("save of Tulip after rollback")
// endregion: cured
print("   the store holds \(try storeHolds())")

print("")
print("3. rollback() discards everything unsaved, not only the mistake")
// region: everything
tulip.wateredOn = Date()                          // a change the user wanted to keep
let basil = Plant(named: "Basil", in: context)    // and a plant they just added
Plant(context: context).wateredOn = Date()        // then one mistake: no name
attemptSave("save of all three")
context.rollback()
print("   after rollback: Tulip watered? \(tulip.wateredOn != nil); Basil in the context? \(basil.managedObjectContext != nil)")
// endregion: everything

print("")
print("3b. A context of its own: rolling it back touches nothing else")
// Another app: a podcast player, whose screen has just added an episode and not saved it yet.
let player = PersistentContainer(name: PodcastModel.name, managedObjectModel: try PodcastModel.make())
player.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
player.loadPersistentStores { _, error in
    if let error { print("could not load the player's store: \(error)") }
}
let seeder = player.newBackgroundContext()
try seeder.performAndWait {
    for number in 1...3 {
        let episode = Episode(context: seeder)
        episode.number = number
        episode.title = "Episode \(number)"
    }
    try seeder.save()
}
let screen = player.viewContext
let typedIn = Episode(context: screen)                   // unsaved work on the screen
typedIn.number = 4
typedIn.title = "Bonus: l'été"
// region: own-context
// "Mark all as played?" — tried out first where nothing else lives: a context of its own on the same store,
// which fetches its own objects, changes them, and forgets the changes again.
let preview = player.newBackgroundContext()
let wouldMark = try preview.performAndWait {
    let unplayed: FetchRequest<Episode> = Episode.fetchRequest()
    unplayed.predicate = FetchPredicate(format: "listened == NO")
    for episode in try preview.fetch(unplayed) { episode.listened = true }
    let changed = preview.updatedObjects.count
    preview.rollback()                                   // discards what preview holds, and nothing else
    return changed
}
// endregion: own-context
let stillUnplayed = try seeder.performAndWait {
    let unplayed: FetchRequest<Episode> = Episode.fetchRequest()
    unplayed.predicate = FetchPredicate(format: "listened == NO")
    return try seeder.fetch(unplayed).count
}
print("   the preview would mark \(wouldMark) episodes played; rolled back, the store still has \(stillUnplayed) "
    + "unplayed, and the screen's new episode is still pending: \(screen.insertedObjects.contains(typedIn))")

print("")
print("4. reset() forgets every object, saved or not")
// region: reset
let old = try context.fetch(Plant.fetchRequest())[0]
context.reset()                                   // unsaved changes go, and so does every registered object
let fresh = try context.fetch(Plant.fetchRequest())[0]
// endregion: reset
print("   the object fetched before reset still belongs to the context: \(old.managedObjectContext != nil) "
    + "(Apple documents it only as invalid)")
print("   fetched again: \"\(fresh.name)\", a new object: \(old !== fresh)")

print("")
print("5. A podcast import on a private queue keeps every episode it can save")
let podcasts = PersistentContainer(name: PodcastModel.name, managedObjectModel: try PodcastModel.make())
podcasts.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
podcasts.loadPersistentStores { _, error in
    if let error { print("could not load the podcast store: \(error)") }
}

// region: background
extension ManagedObjectContext {
    /// Saves the episodes of `feed` one at a time, on this context's queue, and returns the ones it could not save
    /// with their error codes. The caller awaits the answer instead of blocking a thread. A refused episode is
    /// rolled back at once, on the queue: left in the context, it would be saved again with every later episode
    /// and make each of those saves fail too.
    func importEach(_ feed: [(number: Int, title: String?)]) async -> [(number: Int, code: Int)] {
        await perform {
            var refused: [(number: Int, code: Int)] = []
            for entry in feed {
                let episode = Episode(context: self)
                episode.number = entry.number
                if let title = entry.title { episode.title = title }    // a feed entry may lack its title
                do {
                    try self.save()
                } catch {
                    self.rollback()              // only this episode was unsaved: the others are already stored
                    refused.append((entry.number, (error as NSError).code))
                }
            }
            return refused
        }
    }
}
// endregion: background
let refused = await podcasts.newBackgroundContext().importEach(
    [(1, "Grandma's kitchen"), (2, nil), (3, "Café Müller"), (4, "Señor Coconut")])
print("   refused: " + refused.map { "episode \($0.number), error \($0.code)" }.joined(separator: "; "))
let reader = podcasts.newBackgroundContext()
let stored = try reader.performAndWait {
    let request: FetchRequest<Episode> = Episode.fetchRequest()
    request.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.number, ascending: true)]
    return try reader.fetch(request).map { "\($0.number) \($0.title)" }
}
print("   the podcast store holds: " + stored.joined(separator: "; "))

print("")
print("6. A conflict: rollback() keeps the stale copy, a refresh reads the store again")
// The imported feed on screen: the view context shows episode 1 while a sync, on its own context, marks it played.
let desk = podcasts.viewContext
let byNumber: FetchRequest<Episode> = Episode.fetchRequest()
byNumber.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.number, ascending: true)]
let pilot = try desk.fetch(byNumber)[0]
let pilotID = pilot.objectID
let sync = podcasts.newBackgroundContext()
try sync.performAndWait {
    (try sync.existingObject(with: pilotID) as? Episode)?.listened = true
    try sync.save()
}
/// Renames episode 1 in the view context and saves, rolling back when that fails, and says what happened.
@MainActor func retitlePilot(_ label: String) {
    pilot.title = "Pilot: l'été"
    do {
        try desk.save()
        print("   \(label): saved; played? \(pilot.listened)")
    } catch let error as NSError {
        desk.rollback()
        print("   \(label): failed, error \(error.code); rolled back, played? \(pilot.listened)")
    }
}
// region: conflict
retitlePilot("first try")                         // the view context's snapshot predates the sync's save
retitlePilot("after rollback()")                  // rollback() restored that same snapshot: the same conflict
desk.refresh(pilot, mergeChanges: false)          // a fault now; its next read is the store's row
retitlePilot("after refresh")
// endregion: conflict
