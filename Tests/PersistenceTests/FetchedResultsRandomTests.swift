import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// The fetched results controller's whole contract, by random sequences of changes: inserts, deletes, changes of
/// the sort and section keys, objects leaving and entering the predicate, refreshes, rollbacks, saves, and saves of
/// another context merged in. After every batch — at each `controllerDidChangeContent(_:)`, or each snapshot or
/// difference — the list a screen keeps from the delegate's callbacks alone, and the controller's own sections,
/// must equal a fresh fetch. Each run is seeded, so a failure names the seed and the step that reproduce it.
///
/// One seed per form (row by row with and without sections, differences, snapshots), chosen so that its run
/// reaches every kind of step — each of the changes above, both kinds of refresh, both ways of merging another
/// context's save, that save's deletions, changes and inserts — and every kind of callback the form has (row
/// insert, delete, move and update, section insert and delete; differences that insert and remove; snapshots that
/// gain and lose sections). Each run asserts that it did (``Reached``), so a seed that stops covering a kind fails
/// rather than leaving it untested. (The seeds run before, 1–4, 11–13, 21–23 and 31–33, never had a snapshot lose a
/// section, and of seeds 1–40 only 17 make sections appear and disappear row by row: several seeds per form made
/// coverage likely at best.)
final class FetchedResultsRandomTests: PersistenceTestCase {
    override func makeModel() throws -> ManagedObjectModel { try GadgetModel.make() }

    func testRowByRowWithSections() throws {
        try run(seed: 2, sectioned: true, form: .rowByRow)
    }

    func testRowByRowWithoutSections() throws {
        try run(seed: 11, sectioned: false, form: .rowByRow)
    }

    func testDifferencesWithoutSections() throws {
        try run(seed: 21, sectioned: false, form: .difference)
    }

    func testSnapshotsWithSections() throws {
        try run(seed: 38, sectioned: true, form: .snapshot)
    }

    /// The kinds of step and of callback a run went through.
    private struct Reached {
        static let steps: Set<String> = ["insert", "delete", "change rank", "change shelf", "change inStock", "change note",
                                         "refresh merging", "refresh discarding", "rollback", "save",
                                         "other context deletes", "other context changes", "other context inserts",
                                         "merged from a did-save notification", "merged as a remote save"]
        var kinds: Set<String> = []

        func missing(form: Form, sectioned: Bool) -> [String] {
            var wanted = Self.steps
            switch form {
            case .rowByRow:
                wanted.formUnion(["row insert", "row delete", "row move", "row update"])
                if sectioned { wanted.formUnion(["section insert", "section delete"]) }
            case .difference: wanted.formUnion(["difference inserting", "difference removing"])
            case .snapshot: wanted.formUnion(["snapshot gaining a section", "snapshot losing a section"])
            }
            return wanted.subtracting(kinds).sorted()
        }
    }

    // MARK: - The run

    private enum Form {
        case rowByRow, difference, snapshot
    }

    private static let shelves = ["a", "b", "c", "d", "e"]
    private static let steps = 250

    private func run(seed: UInt64, sectioned: Bool, form: Form) throws {
        // Each run on a fresh store.
        try tearDownWithError()
        try setUpWithError()
        var random = SeededGenerator(seed: seed)
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        let request = GadgetModel.request(sectioned: sectioned)
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: sectioned ? "shelf" : nil, cacheName: nil)
        var step = 0
        var reached = Reached()
        var failures: [String] = []
        var batches = 0
        func fail(_ message: String) {
            if failures.count < 5 { failures.append("seed \(seed), step \(step): \(message)") }
        }
        func fresh() -> [ListSection] {
            (try? GadgetModel.freshRows(request, sectioned: sectioned, in: context)) ?? []
        }
        func compare(_ shown: [ListSection], _ what: String) {
            let expected = fresh()
            if shown != expected {
                fail("\(what) \(describe(shown)) ≠ fresh fetch \(describe(expected))")
            }
        }
        func compareIDs(_ shown: [ManagedObjectID], _ what: String) {
            let expected = fresh().flatMap(\.rows).map(\.objectID)
            if shown != expected { fail("\(what) has \(shown.count) IDs ≠ fresh fetch's \(expected.count), or another order") }
        }

