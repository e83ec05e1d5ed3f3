import Foundation
@testable import Persistence
import XCTest

/// The fetched results controller's whole contract, by random sequences of changes: inserts, deletes, changes of
/// the sort and section keys, objects leaving and entering the predicate, refreshes, rollbacks, saves, and saves of
/// another context merged in. After every batch — at each `controllerDidChangeContent(_:)`, or each snapshot or
/// difference — the list a screen keeps from the delegate's callbacks alone, and the controller's own sections,
/// must equal a fresh fetch. Each run is seeded, so a failure names the seed and the step that reproduce it.
final class FetchedResultsRandomTests: PersistenceTestCase {
    override func makeModel() throws -> ManagedObjectModel { try GadgetModel.make() }

    func testRowByRowWithSections() throws {
        for seed in [1, 2, 3, 4] { try run(seed: UInt64(seed), sectioned: true, form: .rowByRow) }
    }

    func testRowByRowWithoutSections() throws {
        for seed in [11, 12, 13] { try run(seed: UInt64(seed), sectioned: false, form: .rowByRow) }
    }

    func testDifferencesWithoutSections() throws {
        for seed in [21, 22, 23] { try run(seed: UInt64(seed), sectioned: false, form: .difference) }
    }

    func testSnapshotsWithSections() throws {
        for seed in [31, 32, 33] { try run(seed: UInt64(seed), sectioned: true, form: .snapshot) }
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
        context.mergePolicy = .mergeByPropertyObjectTrump
        let request = GadgetModel.request(sectioned: sectioned)
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: sectioned ? "shelf" : nil, cacheName: nil)
        var step = 0
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
                compareIDs(differenceScreen.ids, "the screen's IDs")
            }
        case .snapshot:
            controller.delegate = snapshotScreen
            snapshotScreen.afterSnapshot = { [unowned snapshotScreen] in
                batches += 1
                let snapshot = snapshotScreen.snapshots.last!
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
        background.mergePolicy = .mergeByPropertyObjectTrump
        var savedIDs: [ManagedObjectID] = try context.fetch(Gadget.fetchRequest()).map(\.objectID)

        func someGadget() -> Gadget? {
            let live = context.registeredObjects.compactMap { $0 as? Gadget }.filter { !$0.isDeleted }
                .sorted { $0.serial < $1.serial }
            return live.isEmpty ? nil : live[random.below(live.count)]
        }
        func change(_ gadget: Gadget, using random: inout SeededGenerator) {
            switch random.below(4) {
            case 0: gadget.rank = random.below(10)
            case 1: gadget.shelf = Self.shelves[random.below(Self.shelves.count)]
            case 2: gadget.inStock.toggle()
            default: gadget.note = "note \(random.below(100))"
            }
        }

        for index in 0..<Self.steps {
            step = index
            switch random.below(20) {
            case 0...3:
                makeGadget(in: context)
            case 4...5:
                if let gadget = someGadget() { context.delete(gadget) }
            case 6...11:
                if let gadget = someGadget() { change(gadget, using: &random) }
            case 12:
                if let gadget = someGadget() { context.refresh(gadget, mergeChanges: random.below(2) == 0) }
            case 13:
                if random.below(3) == 0 { context.rollback() }
            case 14...15:
                do {
                    try context.save()
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
                        if backgroundRandom.below(6) == 0 { background.delete(gadget) } else { change(gadget, using: &backgroundRandom) }
                    }
                    for offset in 0..<backgroundRandom.below(3) {
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
                    } else {
                        ManagedObjectContext.mergeChanges(fromRemoteContextSave: userInfo, into: [context])
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
    }

    private func describe(_ sections: [ListSection]) -> String {
        sections.map { section in
            "\(section.name):" + section.rows.map { "\(($0 as? Gadget)?.serial ?? -1)" }.joined(separator: ",")
        }.joined(separator: " ")
    }
}
