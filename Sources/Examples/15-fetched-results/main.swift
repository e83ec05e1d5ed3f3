import Foundation
// Persistence-only: itemDifference(from:), where UIKit applies a snapshot itself.
@_spi(SnapshotDifference) import Persistence

// Lesson 15's runnable example: a station's departure board in the terminal, kept by a fetched results
// controller while a background context — the feed from the signal box — saves changes. A plain fetch goes stale;
// the controller needs sort descriptors with the section key first; the board applies each batch of callbacks
// (and shows what Apple's old sample would have misread); the snapshot and difference forms; and a changed
// predicate that needs a new fetch. `swift run lessons run 15`.

func makeStation() throws -> PersistentContainer {
    let container = PersistentContainer(name: "Station", managedObjectModel: try StationModel.make())
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
    container.loadPersistentStores { _, error in
        if let error { print("could not load the store: \(error)") }
    }
    return container
}

/// The morning's timetable, saved through `context`.
func saveTimetable(in context: ManagedObjectContext) throws {
    for (train, destination, platform, time) in [("IC 512", "Bristol", "1", 482), ("RE 4", "Oxford", "1", 500),
                                                 ("S 9", "Airport", "1", 521), ("RE 7", "Reading", "2", 485),
                                                 ("IC 88", "Cardiff", "2", 510), ("S 3", "Harbour", "3", 495)] {
        let departure = Departure(context: context)
        departure.train = train
        departure.destination = destination
        departure.platform = platform
        departure.time = time
    }
    try context.save()
}

/// The departures by platform, then time.
func boardRequest() -> FetchRequest<Departure> {
    let request: FetchRequest<Departure> = Departure.fetchRequest()
    request.sortDescriptors = [
        FetchSortDescriptor(key: "platform", ascending: true),
        FetchSortDescriptor(key: "time", ascending: true),
    ]
    return request
}

// region: feed
/// One save of the feed from the signal box, in a background context of its own: IC 512 is delayed to 08:25, RE 7
/// moves to platform 4, S 3 is cancelled, an extra IC 90 runs at 08:35 from platform 2, and IC 88 is boarding.
func feedSavesTheMorningChanges(into container: PersistentContainer) throws {
    let feed = container.newBackgroundContext()
    try feed.performAndWait {
        for departure in try feed.fetch(Departure.fetchRequest()) {
            switch departure.train {
            case "IC 512": departure.time = 505; departure.status = "delayed"
            case "RE 7": departure.platform = "4"
            case "S 3": feed.delete(departure)
            case "IC 88": departure.status = "boarding"
            default: break
            }
        }
        let extra = Departure(context: feed)
        extra.train = "IC 90"
        extra.destination = "Swansea"
        extra.platform = "2"
        extra.time = 515
        try feed.save()
    }
}
// endregion: feed

/// Lets the main queue run — where the view context merges other contexts' saves — until `condition` holds (two
/// seconds at most).
func runMainQueue(until condition: () -> Bool) {
    let deadline = Date(timeIntervalSinceNow: 2)
    while !condition() && Date() < deadline { RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.01)) }
}

func trains(_ departures: [Departure]) -> String {
    departures.map { departure in
        // A departure another context deleted, once merged, belongs to no context and has no values left.
        guard departure.managedObjectContext != nil else { return "(deleted)" }
        return String(format: "%02d:%02d ", departure.time / 60, departure.time % 60) + departure.train
    }.joined(separator: ", ")
}

print("1. A fetch is an answer, not a subscription")
do {
    let container = try makeStation()
    let viewContext = container.viewContext
    viewContext.automaticallyMergesChangesFromParent = true
    try saveTimetable(in: viewContext)
    // region: fetch-is-a-snapshot
    let shown = try viewContext.fetch(boardRequest())
    try feedSavesTheMorningChanges(into: container)
    runMainQueue { shown[0].time == 505 }           // the view context merges the feed's save
    print("   the fetched array:  \(trains(shown))")
    print("   a new fetch:        \(trains(try viewContext.fetch(boardRequest())))")
    // endregion: fetch-is-a-snapshot
}

print("\n2. The controller's request: sort descriptors, the section key first")
do {
    let container = try makeStation()
    try saveTimetable(in: container.viewContext)
    // region: request
    let byTime: FetchRequest<Departure> = Departure.fetchRequest()
    byTime.sortDescriptors = [FetchSortDescriptor(key: "time", ascending: true)]
    let wrong = FetchedResultsController(fetchRequest: byTime, managedObjectContext: container.viewContext,
                                         sectionNameKeyPath: "platform", cacheName: nil)
    do {
        try wrong.performFetch()
    } catch {
        print("   sorted by time, sections by platform: performFetch() failed with error \((error as NSError).code):")
        print("     " + error.localizedDescription)
    }
    let board = FetchedResultsController(fetchRequest: boardRequest(), managedObjectContext: container.viewContext,
                                         sectionNameKeyPath: "platform", cacheName: nil)
    try board.performFetch()
    print("   sorted by platform, then time: \(board.sections?.count ?? 0) sections, "
        + "\(board.fetchedObjects?.count ?? 0) departures, index \(board.sectionIndexTitles)")
    // endregion: request
}