        let rowScreen = RowByRowScreen()
        let differenceScreen = DifferenceScreen()
        let snapshotScreen = SnapshotScreen()
        switch form {
        case .rowByRow:
            controller.delegate = rowScreen
            rowScreen.afterBatch = { [unowned rowScreen, unowned controller] in
                batches += 1
                compare(rowScreen.list, "the screen's rows")
                compare(listSections(of: controller), "the controller's sections")
            }
        case .difference:
            controller.delegate = differenceScreen
            differenceScreen.afterDifference = { [unowned differenceScreen] in
                batches += 1
                if differenceScreen.lastDifference?.insertions.isEmpty == false { reached.kinds.insert("difference inserting") }
                if differenceScreen.lastDifference?.removals.isEmpty == false { reached.kinds.insert("difference removing") }
                compareIDs(differenceScreen.ids, "the screen's IDs")
            }
        case .snapshot:
            controller.delegate = snapshotScreen
            snapshotScreen.afterSnapshot = { [unowned snapshotScreen] in
                batches += 1
                let snapshot = snapshotScreen.snapshots.last!
                let previous = Set(snapshotScreen.snapshots.dropLast().last?.sectionIdentifiers ?? [])
                if !Set(snapshot.sectionIdentifiers).subtracting(previous).isEmpty { reached.kinds.insert("snapshot gaining a section") }
                if !previous.subtracting(snapshot.sectionIdentifiers).isEmpty { reached.kinds.insert("snapshot losing a section") }
                let expected = fresh()
                if snapshot.sectionIdentifiers != expected.map(\.name) {
                    fail("snapshot sections \(snapshot.sectionIdentifiers) ≠ \(expected.map(\.name))")
                }
                compareIDs(snapshot.itemIdentifiers, "the snapshot")
            }
        }

        // Some gadgets to start with, saved.
        var serial = 0
        func makeGadget(in context: ManagedObjectContext) {
            let gadget = Gadget(context: context)
            serial += 1
            gadget.serial = serial
            gadget.shelf = Self.shelves[random.below(Self.shelves.count)]
            gadget.rank = random.below(10)
            gadget.inStock = random.below(5) != 0
        }
        for _ in 0..<20 { makeGadget(in: context) }
        try context.save()
        try controller.performFetch()
        rowScreen.show(controller)
        differenceScreen.ids = controller.fetchedObjects?.map(\.objectID) ?? []

        let background = container.newBackgroundContext()
        background.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        var savedIDs: [ManagedObjectID] = try context.fetch(Gadget.fetchRequest()).map(\.objectID)

        func someGadget() -> Gadget? {
            let live = context.registeredObjects.compactMap { $0 as? Gadget }.filter { !$0.isDeleted }
                .sorted { $0.serial < $1.serial }
            return live.isEmpty ? nil : live[random.below(live.count)]
        }
        func change(_ gadget: Gadget, using random: inout SeededGenerator) {
            switch random.below(4) {
            case 0: gadget.rank = random.below(10); reached.kinds.insert("change rank")
            case 1: gadget.shelf = Self.shelves[random.below(Self.shelves.count)]; reached.kinds.insert("change shelf")
            case 2: gadget.inStock.toggle(); reached.kinds.insert("change inStock")
            default: gadget.note = "note \(random.below(100))"; reached.kinds.insert("change note")
            }
        }

