import Foundation
// Persistence-only: itemDifference(from:), where UIKit applies a snapshot itself.
@_spi(SnapshotDifference) import Persistence

// Lesson 15's runnable example: a restaurant kitchen's display above the pass, in the terminal — one scroll of
// lines, a heading per station and a line per ticket — kept by a fetched results controller while a background
// context (the waiters' tablets) saves changes. A plain fetch goes stale; the controller needs sort descriptors
// with the section key first; the display turns each batch's index paths into line numbers, before and after the
// batch (and shows what Apple's old sample would have misread); the snapshot and difference forms; a change to a
// related table that the controller does not report; and a changed predicate that needs a new fetch.
// `swift run lessons run 15`.

func makeKitchen() throws -> PersistentContainer {
    let container = PersistentContainer(name: "Kitchen", managedObjectModel: try KitchenModel.make())
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
    container.loadPersistentStores { _, error in
        if let error { print("could not load the store: \(error)") }
    }
    return container
}

/// The evening's first orders, saved through `context`: four tables, six tickets at three stations.
func saveFirstOrders(in context: ManagedObjectContext) throws {
    var tables: [Int: DiningTable] = [:]
    for (number, server) in [(2, "Ana"), (4, "Ana"), (7, "Ben"), (9, "Chloe")] {
        let table = DiningTable(context: context)
        table.number = number
        table.server = server
        tables[number] = table
    }
    for (dish, station, due, table) in [("burrata", "cold", 1142, 4), ("oysters", "cold", 1160, 2),
                                        ("tartare", "cold", 1181, 9), ("ribeye", "grill", 1145, 7),
                                        ("lamb", "grill", 1170, 4), ("soufflé", "pastry", 1155, 2)] {
        let ticket = Ticket(context: context)
        ticket.dish = dish
        ticket.station = station
        ticket.due = due
        ticket.table = tables[table]
    }
    try context.save()
}

/// The tickets by station, then the time they are due.
func passRequest() -> FetchRequest<Ticket> {
    let byStation = FetchRequest<Ticket>(entityName: "Ticket")
    byStation.sortDescriptors = [
        FetchSortDescriptor(key: "station", ascending: true),
        FetchSortDescriptor(key: "due", ascending: true),
    ]
    return byStation
}

/// One save of the waiters' tablets, in a background context of their own: table 4 asks to hold the burrata until
/// 19:25, the ribeye goes to the oven to finish, the soufflé is voided, table 9 orders a sea bass for 19:35, and the
/// grill starts firing the lamb.
func tabletsSaveTheirChanges(into container: PersistentContainer) throws {
    let tablets = container.newBackgroundContext()
    try tablets.performAndWait {
        for ticket in try tablets.fetch(Ticket.fetchRequest()) {
            switch ticket.dish {
            case "burrata": ticket.due = 1165; ticket.status = "held"
            case "ribeye": ticket.station = "oven"
            case "soufflé": tablets.delete(ticket)
            case "lamb": ticket.status = "firing"
            default: break
            }
        }
        let tables = try tablets.fetch(FetchRequest<DiningTable>(entityName: "DiningTable"))
        let seaBass = Ticket(context: tablets)
        seaBass.dish = "sea bass"
        seaBass.station = "grill"
        seaBass.due = 1175
        seaBass.table = tables.first { $0.number == 9 }
        try tablets.save()
    }
}

/// Lets the main queue run — where the view context merges other contexts' saves — until `condition` holds (two
/// seconds at most).
func runMainQueue(until condition: () -> Bool) {
    let deadline = Date(timeIntervalSinceNow: 2)
    while !condition() && Date() < deadline { RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.01)) }
}

func dishes(_ tickets: [Ticket]) -> String {
    tickets.map { ticket in
        // A ticket another context deleted, once merged, belongs to no context and has no values left.
        guard ticket.managedObjectContext != nil else { return "(deleted)" }
        return String(format: "%02d:%02d ", ticket.due / 60, ticket.due % 60) + ticket.dish
    }.joined(separator: ", ")
}

print("1. A fetch is an answer, not a subscription")
do {
    let kitchen = try makeKitchen()
    kitchen.viewContext.automaticallyMergesChangesFromParent = true
    try saveFirstOrders(in: kitchen.viewContext)
    // region: fetch-is-a-snapshot
    let shown = try kitchen.viewContext.fetch(passRequest())
    try tabletsSaveTheirChanges(into: kitchen)
    runMainQueue { shown[0].due == 1165 }           // the view context merges the tablets' save
    print("   the fetched array:  \(dishes(shown))")
    print("   a new fetch:        \(dishes(try kitchen.viewContext.fetch(passRequest())))")
    // endregion: fetch-is-a-snapshot
}

