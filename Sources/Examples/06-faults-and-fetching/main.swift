import Foundation
import KataSupport
import Persistence

// Lesson 6's runnable example: what a fetch hands back (faults, or filled objects), what counting by fetching
// costs, what object(with:) and existingObject(with:) each do with an ID whose row is gone — on a flashcard app's
// cards — and a question answered with IDs alone, fetched by another context, in a podcast feed.
// `swift run lessons run 6`.

let container = PersistentContainer(name: FlashcardsModel.name, managedObjectModel: try FlashcardsModel.make())
container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
container.loadPersistentStores { _, error in
    if let error { print("could not load the store: \(error)") }
}
let context = container.viewContext
let cardCount = 20_000

/// Saves the cards of a large collection through a background context, spread over the five Leitner boxes.
func saveCards() throws {
    let writer = container.newBackgroundContext()
    try writer.performAndWait {
        for n in 0..<cardCount {
            let card = Flashcard(context: writer)
            card.front = "card \(n + 1)"
            card.box = [1, 1, 2, 3, 5][n % 5]
        }
        try writer.save()
    }
}

/// Seconds taken by `body`, and its result.
func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let began = DispatchTime.now().uptimeNanoseconds
    let result = try body()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
}

func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

var cardsInMemory: Int { context.registeredObjects.count }

try saveCards()
print("\(cardCount) flashcards saved through a background context; the view context holds \(cardsInMemory).")

print("")
print("1. A fetch returns faults unless asked not to")
// region: faults
let request: FetchRequest<Flashcard> = Flashcard.fetchRequest()  // returnsObjectsAsFaults is true by default
let cards = try context.fetch(request)
let first = cards[0]
print("   fetched \(cards.count); the first is a fault: \(first.isFault)")
_ = first.box                                          // reading a property fires the fault
print("   after reading its box:              \(first.isFault)")
// endregion: faults
context.reset()

// region: arrivals
// How far along is the learner? The mean box of the whole collection reads every card: fetched both ways, how
// many cards are still faults when the loop starts — each of those fires, one at a time, inside the loop.
for asFaults in [true, false] {
    let everything: FetchRequest<Flashcard> = Flashcard.fetchRequest()
    everything.returnsObjectsAsFaults = asFaults
    let collection = try context.fetch(everything)
    let stillFaults = collection.filter(\.isFault).count
    let meanBox = Double(collection.reduce(0) { $0 + $1.box }) / Double(collection.count)
    print("   returnsObjectsAsFaults = \(asFaults):".padding(toLength: 35, withPad: " ", startingAt: 0)
          + "\(collection.count) cards, \(stillFaults) still faults when the loop starts (mean box "
          + "\(String(format: "%.2f", meanBox)))")
    context.reset()
}
// endregion: arrivals

/// The mean box of every card, fetched with or without faults, each time in a fresh context.
func meanBox(asFaults: Bool) throws -> (Double, Double) {
    let reader = container.newBackgroundContext()
    return try reader.performAndWait {
        try timed {
            let request: FetchRequest<Flashcard> = Flashcard.fetchRequest()
            request.returnsObjectsAsFaults = asFaults
            let cards = try reader.fetch(request)
            return Double(cards.reduce(0) { $0 + $1.box }) / Double(cards.count)
        }
    }
}
// Best of three runs each: the first runs also warm up the store.
for asFaults in [true, false] {
    let runs = try (0..<3).map { _ in try meanBox(asFaults: asFaults) }
    let best = runs.map(\.1).min()!
    print("   mean box of \(cardCount), returnsObjectsAsFaults = \(asFaults):".padding(toLength: 56, withPad: " ", startingAt: 0)
          + String(format: "%.2f, best of 3: %@", runs[0].0, ms(best)))
}