        for index in 0..<Self.steps {
            step = index
            switch random.below(20) {
            case 0...3:
                makeGadget(in: context)
                reached.kinds.insert("insert")
            case 4...5:
                if let gadget = someGadget() { context.delete(gadget); reached.kinds.insert("delete") }
            case 6...11:
                if let gadget = someGadget() { change(gadget, using: &random) }
            case 12:
                if let gadget = someGadget() {
                    let merging = random.below(2) == 0
                    context.refresh(gadget, mergeChanges: merging)
                    reached.kinds.insert(merging ? "refresh merging" : "refresh discarding")
                }
            case 13:
                if random.below(3) == 0 { context.rollback(); reached.kinds.insert("rollback") }
            case 14...15:
                do {
                    try context.save()
                    reached.kinds.insert("save")
                } catch {
                    context.rollback()
                }
                savedIDs = (try? context.fetch(Gadget.fetchRequest()).map(\.objectID).filter { !$0.isTemporaryID }) ?? savedIDs
            default:
                // Another context changes saved gadgets and adds some; its save is merged in.
                let picks = (0..<1 + random.below(4)).map { _ in savedIDs.isEmpty ? nil : savedIDs[random.below(savedIDs.count)] }
                var backgroundRandom = random.split()
                let firstSerial = serial + 1
                serial += 3
                let userInfo: [AnyHashable: Any]? = background.performAndWait {
                    for id in picks.compactMap({ $0 }) {
                        guard let gadget = try? background.existingObject(with: id) as? Gadget else { continue }
                        if backgroundRandom.below(6) == 0 {
                            background.delete(gadget)
                            reached.kinds.insert("other context deletes")
                        } else {
                            change(gadget, using: &backgroundRandom)
                            reached.kinds.insert("other context changes")
                        }
                    }
                    for offset in 0..<backgroundRandom.below(3) {
                        reached.kinds.insert("other context inserts")
                        let gadget = Gadget(context: background)
                        gadget.serial = firstSerial + offset
                        gadget.shelf = Self.shelves[backgroundRandom.below(Self.shelves.count)]
                        gadget.rank = backgroundRandom.below(10)
                        gadget.inStock = backgroundRandom.below(4) != 0
                    }
                    let saves = NotificationLog()
                    let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectIDsNotification,
                                                                       object: background, queue: nil) { saves.append($0, flag: true) }
                    defer { NotificationCenter.default.removeObserver(token) }
                    do { try background.save() } catch { background.rollback() }
                    background.reset()
                    return saves.notes.first?.userInfo
                }
                if let userInfo {
                    if random.below(2) == 0 {
                        context.mergeChanges(fromContextDidSave: Notification(name: ManagedObjectContext.didSaveObjectsNotification,
                                                                              object: background, userInfo: userInfo))
                        reached.kinds.insert("merged from a did-save notification")
                    } else {
                        // Apple's documented shape: the did-change keys, each with an array of IDs.
                        typealias Key = ManagedObjectContext.NotificationKey
                        var remote: [AnyHashable: Any] = [:]
                        for (ids, key) in [(Key.insertedObjectIDs, Key.insertedObjects), (.updatedObjectIDs, .updatedObjects),
                                           (.deletedObjectIDs, .deletedObjects)] {
                            remote[key.rawValue] = Array(userInfo[ids.rawValue] as? Set<ManagedObjectID> ?? [])
                        }
                        ManagedObjectContext.mergeChanges(fromRemoteContextSave: remote, into: [context])
                        reached.kinds.insert("merged as a remote save")
                    }
                }
                savedIDs = (try? context.fetch(Gadget.fetchRequest()).map(\.objectID).filter { !$0.isTemporaryID }) ?? savedIDs
            }
            if random.below(3) == 0 || index == Self.steps - 1 {
                context.processPendingChanges()
                // Between batches too, the controller shows what a fetch shows.
                compare(listSections(of: controller), "after processPendingChanges, the controller's sections")
            }
            if !failures.isEmpty { break }
        }
        XCTAssertEqual(failures, [], "\(form), sectioned: \(sectioned)")
        XCTAssertEqual(rowScreen.problems, [], "seed \(seed)")
        XCTAssertGreaterThan(batches, 20, "seed \(seed): the run should make many batches")
        for call in rowScreen.calls {
            for kind in ["insert", "delete", "move", "update"] where call.hasPrefix(kind + " ") { reached.kinds.insert("row " + kind) }
            for kind in ["insert", "delete"] where call.hasPrefix("section \(kind) ") { reached.kinds.insert("section " + kind) }
        }
        XCTAssertEqual(reached.missing(form: form, sectioned: sectioned), [], "seed \(seed): kinds of step or callback never reached")
    }

    private func describe(_ sections: [ListSection]) -> String {
        sections.map { section in
            "\(section.name):" + section.rows.map { "\(($0 as? Gadget)?.serial ?? -1)" }.joined(separator: ",")
        }.joined(separator: " ")
    }
}