print("\n2. The controller's request: sort descriptors, the section key first")
do {
    let kitchen = try makeKitchen()
    try saveFirstOrders(in: kitchen.viewContext)
    // region: request
    let byDue = FetchRequest<Ticket>(entityName: "Ticket")
    byDue.sortDescriptors = [FetchSortDescriptor(key: "due", ascending: true)]
    let wrong = FetchedResultsController(fetchRequest: byDue, managedObjectContext: kitchen.viewContext,
                                         sectionNameKeyPath: "station", cacheName: nil)
    do {
        try wrong.performFetch()
    } catch {
        print("   sorted by time due, sections by station: performFetch() failed with error \((error as NSError).code):")
        print("     " + error.localizedDescription)
    }
    let pass = FetchedResultsController(fetchRequest: passRequest(), managedObjectContext: kitchen.viewContext,
                                        sectionNameKeyPath: "station", cacheName: nil)
    try pass.performFetch()
    print("   sorted by station, then time due: \(pass.sections?.count ?? 0) sections, "
        + "\(pass.fetchedObjects?.count ?? 0) tickets, index \(pass.sectionIndexTitles)")
    // endregion: request
}

print("\n3. The display, and one batch from the tablets, told row by row")
do {
    let kitchen = try makeKitchen()
    kitchen.viewContext.automaticallyMergesChangesFromParent = true
    try saveFirstOrders(in: kitchen.viewContext)
    // region: display
    let pass = FetchedResultsController(fetchRequest: passRequest(), managedObjectContext: kitchen.viewContext,
                                        sectionNameKeyPath: "station", cacheName: nil)
    let display = PassDisplay()
    pass.delegate = display                         // before the fetch: a delegate is what turns tracking on
    try pass.performFetch()
    display.load(pass.sections ?? [])
    // endregion: display
    print(display.render())
    print("   the tablets save; the view context merges it; the controller tells the display:")
    try tabletsSaveTheirChanges(into: kitchen)
    runMainQueue { display.batches == 1 }
    print(display.render())
    let fresh = PassDisplay()
    fresh.narrates = false
    let again = FetchedResultsController(fetchRequest: passRequest(), managedObjectContext: kitchen.viewContext,
                                         sectionNameKeyPath: "station", cacheName: nil)
    try again.performFetch()
    fresh.load(again.sections ?? [])
    print("   the display has \(display.lines.count) lines; drawn from a fresh fetch, the same lines: "
        + "\(display.lines == fresh.lines)")
}