print("")
print("2. Counting: fetch and count the array, or let the store count")
// region: count
// The badge on the "Review" tab: how many cards wait in box 1.
let boxOne: FetchRequest<Flashcard> = Flashcard.fetchRequest()
boxOne.predicate = FetchPredicate(format: "box == %d", 1)      // %d for a Swift Int; %@ would want NSNumber(value: 1)
let (fetched, fetchSeconds) = try timed { try context.fetch(boxOne) }
print("   fetch(_:).count = \(fetched.count) in \(ms(fetchSeconds)); objects in the context while the array lives: "
    + "\(cardsInMemory)")
context.reset()
let (counted, countSeconds) = try timed { try context.count(for: boxOne) }
print("   count(for:)     = \(counted) in \(ms(countSeconds)); objects now in the context: \(cardsInMemory)")
// endregion: count

print("")
print("3. An ID whose row is gone: object(with:) against existingObject(with:)")
// The ID of the first card, which a background context then deletes (the user deleted it on another screen).
let firstCard: FetchRequest<Flashcard> = Flashcard.fetchRequest()
firstCard.predicate = FetchPredicate(format: "front == %@", "card 1")
let deletedID = try context.fetch(firstCard)[0].objectID
context.reset()
let deleter = container.newBackgroundContext()
try deleter.performAndWait {
    deleter.delete(try deleter.existingObject(with: deletedID))
    try deleter.save()
}
// region: gone
let unchecked = context.object(with: deletedID) as! Flashcard  // not registered here, so a fault: nothing checks the row
print("   object(with:) hands back an object; is it a fault? \(unchecked.isFault)")
let front = unchecked.value(forKey: "front").map { "\"\($0)\"" } ?? "nil"   // `unchecked.front` would meet that nil
print("   firing it finds no row: front \(front), box \(unchecked.box); now deleted? \(unchecked.isDeleted)")
do {
    _ = try context.existingObject(with: deletedID)            // reads the store now
} catch let error as NSError {
    print("   existingObject(with:) throws \(error.code): \(error.localizedDescription)")
}
// endregion: gone
context.reset()

print("")
print("4. Only IDs cross: which episodes on screen are still unplayed?")
// A podcast feed, in a store of its own: 400 episodes, every third one listened to.
let feed = PersistentContainer(name: PodcastModel.name, managedObjectModel: try PodcastModel.make())
feed.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
feed.loadPersistentStores { _, error in
    if let error { print("could not load the feed: \(error)") }
}
let publisher = feed.newBackgroundContext()
try publisher.performAndWait {
    for number in 1...400 {
        let episode = Episode(context: publisher)
        episode.number = number
        episode.title = "Episode \(number)"
        episode.listened = number % 3 == 0
    }
    try publisher.save()
}
let screen = feed.viewContext
var episodesInMemory: Int { screen.registeredObjects.count }
// region: ids-only
// The screen shows the first five episodes; it holds them, so they stay in its context.
let page: FetchRequest<Episode> = Episode.fetchRequest()
page.sortDescriptors = [FetchSortDescriptor(keyPath: \Episode.number, ascending: true)]
page.fetchLimit = 5
let shown = try screen.fetch(page)

// Elsewhere, a context of its own gathers the unplayed ones: their IDs only, a set with no order to keep.
let unplayed: Set<ManagedObjectID> = try {
    let gatherer = feed.newBackgroundContext()
    return try gatherer.performAndWait {
        let query = FetchRequest<ManagedObjectID>(entityName: "Episode")
        query.predicate = FetchPredicate(format: "listened == NO")
        query.resultType = .managedObjectIDResultType           // no object is made for the 267 matches
        return Set(try gatherer.fetch(query))
    }
}()
print("   \(unplayed.count) unplayed episodes, known by ID; the screen's context holds \(episodesInMemory) episodes")
for episode in shown {                                         // an ID answers "is it unplayed?" without an object
    print("   #\(episode.number) \(episode.title): \(unplayed.contains(episode.objectID) ? "new" : "played")")
}
print("   after marking the rows the screen's context still holds \(episodesInMemory) episodes")
// endregion: ids-only
