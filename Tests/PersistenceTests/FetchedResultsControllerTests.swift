import Foundation
@_spi(TestHarness) @_spi(SnapshotDifference) @testable import Persistence
import XCTest

/// The fetched results controller, one behaviour at a time: fetching into sections, its errors, reading the
/// results, section titles, and each kind of change told to each kind of delegate.
final class FetchedResultsControllerTests: PersistenceTestCase {
    override func makeModel() throws -> ManagedObjectModel { try GadgetModel.make() }

    private var serials = 0

    @discardableResult
    private func gadget(_ shelf: String, rank: Int, inStock: Bool = true, in context: ManagedObjectContext? = nil) -> Gadget {
        let gadget = Gadget(context: context ?? self.context)
        serials += 1
        gadget.serial = serials
        gadget.shelf = shelf
        gadget.rank = rank
        gadget.inStock = inStock
        return gadget
    }

    private func controller(sectioned: Bool = true,
                            request: FetchRequest<Gadget> = GadgetModel.request()) -> FetchedResultsController<Gadget> {
        FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                 sectionNameKeyPath: sectioned ? "shelf" : nil, cacheName: nil)
    }

    /// A controller with a row-by-row screen as its delegate, fetched and shown.
    private func watchedController(sectioned: Bool = true, request: FetchRequest<Gadget> = GadgetModel.request()) throws
        -> (FetchedResultsController<Gadget>, RowByRowScreen) {
        let screen = RowByRowScreen()
        let controller = controller(sectioned: sectioned, request: request)
        controller.delegate = screen
        try controller.performFetch()
        screen.show(controller)
        return (controller, screen)
    }

    private func assertShowsAFreshFetch(_ controller: FetchedResultsController<Gadget>, sectioned: Bool = true,
                                        file: StaticString = #filePath, line: UInt = #line) throws {
        let fresh = try GadgetModel.freshRows(controller.fetchRequest, sectioned: sectioned, in: context)
        XCTAssertEqual(listSections(of: controller), fresh, "the controller's sections", file: file, line: line)
    }

    // MARK: - Fetching and reading

    func testNothingIsFetchedBeforePerformFetch() throws {
        gadget("a", rank: 1)
        let controller = controller()
        XCTAssertNil(controller.fetchedObjects)
        XCTAssertNil(controller.sections)
        XCTAssertNil(controller.indexPath(forObject: try context.fetch(Gadget.fetchRequest())[0]))
    }

    func testPerformFetchSplitsTheObjectsIntoSectionsByTheKeyPath() throws {
        let apple2 = gadget("apple", rank: 2)
        let apple1 = gadget("apple", rank: 1)
        let kiwi = gadget("kiwi", rank: 1)
        gadget("kiwi", rank: 0, inStock: false)
        try context.save()
        let controller = controller()
        try controller.performFetch()

        XCTAssertEqual(controller.fetchedObjects, [apple1, apple2, kiwi])
        let sections = try XCTUnwrap(controller.sections)
        XCTAssertEqual(sections.map(\.name), ["apple", "kiwi"])
        XCTAssertEqual(sections.map(\.numberOfObjects), [2, 1])
        XCTAssertEqual(sections[0].objects as? [Gadget], [apple1, apple2])
        XCTAssertEqual(sections.map(\.indexTitle), ["A", "K"])
        XCTAssertEqual(controller.object(at: IndexPath(row: 1, section: 0)), apple2)
        XCTAssertEqual(controller.indexPath(forObject: kiwi), IndexPath(row: 0, section: 1))
    }

    func testWithoutASectionKeyPathThereIsOneUnnamedSectionEvenWhenEmpty() throws {
        let controller = controller(sectioned: false, request: GadgetModel.request(sectioned: false))
        try controller.performFetch()
        XCTAssertEqual(controller.sections?.count, 1)
        XCTAssertEqual(controller.sections?.first?.name, "")
        XCTAssertNil(controller.sections?.first?.indexTitle)
        XCTAssertEqual(controller.sections?.first?.numberOfObjects, 0)
        XCTAssertEqual(controller.sectionIndexTitles, [])
        XCTAssertEqual(controller.fetchedObjects, [])
    }

    func testWithASectionKeyPathAndNoObjectsThereAreNoSections() throws {
        let controller = controller()
        try controller.performFetch()
        XCTAssertEqual(controller.sections?.count, 0)
    }

    func testSectionNamesAreTheKeyValuesAsText() throws {
        gadget("x", rank: 3)
        gadget("x", rank: 10)
        let request: FetchRequest<Gadget> = Gadget.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "rank", ascending: true)]
        let byRank = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                              sectionNameKeyPath: "rank", cacheName: nil)
        try byRank.performFetch()
        XCTAssertEqual(byRank.sections?.map(\.name), ["3", "10"])
        let byFlag = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                              sectionNameKeyPath: "inStock", cacheName: nil)
        try byFlag.performFetch()
        XCTAssertEqual(byFlag.sections?.map(\.name), ["1"], "a Boolean reads as NSNumber writes it")
    }

    func testARequestWithoutSortDescriptorsFailsWithCoreDatasMessage() throws {
        gadget("a", rank: 1)
        let request: FetchRequest<Gadget> = Gadget.fetchRequest()
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: nil, cacheName: nil)
        XCTAssertThrowsError(try controller.performFetch()) { error in
            let error = error as? PersistenceError
            XCTAssertEqual(error?.coreDataCode, .coreData)
            XCTAssertEqual(error?.message,
                           "An instance of FetchedResultsController<Gadget> requires a fetch request with sort descriptors")
        }
        // Core Data raises in init: adding sort descriptors afterwards does not make the controller valid.
        request.sortDescriptors = [FetchSortDescriptor(key: "rank", ascending: true)]
        XCTAssertThrowsError(try controller.performFetch())
        XCTAssertNil(controller.fetchedObjects)
    }

    func testASortThatSplitsASectionFailsWithCoreDatasMessageAndLeavesNoResults() throws {
        gadget("b", rank: 1)
        gadget("a", rank: 2)
        gadget("b", rank: 3)
        let request: FetchRequest<Gadget> = Gadget.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "rank", ascending: true)]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: "shelf", cacheName: nil)
        XCTAssertThrowsError(try controller.performFetch()) { error in
            let error = error as? PersistenceError
            XCTAssertEqual(error?.coreDataCode.rawValue, 134_060)
            XCTAssertEqual(error?.message,
                           "The fetched object at index 2 has an out of order section name 'a'. Objects must be sorted by section name")
        }
        XCTAssertNil(controller.fetchedObjects)
        XCTAssertNil(controller.sections)

        // A sort by another key that keeps each section together is accepted, as in Core Data.
        request.sortDescriptors = [FetchSortDescriptor(key: "serial", ascending: false)]
        let fine = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                            sectionNameKeyPath: "rank", cacheName: nil)
        XCTAssertNoThrow(try fine.performFetch())
        XCTAssertEqual(fine.sections?.map(\.name), ["3", "2", "1"])
    }

    func testSectionIndexTitlesSkipARepeatedTitleAndFindTheFirstSection() throws {
        for shelf in ["apple", "avocado", "banana", "cherry", "citrus"] { gadget(shelf, rank: 1) }
        let controller = controller()
        try controller.performFetch()
        XCTAssertEqual(controller.sections?.map(\.indexTitle), ["A", "A", "B", "C", "C"])
        XCTAssertEqual(controller.sectionIndexTitles, ["A", "B", "C"])
        XCTAssertEqual(controller.section(forSectionIndexTitle: "B", at: 1), 2)
        XCTAssertEqual(controller.section(forSectionIndexTitle: "C", at: 2), 3)
        XCTAssertEqual(controller.sectionIndexTitle(forSectionName: "durian"), "D")
        XCTAssertNil(controller.sectionIndexTitle(forSectionName: ""))
    }

    func testTheDelegateOrASubclassNamesTheIndexTitles() throws {
        final class Titles: FetchedResultsControllerDelegate {
            func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                            sectionIndexTitleForSectionName sectionName: String) -> String? {
                sectionName.uppercased()
            }
        }
        final class WholeNames: FetchedResultsController<Gadget> {
            override func sectionIndexTitle(forSectionName sectionName: String) -> String? { "#" + sectionName }
        }
        gadget("apple", rank: 1)
        let titles = Titles()
        let controller = controller()
        controller.delegate = titles
        try controller.performFetch()
        XCTAssertEqual(controller.sectionIndexTitles, ["APPLE"])

        let subclass = WholeNames(fetchRequest: GadgetModel.request(), managedObjectContext: context,
                                  sectionNameKeyPath: "shelf", cacheName: nil)
        try subclass.performFetch()
        XCTAssertEqual(subclass.sectionIndexTitles, ["#apple"])
    }

    func testADelegateWithNoChangeTrackingMethodDoesNotTurnTrackingOn() throws {
        final class Titles: FetchedResultsControllerDelegate {
            func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                            sectionIndexTitleForSectionName sectionName: String) -> String? { sectionName }
        }
        final class Nothing: FetchedResultsControllerDelegate {}
        let kept = gadget("a", rank: 1)
        try context.save()
        for delegate in [Titles(), Nothing()] as [any FetchedResultsControllerDelegate] {
            let controller = controller()
            controller.delegate = delegate
            try controller.performFetch()
            let added = gadget("b", rank: 2)
            kept.rank = 5
            context.processPendingChanges()
            XCTAssertEqual(controller.fetchedObjects?.map(\.objectID), [kept.objectID], "\(type(of: delegate)): results as fetched")
            XCTAssertEqual(controller.sections?.map(\.name), ["a"])
            gadget("c", rank: 3)
            context.processPendingChanges()
            XCTAssertEqual(controller.fetchedObjects?.map(\.objectID), [kept.objectID], "\(type(of: delegate)): nothing followed later either")
            try controller.performFetch()
            XCTAssertEqual(controller.fetchedObjects?.count, 3, "a new fetch reads the context as it is")
            context.delete(added)
            context.processPendingChanges()
            XCTAssertEqual(controller.fetchedObjects?.count, 3, "still not tracking after the fetch")
            context.rollback()
        }
    }

    func testOneChangeTrackingMethodTurnsTrackingOn() throws {
        final class Ends: FetchedResultsControllerDelegate {
            var batches = 0
            func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
                batches += 1
            }
        }
        final class Sections: FetchedResultsControllerDelegate {
            var sections = 0
            func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                            didChange sectionInfo: any FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                            for type: FetchedResultsChangeType) { sections += 1 }
        }
        let ends = Ends()
        let first = controller()
        first.delegate = ends
        try first.performFetch()
        gadget("a", rank: 1)
        context.processPendingChanges()
        gadget("a", rank: 2)
        context.processPendingChanges()
        XCTAssertEqual(ends.batches, 2)
        XCTAssertEqual(first.fetchedObjects?.count, 2)

        // The section method alone: known once a batch changes sections.
        let sections = Sections()
        let second = controller()
        second.delegate = sections
        try second.performFetch()
        gadget("b", rank: 1)
        context.processPendingChanges()
        XCTAssertEqual(sections.sections, 1)
        XCTAssertEqual(second.fetchedObjects?.count, 3)
        gadget("b", rank: 2)
        context.processPendingChanges()
        XCTAssertEqual(second.fetchedObjects?.count, 4, "still tracking")
    }

    func testTheCacheNameIsKeptAndNoCacheIsKept() throws {
        gadget("a", rank: 1)
        let controller = FetchedResultsController(fetchRequest: GadgetModel.request(), managedObjectContext: context,
                                                  sectionNameKeyPath: "shelf", cacheName: "Gadgets")
        XCTAssertEqual(controller.cacheName, "Gadgets")
        try controller.performFetch()
        FetchedResultsController<Gadget>.deleteCache(withName: "Gadgets")
        XCTAssertEqual(controller.fetchedObjects?.count, 1)
    }

    /// Apple: "if you are using a cache, delete it" before changing the request; Core Data raises otherwise.
    func testAChangedRequestUnderACacheNameNeedsTheCacheDeletedFirst() throws {
        gadget("a", rank: 1)
        gadget("b", rank: 2, inStock: false)
        let request = GadgetModel.request()
        request.predicate = nil
        let cached = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                              sectionNameKeyPath: "shelf", cacheName: "Shelves")
        try cached.performFetch()
        try cached.performFetch()    // the same request again
        request.predicate = FetchPredicate(format: "inStock == YES")
        let error = assertPersistenceError(.coreData) { try cached.performFetch() }
        XCTAssertTrue(error?.message.contains("without deleteCache(withName: \"Shelves\")") == true, error?.message ?? "")
        FetchedResultsController<Gadget>.deleteCache(withName: "Other")
        assertPersistenceError(.coreData) { try cached.performFetch() }
        FetchedResultsController<Gadget>.deleteCache(withName: "Shelves")
        try cached.performFetch()
        XCTAssertEqual(cached.fetchedObjects?.count, 1)
        request.sortDescriptors = [FetchSortDescriptor(key: "shelf", ascending: false)]
        assertPersistenceError(.coreData) { try cached.performFetch() }
        FetchedResultsController<Gadget>.deleteCache(withName: nil)
        try cached.performFetch()

        let uncached = controller(request: request)
        try uncached.performFetch()
        request.predicate = nil
        try uncached.performFetch()
        XCTAssertEqual(uncached.fetchedObjects?.count, 2, "without a cache name the request may change")
    }

    func testIndexPathsHaveUIKitsRowSectionAndItem() {
        var path = IndexPath(row: 4, section: 2)
        XCTAssertEqual(path.section, 2)
        XCTAssertEqual(path.row, 4)
        XCTAssertEqual(path.item, 4)
        XCTAssertEqual(path, IndexPath(indexes: [2, 4]))
        XCTAssertEqual(IndexPath(item: 1, section: 0), IndexPath(row: 1, section: 0))
        path.row = 5
        XCTAssertEqual(path, IndexPath(row: 5, section: 2))
    }

    // MARK: - Tracking changes row by row

    func testWithoutADelegateNothingIsTracked() throws {
        gadget("a", rank: 1)
        let controller = controller()
        try controller.performFetch()
        gadget("a", rank: 2)
        context.processPendingChanges()
        XCTAssertEqual(controller.fetchedObjects?.count, 1, "as Core Data: no delegate, no tracking")
    }

    func testChangesShowAtProcessPendingChangesAndNotBefore() throws {
        let first = gadget("a", rank: 1)
        try context.save()
        let (controller, screen) = try watchedController()

        let added = gadget("a", rank: 0)
        XCTAssertEqual(controller.fetchedObjects, [first], "not until the context processes its changes")
        context.processPendingChanges()
        XCTAssertEqual(controller.fetchedObjects, [added, first])
        XCTAssertEqual(screen.calls, ["will", "insert - [0, 0]", "did"])
        XCTAssertEqual(screen.problems, [])
        XCTAssertEqual(screen.list, listSections(of: controller))
    }

    func testAnUpdateIsReportedAtItsOldIndexPathWithItsNewOne() throws {
        let doomed = gadget("a", rank: 1)
        gadget("a", rank: 2)
        let changed = gadget("a", rank: 3)
        try context.save()
        let (controller, screen) = try watchedController()

        context.delete(doomed)
        changed.note = "polished"     // not a sort key: it keeps its place among the others
        context.processPendingChanges()
        XCTAssertEqual(screen.calls, ["will", "delete [0, 0] -", "update [0, 2] [0, 1]", "did"])
        XCTAssertEqual(screen.problems, [])
        XCTAssertEqual(screen.list, listSections(of: controller))
    }

    func testASortKeyChangeMovesTheObjectAndASectionKeyChangeMovesItAcrossSections() throws {
        let a1 = gadget("a", rank: 1)
        gadget("a", rank: 2)
        let b1 = gadget("b", rank: 1)
        try context.save()
        let (controller, screen) = try watchedController()

        a1.rank = 5
        context.processPendingChanges()
        XCTAssertEqual(screen.calls, ["will", "move [0, 0] [0, 1]", "did"])

        b1.shelf = "c"
        context.processPendingChanges()
        XCTAssertEqual(screen.calls.suffix(5), ["will", "section insert 1 c", "section delete 1 b",
                                                "move [1, 0] [1, 0]", "did"])
        XCTAssertEqual(controller.sections?.map(\.name), ["a", "c"])
        XCTAssertEqual(screen.problems, [])
        XCTAssertEqual(screen.list, listSections(of: controller))
        try assertShowsAFreshFetch(controller)
    }

    func testObjectsThatStartOrStopMatchingThePredicateAreInsertedOrDeleted() throws {
        let hidden = gadget("a", rank: 1, inStock: false)
        let shown = gadget("a", rank: 2)
        try context.save()
        let (controller, screen) = try watchedController()

        hidden.inStock = true
        shown.inStock = false
        context.processPendingChanges()
        XCTAssertEqual(screen.calls, ["will", "delete [0, 0] -", "insert - [0, 0]", "did"])
        XCTAssertEqual(controller.fetchedObjects, [hidden])
        XCTAssertEqual(screen.problems, [])
        XCTAssertEqual(screen.list, listSections(of: controller))
    }

    func testChangesToANewObjectAndASecondChangeAreFollowed() throws {
        let (controller, screen) = try watchedController()
        let gadget = gadget("a", rank: 1)
        context.processPendingChanges()
        gadget.inStock = false
        context.processPendingChanges()
        XCTAssertEqual(controller.fetchedObjects, [], "a change to a new object is seen")
        gadget.inStock = true
        context.processPendingChanges()
        gadget.rank = 2
        context.processPendingChanges()
        gadget.shelf = "b"
        context.processPendingChanges()
        XCTAssertEqual(controller.sections?.map(\.name), ["b"], "and so is each change after the first")
        XCTAssertEqual(screen.problems, [])
        XCTAssertEqual(screen.list, listSections(of: controller))
    }

    func testARefreshThatDropsAChangeMovesTheObjectBack() throws {
        let first = gadget("a", rank: 1)
        gadget("a", rank: 2)
        try context.save()
        let (controller, screen) = try watchedController()
        first.rank = 3
        context.processPendingChanges()
        XCTAssertEqual(controller.indexPath(forObject: first), IndexPath(row: 1, section: 0))

        context.refresh(first, mergeChanges: false)
        context.processPendingChanges()
        XCTAssertEqual(controller.indexPath(forObject: first), IndexPath(row: 0, section: 0))
        XCTAssertEqual(screen.calls.suffix(3), ["will", "move [0, 1] [0, 0]", "did"])
        try assertShowsAFreshFetch(controller)
    }

    func testARollbackIsFollowed() throws {
        let kept = gadget("a", rank: 1)
        try context.save()
        let (controller, screen) = try watchedController()
        gadget("a", rank: 2)
        context.delete(kept)
        context.processPendingChanges()
        context.rollback()
        XCTAssertEqual(controller.fetchedObjects, [kept])
        XCTAssertEqual(screen.problems, [])
        XCTAssertEqual(screen.list, listSections(of: controller))
    }

    /// Saves `gadget` in a context of its own, so this test's context never registers it; returns its ID.
    private func gadgetSavedElsewhere(_ shelf: String, rank: Int, inStock: Bool) throws -> ManagedObjectID {
        let other = container.newBackgroundContext()
        serials += 1
        let serial = serials
        return try other.performAndWait {
            let gadget = Gadget(context: other)
            gadget.serial = serial
            gadget.shelf = shelf
            gadget.rank = rank
            gadget.inStock = inStock
            try other.save()
            return gadget.objectID
        }
    }

    func testSavesMergedFromAnotherContextAreFollowed() throws {
        let changed = gadget("a", rank: 1)
        let doomed = gadget("a", rank: 2)
        try context.save()
        let outOfStockID = try gadgetSavedElsewhere("b", rank: 1, inStock: false)
        let (controller, screen) = try watchedController()
        context.automaticallyMergesChangesFromParent = true
        let ids = (changed.objectID, doomed.objectID, outOfStockID)
        XCTAssertNil(context.registeredObject(for: outOfStockID))

        let merged = expectation(description: "merged")
        screen.afterBatch = { merged.fulfill() }
        let background = container.newBackgroundContext()
        try background.performAndWait {
            (try background.existingObject(with: ids.0) as? Gadget)?.rank = 9
            background.delete(try background.existingObject(with: ids.1))
            // Not registered in the view context (never fetched there): a merge refreshes nothing for it, yet it
            // now belongs to the results.
            (try background.existingObject(with: ids.2) as? Gadget)?.inStock = true
            let added = Gadget(context: background)
            added.serial = 100
            added.shelf = "c"
            try background.save()
        }
        wait(for: [merged], timeout: 5)
        XCTAssertEqual(screen.batches, 1, "one merge, one batch")
        XCTAssertEqual(controller.sections?.map(\.name), ["a", "b", "c"])
        XCTAssertEqual(controller.fetchedObjects?.map(\.objectID).contains(ids.2), true)
        XCTAssertEqual(screen.problems, [])
        XCTAssertEqual(screen.list, listSections(of: controller))
        try assertShowsAFreshFetch(controller)
    }

    func testAMergeThatOnlyUpdatesAnUnregisteredObjectIntoTheResultsIsFollowed() throws {
        gadget("a", rank: 1)
        try context.save()
        let id = try gadgetSavedElsewhere("a", rank: 2, inStock: false)
        let (controller, screen) = try watchedController()
        XCTAssertNil(context.registeredObject(for: id))

        let other = container.newBackgroundContext()
        let saves = NotificationLog()
        let token = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                           object: other, queue: nil) { saves.append($0, flag: true) }
        defer { NotificationCenter.default.removeObserver(token) }
        try other.performAndWait {
            (try other.existingObject(with: id) as? Gadget)?.inStock = true
            try other.save()
        }
        context.mergeChanges(fromContextDidSave: try XCTUnwrap(saves.notes.first))
        XCTAssertEqual(screen.calls, ["will", "insert - [0, 1]", "did"])
        XCTAssertEqual(controller.fetchedObjects?.last?.objectID, id)
        XCTAssertEqual(screen.list, listSections(of: controller))
    }

    func testAChildContextsSaveIsFollowedInItsParentAndAChildFollowsItsOwnChanges() throws {
        gadget("a", rank: 1)
        try context.save()
        let (controller, screen) = try watchedController()

        let child = ManagedObjectContext(.mainQueue)
        child.parent = context
        let childScreen = RowByRowScreen()
        let childController = FetchedResultsController(fetchRequest: GadgetModel.request(), managedObjectContext: child,
                                                       sectionNameKeyPath: "shelf", cacheName: nil)
        childController.delegate = childScreen
        try childController.performFetch()
        childScreen.show(childController)

        gadget("b", rank: 1, in: child)
        child.processPendingChanges()
        XCTAssertEqual(childController.sections?.map(\.name), ["a", "b"])
        XCTAssertEqual(controller.sections?.map(\.name), ["a"], "not saved into the parent yet")
        try child.save()
        context.processPendingChanges()
        XCTAssertEqual(controller.sections?.map(\.name), ["a", "b"], "the child's save is the parent's change")
        XCTAssertEqual(screen.problems + childScreen.problems, [])
        XCTAssertEqual(screen.list, listSections(of: controller))
        XCTAssertEqual(childScreen.list, listSections(of: childController))
        try assertShowsAFreshFetch(controller)
    }

    func testAResetIsNotFollowedUntilTheNextFetch() throws {
        gadget("a", rank: 1)
        try context.save()
        let screen = RowByRowScreen()
        let controller = controller()
        controller.delegate = screen
        try controller.performFetch()
        context.reset()
        XCTAssertEqual(screen.calls, [], "Apple: no deletions are reported for a reset")
        XCTAssertEqual(controller.fetchedObjects?.count, 1)
        try controller.performFetch()
        XCTAssertEqual(controller.fetchedObjects?.count, 1)
        XCTAssertNotNil(controller.fetchedObjects?.first?.managedObjectContext)
    }

    func testAChangedPredicateNeedsANewFetch() throws {
        gadget("a", rank: 1)
        gadget("a", rank: 2, inStock: false)
        try context.save()
        let screen = RowByRowScreen()
        let controller = controller()
        controller.delegate = screen
        try controller.performFetch()
        controller.fetchRequest.predicate = nil
        XCTAssertEqual(controller.fetchedObjects?.count, 1, "the rows stay as fetched")
        try controller.performFetch()
        XCTAssertEqual(controller.fetchedObjects?.count, 2)
        try assertShowsAFreshFetch(controller)

        controller.fetchRequest.sortDescriptors = [FetchSortDescriptor(key: "shelf", ascending: true),
                                                   FetchSortDescriptor(key: "rank", ascending: false)]
        XCTAssertEqual(controller.fetchedObjects?.map(\.rank), [1, 2], "so do they for a new sort")
        try controller.performFetch()
        XCTAssertEqual(controller.fetchedObjects?.map(\.rank), [2, 1])
        try assertShowsAFreshFetch(controller)
    }

    func testAControllerMadeTypeErasedHandsItselfToItsDelegate() throws {
        final class Recorder: FetchedResultsControllerDelegate {
            var seen: FetchedResultsController<any FetchRequestResult>?
            func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
                seen = controller
            }
        }
        let request = FetchRequest<any FetchRequestResult>(entityName: "Gadget")
        request.sortDescriptors = [FetchSortDescriptor(key: "serial", ascending: true)]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: nil, cacheName: nil)
        let recorder = Recorder()
        controller.delegate = recorder
        try controller.performFetch()
        gadget("a", rank: 1)
        context.processPendingChanges()
        XCTAssertTrue(recorder.seen === controller)
        XCTAssertEqual(controller.fetchedObjects?.count, 1)
    }

    func testTheDelegatesControllerIsTheSameController() throws {
        final class Recorder: FetchedResultsControllerDelegate {
            var seen: FetchedResultsController<any FetchRequestResult>?
            func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
                seen = controller
            }
        }
        let recorder = Recorder()
        let controller = controller()
        controller.delegate = recorder
        try controller.performFetch()
        let added = gadget("a", rank: 1)
        context.processPendingChanges()
        let seen = try XCTUnwrap(recorder.seen)
        XCTAssertTrue(seen == controller)
        XCTAssertEqual(seen.fetchedObjects?.count, 1)
        XCTAssertTrue(seen.object(at: IndexPath(row: 0, section: 0)) as? Gadget === added)
        XCTAssertEqual(seen.fetchRequest.sortDescriptors, controller.fetchRequest.sortDescriptors)
    }

    // MARK: - Snapshots and differences

    func testASnapshotDelegateGetsSnapshotsAndNothingElse() throws {
        let first = gadget("a", rank: 1)
        try context.save()
        let screen = SnapshotScreen()
        let controller = controller()
        controller.delegate = screen
        try controller.performFetch()
        XCTAssertEqual(screen.snapshots.count, 1, "Core Data hands the fetched sections at once")
        XCTAssertEqual(screen.snapshots.last?.sectionIdentifiers, ["a"])

        first.note = "changed"
        let added = gadget("b", rank: 1)
        context.processPendingChanges()
        let snapshot = try XCTUnwrap(screen.snapshots.last)
        XCTAssertEqual(screen.snapshots.count, 2)
        XCTAssertEqual(snapshot.sectionIdentifiers, ["a", "b"])
        XCTAssertEqual(snapshot.itemIdentifiers(inSection: "b"), [added.objectID])
        XCTAssertEqual(snapshot.reloadedItemIdentifiers, [], "an updated object keeps its ID and is not marked")
        XCTAssertEqual(snapshot.reconfiguredItemIdentifiers, [])
        XCTAssertEqual(snapshot.sectionIdentifier(containingItem: first.objectID), "a")
        XCTAssertEqual(snapshot.numberOfItems, 2)
        XCTAssertEqual(screen.otherCalls, 0, "Apple: no other delegate methods are invoked")
        XCTAssertEqual(snapshot.itemDifference(from: screen.snapshots[0]).insertions.count, 1)
    }

    func testADifferenceDelegateWithoutSectionsGetsDifferencesAndNothingElse() throws {
        let first = gadget("", rank: 1)
        gadget("", rank: 2)
        try context.save()
        let screen = DifferenceScreen()
        let controller = controller(sectioned: false, request: GadgetModel.request(sectioned: false))
        controller.delegate = screen
        try controller.performFetch()
        screen.ids = controller.fetchedObjects?.map(\.objectID) ?? []

        first.rank = 3
        gadget("", rank: 0)
        context.processPendingChanges()
        XCTAssertEqual(screen.differences, 1)
        XCTAssertEqual(screen.otherCalls, 0)
        XCTAssertEqual(screen.ids, controller.fetchedObjects?.map(\.objectID))

        try context.save()
        XCTAssertEqual(screen.ids, controller.fetchedObjects?.map(\.objectID),
                       "the save's permanent IDs are told as a difference too")
        XCTAssertFalse(screen.ids.contains(where: \.isTemporaryID))
    }

    func testWithSectionsADifferenceDelegateIsToldRowByRow() throws {
        final class Both: FetchedResultsControllerDelegate {
            var differences = 0
            var batches = 0
            func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                            didChangeContentWith diff: CollectionDifference<ManagedObjectID>) { differences += 1 }
            func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
                batches += 1
            }
        }
        let both = Both()
        let controller = controller()
        controller.delegate = both
        try controller.performFetch()
        gadget("a", rank: 1)
        context.processPendingChanges()
        XCTAssertEqual(both.differences, 0, "Core Data: the difference form needs a controller without sections")
        XCTAssertEqual(both.batches, 1)
    }
}