print("\n4. The same batch as a snapshot, and as a difference")
do {
    let kitchen = try makeKitchen()
    kitchen.viewContext.automaticallyMergesChangesFromParent = true
    try saveFirstOrders(in: kitchen.viewContext)
    // region: snapshot
    final class SnapshotPass: FetchedResultsControllerDelegate {
        var last = DiffableDataSourceSnapshotReference()
        /// The line each item's cell shows, by ID, as a data source keeps its cells.
        var cells: [ManagedObjectID: String] = [:]
        var log: [String] = []
        var names: (ManagedObjectID) -> String = { _ in "?" }

        func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                        didChangeContentWith snapshot: DiffableDataSourceSnapshotReference) {
            var marked = snapshot
            let context = controller.managedObjectContext
            let line = { (id: ManagedObjectID) in (context.object(with: id) as? Ticket).map(PassDisplay.text(for:)) }
            // A cell shown already stays as drawn unless its item is marked: mark the ones whose line changed.
            marked.reconfigureItems(snapshot.itemIdentifiers.filter { cells[$0] != nil && cells[$0] != line($0) })
            let difference = snapshot.itemDifference(from: last)
            log += ["snapshot \(log.count / 2 + 1): stations \(snapshot.sectionIdentifiers), "
                + "\(snapshot.numberOfItems) tickets (\(difference.insertions.count) in, "
                + "\(difference.removals.count) out)",
                    "  marked by the controller: \(snapshot.reloadedItemIdentifiers.map(names)); "
                + "reconfigured by the display: \(marked.reconfiguredItemIdentifiers.map(names))"]
            for id in snapshot.itemIdentifiers { cells[id] = line(id) }
            last = snapshot
        }
    }
    // endregion: snapshot
    let byStation = FetchedResultsController(fetchRequest: passRequest(), managedObjectContext: kitchen.viewContext,
                                             sectionNameKeyPath: "station", cacheName: nil)
    let snapshots = SnapshotPass()
    // Names by ID for the printout, kept from the start: a deleted ticket has none left.
    let dishesByID = Dictionary(uniqueKeysWithValues: try kitchen.viewContext.fetch(passRequest())
        .map { ($0.objectID, $0.dish) })
    snapshots.names = { id in
        dishesByID[id] ?? (kitchen.viewContext.registeredObject(for: id) as? Ticket)?.dish ?? "?"
    }
    byStation.delegate = snapshots
    try byStation.performFetch()                    // a snapshot delegate gets the first one at once

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
                    log += ["remove \(names(id)) at \(offset)" + (to.map { " (goes to \($0))" } ?? "")]
                case .insert(let offset, let id, let from):
                    log += ["insert \(names(id)) at \(offset)" + (from.map { " (came from \($0))" } ?? "")]
                }
            }
            ids = ids.applying(diff) ?? []
        }
    }
    // endregion: difference
    let byDue = FetchRequest<Ticket>(entityName: "Ticket")
    byDue.sortDescriptors = [FetchSortDescriptor(key: "due", ascending: true)]
    let evening = FetchedResultsController(fetchRequest: byDue, managedObjectContext: kitchen.viewContext,
                                           sectionNameKeyPath: nil, cacheName: nil)
    let list = DifferenceList()
    list.names = snapshots.names
    evening.delegate = list
    try evening.performFetch()
    list.ids = evening.fetchedObjects?.map(\.objectID) ?? []

    try tabletsSaveTheirChanges(into: kitchen)
    runMainQueue { !list.log.isEmpty && snapshots.log.count == 4 }
    for line in snapshots.log { print("   " + line) }
    print("   the list by time due, told as a difference:")
    for line in list.log { print("     " + line) }
    print("   the list by time due now reads: \(dishes(evening.fetchedObjects ?? []))")
    print("   and its IDs, kept from the differences alone, agree: "
        + "\(list.ids == evening.fetchedObjects?.map(\.objectID))")
}

print("\n5. A related object changes: the controller says nothing")
do {
    let kitchen = try makeKitchen()
    try saveFirstOrders(in: kitchen.viewContext)
    let plain = FetchedResultsController(fetchRequest: passRequest(), managedObjectContext: kitchen.viewContext,
                                         sectionNameKeyPath: "station", cacheName: nil)
    let unaware = PassDisplay()
    unaware.narrates = false
    plain.delegate = unaware
    try plain.performFetch()
    unaware.load(plain.sections ?? [])
    // region: related
    let pass = FetchedResultsController(fetchRequest: passRequest(), managedObjectContext: kitchen.viewContext,
                                        sectionNameKeyPath: "station", cacheName: nil)
    let display = PassDisplay()
    pass.delegate = display
    try pass.performFetch()
    display.load(pass.sections ?? [])
    display.followTables(of: pass)                  // the tables its lines show, which the controller does not follow

    // The shift changes: Ben takes over table 4 from Ana.
    let tables = try kitchen.viewContext.fetch(FetchRequest<DiningTable>(entityName: "DiningTable"))
    tables.first { $0.number == 4 }?.server = "Ben"
    kitchen.viewContext.processPendingChanges()
    // endregion: related
    print("   batches the controllers told: \(unaware.batches) and \(display.batches)")
    print("   a display that follows the controller alone still reads:")
    print(unaware.render(indent: "     ").split(separator: "\n").filter { $0.contains("table 4") }.joined(separator: "\n"))
    print("   the display that follows the tables too:")
    print(display.render())
}

print("\n6. A new predicate needs a new fetch")
do {
    let kitchen = try makeKitchen()
    try saveFirstOrders(in: kitchen.viewContext)
    let pass = FetchedResultsController(fetchRequest: passRequest(), managedObjectContext: kitchen.viewContext,
                                        sectionNameKeyPath: "station", cacheName: nil)
    let display = PassDisplay()
    display.narrates = false
    pass.delegate = display
    try pass.performFetch()
    // region: new-fetch
    // It is 19:16: the display hides the tickets that went out already.
    pass.fetchRequest.predicate = FetchPredicate(format: "due >= %d", 1156)
    print("   predicate set:      the controller holds \(dishes(pass.fetchedObjects ?? []))")
    try pass.performFetch()
    print("   after performFetch: the controller holds \(dishes(pass.fetchedObjects ?? []))")
    display.load(pass.sections ?? [])               // a fetch tells a row-by-row delegate nothing
    // endregion: new-fetch
    print(display.render())
}
