import Foundation
import KataSupport
import Persistence

// Lesson 6's runnable example: what a fetch hands back (faults, or filled objects), what counting by fetching
// costs, what object(with:) and existingObject(with:) each do with an ID whose row is gone, and a question
// answered with IDs alone, fetched by another context. `swift run lessons run 6`.

let container = PersistentContainer(name: WeatherModel.name, managedObjectModel: try WeatherModel.make())
container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
container.loadPersistentStores { _, error in
    if let error { print("could not load the store: \(error)") }
}
let context = container.viewContext
let start = Date(timeIntervalSinceReferenceDate: 790_000_000)
let readingCount = 20_000

/// Saves a reading every five minutes at the harbour, through a background context.
func saveReadings() throws {
    let writer = container.newBackgroundContext()
    try writer.performAndWait {
        for n in 0..<readingCount {
            let reading = Reading(context: writer)
            reading.station = "Harbour"
            reading.takenAt = start.addingTimeInterval(Double(n) * 300)
            reading.celsius = Double(n % 31) - 8
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

var readingsInMemory: Int { context.registeredObjects.count }

try saveReadings()
print("\(readingCount) readings saved through a background context; the view context holds \(readingsInMemory).")

print("")
print("1. A fetch returns faults unless asked not to")
// region: faults
let request: FetchRequest<Reading> = Reading.fetchRequest()  // returnsObjectsAsFaults is true by default
let readings = try context.fetch(request)
let first = readings[0]
print("   fetched \(readings.count); the first is a fault: \(first.isFault)")
_ = first.celsius                                      // reading a property fires the fault
print("   after reading its celsius:          \(first.isFault)")
// endregion: faults
context.reset()

// region: arrivals
/// Counts the readings whose values arrive from the store (their awakeFromFetch()).
final class ArrivalCounter { var count = 0 }
let arrived = ArrivalCounter()
Reading.arrivals.observe { _ in arrived.count += 1 }
for asFaults in [true, false] {
    let lastDay: FetchRequest<Reading> = Reading.fetchRequest()
    lastDay.predicate = FetchPredicate(format: "takenAt >= %@", start.addingTimeInterval(Double(readingCount - 288) * 300))
    lastDay.returnsObjectsAsFaults = asFaults
    arrived.count = 0
    let day = try context.fetch(lastDay)
    let duringFetch = arrived.count
    let mean = day.reduce(0) { $0 + $1.celsius } / Double(day.count)
    print("   returnsObjectsAsFaults = \(asFaults):".padding(toLength: 35, withPad: " ", startingAt: 0)
          + "\(day.count) readings; values arrived during the fetch: \(duringFetch), while averaging: "
          + "\(arrived.count - duringFetch) (mean \(String(format: "%.2f", mean)) °C)")
    context.reset()
}
Reading.arrivals.observe(nil)
// endregion: arrivals

/// The mean of every reading's celsius, fetched with or without faults, each time in a fresh context.
func average(asFaults: Bool) throws -> (Double, Double) {
    let reader = container.newBackgroundContext()
    return try reader.performAndWait {
        try timed {
            let request: FetchRequest<Reading> = Reading.fetchRequest()
            request.returnsObjectsAsFaults = asFaults
            let readings = try reader.fetch(request)
            return readings.reduce(0) { $0 + $1.celsius } / Double(readings.count)
        }
    }
}
// Best of three runs each: the first runs also warm up the store.
for asFaults in [true, false] {
    let runs = try (0..<3).map { _ in try average(asFaults: asFaults) }
    let best = runs.map(\.1).min()!
    print("   average of \(readingCount), returnsObjectsAsFaults = \(asFaults):".padding(toLength: 53, withPad: " ", startingAt: 0)
          + String(format: "%.2f °C, best of 3: %@", runs[0].0, ms(best)))
}

print("")
print("2. Counting: fetch and count the array, or let the store count")
// region: count
let frosty: FetchRequest<Reading> = Reading.fetchRequest()
frosty.predicate = FetchPredicate(format: "celsius < %@", 0.0)
let (fetched, fetchSeconds) = try timed { try context.fetch(frosty) }
print("   fetch(_:).count = \(fetched.count) in \(ms(fetchSeconds)); objects in the context while the array lives: "
    + "\(readingsInMemory)")
context.reset()
let (counted, countSeconds) = try timed { try context.count(for: frosty) }
print("   count(for:)     = \(counted) in \(ms(countSeconds)); objects now in the context: \(readingsInMemory)")
// endregion: count

print("")
print("3. An ID whose row is gone: object(with:) against existingObject(with:)")
// The ID of the oldest reading, which a background context then deletes.
let oldest: FetchRequest<Reading> = Reading.fetchRequest()
oldest.sortDescriptors = [FetchSortDescriptor(keyPath: \Reading.takenAt, ascending: true)]
oldest.fetchLimit = 1
let oldestID = try context.fetch(oldest)[0].objectID
context.reset()
let deleter = container.newBackgroundContext()
try deleter.performAndWait {
    deleter.delete(try deleter.existingObject(with: oldestID))
    try deleter.save()
}
// region: gone
let unchecked = context.object(with: oldestID) as! Reading   // not registered here, so a fault: nothing checks the row
print("   object(with:) hands back an object; is it a fault? \(unchecked.isFault)")
let station = unchecked.value(forKey: "station").map { "\"\($0)\"" } ?? "nil"   // `unchecked.station` would meet that nil
print("   firing it finds no row: station \(station), \(unchecked.celsius) °C; now deleted? \(unchecked.isDeleted)")
do {
    _ = try context.existingObject(with: oldestID)             // reads the store now
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