print("\n3. The board, and one batch from the feed, told row by row")
do {
    let container = try makeStation()
    let viewContext = container.viewContext
    viewContext.automaticallyMergesChangesFromParent = true
    try saveTimetable(in: viewContext)
    // region: board
    let controller = FetchedResultsController(fetchRequest: boardRequest(), managedObjectContext: viewContext,
                                              sectionNameKeyPath: "platform", cacheName: nil)
    let board = DepartureBoard()
    controller.delegate = board                     // before the fetch: a delegate is what turns tracking on
    try controller.performFetch()
    board.load(controller.sections ?? [])
    // endregion: board
    print(board.render())
    print("   the feed saves; the view context merges it; the controller tells the board:")
    try feedSavesTheMorningChanges(into: container)
    runMainQueue { board.batches == 1 }
    print(board.render())
    let fresh = try viewContext.fetch(boardRequest())
    print("   the board has \(board.platforms.reduce(0) { $0 + $1.lines.count }) lines; a fresh fetch has \(fresh.count) "
        + "departures, in the same order: \(board.platforms.flatMap(\.lines) == fresh.map(DepartureBoard.line(for:)))")
}

print("\n4. The same batch as a snapshot, and as a difference")
do {
    let container = try makeStation()
    let viewContext = container.viewContext
    viewContext.automaticallyMergesChangesFromParent = true
    try saveTimetable(in: viewContext)
    // region: snapshot
    final class SnapshotBoard: FetchedResultsControllerDelegate {
        var last = DiffableDataSourceSnapshotReference()
        var log: [String] = []
        var names: (ManagedObjectID) -> String = { _ in "?" }

        func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                        didChangeContentWith snapshot: DiffableDataSourceSnapshotReference) {
            let difference = snapshot.itemDifference(from: last)
            log.append("snapshot \(log.count + 1): platforms \(snapshot.sectionIdentifiers), "
                + "\(snapshot.numberOfItems) departures (\(difference.insertions.count) in, "
                + "\(difference.removals.count) out); reload \(snapshot.reloadedItemIdentifiers.map(names))")
            last = snapshot
        }
    }
    // endregion: snapshot
    let byPlatform = FetchedResultsController(fetchRequest: boardRequest(), managedObjectContext: viewContext,
                                              sectionNameKeyPath: "platform", cacheName: nil)
    let snapshots = SnapshotBoard()
    // Names by ID for the printout, kept from the start: a deleted departure has none left.
    let trainsByID = Dictionary(uniqueKeysWithValues: try viewContext.fetch(boardRequest()).map { ($0.objectID, $0.train) })
    snapshots.names = { id in trainsByID[id] ?? (viewContext.registeredObject(for: id) as? Departure)?.train ?? "?" }
    byPlatform.delegate = snapshots
    try byPlatform.performFetch()                   // a snapshot delegate gets the first one at once

    // region: difference
    final class DifferenceList: FetchedResultsControllerDelegate {
        var ids: [ManagedObjectID] = []
        var log: [String] = []
        var names: (ManagedObjectID) -> String = { _ in "?" }

        func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                        didChangeContentWith diff: CollectionDifference<ManagedObjectID>) {
            for change in diff {
                switch change {
                case .remove(let offset, let id, let to):
                    log.append("remove \(names(id)) at \(offset)" + (to.map { " (goes to \($0))" } ?? ""))
                case .insert(let offset, let id, let from):
                    log.append("insert \(names(id)) at \(offset)" + (from.map { " (came from \($0))" } ?? ""))
                }
            }
            ids = ids.applying(diff) ?? []
        }
    }
    // endregion: difference
    let byTime: FetchRequest<Departure> = Departure.fetchRequest()
    byTime.sortDescriptors = [FetchSortDescriptor(key: "time", ascending: true)]
    let allDay = FetchedResultsController(fetchRequest: byTime, managedObjectContext: viewContext,
                                          sectionNameKeyPath: nil, cacheName: nil)
    let list = DifferenceList()
    list.names = snapshots.names
    allDay.delegate = list
    try allDay.performFetch()
    list.ids = allDay.fetchedObjects?.map(\.objectID) ?? []

    try feedSavesTheMorningChanges(into: container)
    runMainQueue { !list.log.isEmpty && snapshots.log.count == 2 }
    for line in snapshots.log { print("   " + line) }
    print("   the list by time, told as a difference:")
    for line in list.log { print("     " + line) }
    print("   the list by time now reads: \(trains(allDay.fetchedObjects ?? []))")
    print("   and its IDs, kept from the differences alone, agree: \(list.ids == allDay.fetchedObjects?.map(\.objectID))")
}

print("\n5. A new predicate needs a new fetch")
do {
    let container = try makeStation()
    let viewContext = container.viewContext
    try saveTimetable(in: viewContext)
    let controller = FetchedResultsController(fetchRequest: boardRequest(), managedObjectContext: viewContext,
                                              sectionNameKeyPath: "platform", cacheName: nil)
    let board = DepartureBoard()
    board.narrates = false
    controller.delegate = board
    try controller.performFetch()
    // region: new-fetch
    // It is 08:16: the board hides the trains that have left.
    controller.fetchRequest.predicate = FetchPredicate(format: "time >= %@", 496)
    print("   predicate set:      the controller holds \(trains(controller.fetchedObjects ?? []))")
    try controller.performFetch()
    print("   after performFetch: the controller holds \(trains(controller.fetchedObjects ?? []))")
    board.load(controller.sections ?? [])           // a fetch tells a row-by-row delegate nothing
    // endregion: new-fetch
    print(board.render())
}
