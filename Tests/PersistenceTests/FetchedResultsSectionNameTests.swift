import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Outings of a walking club, listed by month as Apple's "DateSectionTitles" sample lists events: sorted by their
/// date, sectioned by an identifier made from it (year × 1000 + month). The identifier is computed by the class, a
/// key the model does not have; a transient copy of it, `month`, is kept by the class too.
final class Outing: ManagedObject {
    @Managed var date: Date?
    @Managed var title: String
    @Managed var month: String?
    @Managed var club: Club?

    /// Lets a test see the default implementation's answer for a key the class does not compute.
    nonisolated(unsafe) static var answersSectionIdentifier = true

    override func value(forUndefinedKey key: String) -> Any? {
        if key == "sectionIdentifier", Self.answersSectionIdentifier {
            return date.map(Self.sectionIdentifier(of:))
        }
        return super.value(forUndefinedKey: key)
    }

    /// Sets the date and the transient month with it.
    func schedule(_ newDate: Date?) {
        date = newDate
        month = newDate.map(Self.sectionIdentifier(of:))
    }

    override func awakeFromFetch() {
        super.awakeFromFetch()
        // Transient values start empty in every fetched object: derive the month again.
        setPrimitiveValue(date.map(Self.sectionIdentifier(of:)), forKey: "month")
    }

    /// year × 1000 + month, in UTC: sorts as the dates do.
    static func sectionIdentifier(of date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: date)
        return String(parts.year! * 1000 + parts.month!)
    }
}

final class Club: ManagedObject {
    @Managed var name: String?
    @Managed var outings: Set<Outing>
}

/// Section names read as Core Data reads them, through the object's key-value coding: a persisted attribute, a
/// to-one key path, a transient attribute, and a key the subclass computes (`value(forUndefinedKey:)`, the stand-in
/// for an `@objc` property); a computed section that follows its attribute when it changes; and a key path that
/// names nothing, which fails the fetch.
final class FetchedResultsSectionNameTests: PersistenceTestCase {
    override func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Outing", managedObjectClass: Outing.self, properties: [
                .attribute("date", .date),
                .attribute("title", .string, defaultValue: ""),
                .attribute("month", .string, transient: true),
                .toOne("club", "Club", inverse: "outings"),
            ]),
            EntityDescription(name: "Club", managedObjectClass: Club.self, properties: [
                .attribute("name", .string),
                .toMany("outings", "Outing", inverse: "club", deleteRule: .nullifyDeleteRule),
            ]),
        ])
    }

    override func tearDownWithError() throws {
        Outing.answersSectionIdentifier = true
        try super.tearDownWithError()
    }

    // MARK: - Helpers

    /// 2024-`month`-`day`, noon UTC.
    private func day(_ month: Int, _ day: Int) -> Date {
        var parts = DateComponents()
        (parts.year, parts.month, parts.day, parts.hour) = (2024, month, day, 12)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: parts)!
    }

    @discardableResult
    private func outing(_ title: String, on date: Date?, club: Club? = nil) -> Outing {
        let outing = Outing(context: context)
        outing.title = title
        outing.schedule(date)
        outing.club = club
        return outing
    }

    private func club(_ name: String?) -> Club {
        let club = Club(context: context)
        club.name = name
        return club
    }

    /// The usual request: by date, then title.
    private func request(sortedBy first: String = "date") -> FetchRequest<Outing> {
        let request = FetchRequest<Outing>(entityName: "Outing")
        request.sortDescriptors = [FetchSortDescriptor(key: first, ascending: true),
                                   FetchSortDescriptor(key: "title", ascending: true)]
        return request
    }

    private func controller(_ keyPath: String, sortedBy first: String = "date") -> FetchedResultsController<Outing> {
        FetchedResultsController(fetchRequest: request(sortedBy: first), managedObjectContext: context,
                                 sectionNameKeyPath: keyPath, cacheName: nil)
    }

    /// Each section's name and its outings' titles.
    private func layout(_ controller: FetchedResultsController<Outing>) -> [String] {
        (controller.sections ?? []).map { section in
            "\(section.name): " + (section.objects as? [Outing] ?? []).map(\.title).joined(separator: ", ")
        }
    }

    /// Three outings in two months, saved, and the context emptied so that the controller fetches them afresh.
    private func saveThreeOutings() throws {
        outing("Ridge", on: day(1, 20))
        outing("Lake", on: day(1, 5))
        outing("Moor", on: day(3, 2))
        try context.save()
        context.reset()
    }

    // MARK: - Reading the key path

    func testAPersistedAttributeNamesTheSections() throws {
        try saveThreeOutings()
        let controller = controller("title", sortedBy: "title")
        try controller.performFetch()
        XCTAssertEqual(layout(controller), ["Lake: Lake", "Moor: Moor", "Ridge: Ridge"])
    }

    func testAToOneKeyPathNamesTheSectionsAndNilNamesTheUnnamedSection() throws {
        let hills = club("Hills")
        outing("Ridge", on: day(1, 20), club: hills)
        outing("Lake", on: day(1, 5), club: club("Coast"))
        outing("Moor", on: day(3, 2), club: hills)
        outing("Solo", on: day(2, 1))
        outing("Nameless", on: day(2, 2), club: club(nil))
        try context.save()
        context.reset()
        let controller = controller("club.name", sortedBy: "club.name")
        try controller.performFetch()
        // Nil sorts first, and a nil value — no club, or a club without a name — names the section "".
        XCTAssertEqual(layout(controller), [": Nameless, Solo", "Coast: Lake", "Hills: Moor, Ridge"])
        XCTAssertEqual(controller.sections?.first?.indexTitle, nil, "the unnamed section has no index title")
    }

    func testATransientAttributeNamesTheSections() throws {
        try saveThreeOutings()
        let controller = controller("month")
        try controller.performFetch()
        XCTAssertEqual(layout(controller), ["2024001: Lake, Ridge", "2024003: Moor"])
    }

    func testAKeyTheSubclassComputesNamesTheSections() throws {
        try saveThreeOutings()
        let controller = controller("sectionIdentifier")
        try controller.performFetch()
        XCTAssertEqual(layout(controller), ["2024001: Lake, Ridge", "2024003: Moor"])
        XCTAssertEqual(controller.sectionIndexTitles, ["2"], "index titles come from the computed names")
    }

    func testAComputedKeyThatAnswersNilNamesTheUnnamedSection() throws {
        outing("Someday", on: nil)
        outing("Lake", on: day(1, 5))
        try context.save()
        let controller = controller("sectionIdentifier")
        try controller.performFetch()
        XCTAssertEqual(layout(controller), [": Someday", "2024001: Lake"])
    }

    func testValueForKeyAsksTheSubclassForAKeyTheModelLacks() throws {
        let lake = outing("Lake", on: day(1, 5))
        XCTAssertEqual(lake.value(forKey: "sectionIdentifier") as? String, "2024001")
        XCTAssertNil(lake.value(forKey: "nickname"), "the default implementation answers nil")
        XCTAssertEqual(lake.value(forKey: "title") as? String, "Lake", "a key of the model is read from the object")
        // Read from the method tables: what lets a fetch fail before it finds the store empty.
        XCTAssertTrue(ManagedObjectOverrides.overridesValueForUndefinedKey(Outing.self))
        XCTAssertFalse(ManagedObjectOverrides.overridesValueForUndefinedKey(Club.self))
        XCTAssertFalse(ManagedObjectOverrides.overridesValueForUndefinedKey(ManagedObject.self))
    }

    // MARK: - Following changes

    func testAnObjectMovesSectionWhenTheAttributeItsComputedSectionComesFromChanges() throws {
        try saveThreeOutings()
        let controller = controller("sectionIdentifier")
        let log = ChangeLog()
        controller.delegate = log
        try controller.performFetch()
        let lake = try XCTUnwrap(controller.fetchedObjects?.first { $0.title == "Lake" })

        lake.date = day(2, 10)
        context.processPendingChanges()

        XCTAssertEqual(layout(controller), ["2024001: Ridge", "2024002: Lake", "2024003: Moor"])
        XCTAssertEqual(log.calls, ["section insert 1 2024002", "move [0, 0] → [1, 0] Lake"])
        XCTAssertEqual(layout(controller), try freshLayout("sectionIdentifier"))

        let moor = try XCTUnwrap(controller.fetchedObjects?.first { $0.title == "Moor" })
        moor.date = day(1, 25)
        context.processPendingChanges()

        XCTAssertEqual(layout(controller), ["2024001: Ridge, Moor", "2024002: Lake"])
        XCTAssertEqual(log.calls.suffix(2), ["section delete 2 2024003", "move [2, 0] → [0, 1] Moor"])
        XCTAssertEqual(layout(controller), try freshLayout("sectionIdentifier"))
    }

    func testAnObjectMovesSectionWhenItsTransientSectionChanges() throws {
        try saveThreeOutings()
        let controller = controller("month")
        let log = ChangeLog()
        controller.delegate = log
        try controller.performFetch()
        let ridge = try XCTUnwrap(controller.fetchedObjects?.first { $0.title == "Ridge" })

        ridge.schedule(day(3, 1))
        context.processPendingChanges()

        XCTAssertEqual(layout(controller), ["2024001: Lake", "2024003: Ridge, Moor"])
        XCTAssertEqual(log.calls, ["move [0, 1] → [1, 0] Ridge"])
    }

    /// What a controller made now shows, for comparison.
    private func freshLayout(_ keyPath: String) throws -> [String] {
        let fresh = controller(keyPath)
        try fresh.performFetch()
        return layout(fresh)
    }

    // MARK: - A key path that names nothing

    func testAKeyNoObjectAnswersFailsThePerformFetchNamingEntityAndKeyPath() throws {
        try saveThreeOutings()
        // Outing computes other keys: its objects are asked, and none answers this one.
        let controller = controller("sectionIdentifer")
        let error = assertPersistenceError(.coreData) { try controller.performFetch() }
        XCTAssertEqual(error?.entityName, "Outing")
        XCTAssertEqual(error?.key, "sectionIdentifer")
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("'sectionIdentifer'") && message.contains("Outing"), message)
        XCTAssertTrue(message.contains("NSUnknownKeyException"), message)
        XCTAssertNil(controller.fetchedObjects, "a failed fetch leaves no results")
        XCTAssertNil(controller.sections)
    }

    func testAKeyTheClassFallsThroughToTheDefaultForFailsThePerformFetch() throws {
        try saveThreeOutings()
        Outing.answersSectionIdentifier = false
        let controller = controller("sectionIdentifier")
        let error = assertPersistenceError(.coreData) { try controller.performFetch() }
        XCTAssertEqual(error?.key, "sectionIdentifier")
    }

    func testAKeyNoClassCanAnswerFailsThePerformFetchWithNothingFetched() throws {
        // Club computes no keys: no club could ever answer, so the fetch fails before it finds the store empty.
        let request = FetchRequest<Club>(entityName: "Club")
        request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: "nmae", cacheName: nil)
        let error = assertPersistenceError(.coreData) { try controller.performFetch() }
        XCTAssertEqual(error?.entityName, "Club")
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("'nmae'") && message.contains("Club"), message)
    }

    func testAToOneKeyPathNamingNothingFailsThePerformFetch() throws {
        let controller = controller("club.nmae", sortedBy: "club.name")
        let error = assertPersistenceError(.coreData) { try controller.performFetch() }
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("'club.nmae'") && message.contains("Club has no property 'nmae'"), message)
    }

    func testAKeyPathThroughAToManyRelationshipFailsThePerformFetch() throws {
        let request = FetchRequest<Club>(entityName: "Club")
        request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context,
                                                  sectionNameKeyPath: "outings.title", cacheName: nil)
        let error = assertPersistenceError(.coreData) { try controller.performFetch() }
        XCTAssertTrue(error?.message.contains("to-many") == true, error?.message ?? "")
    }

    func testAnArrivingObjectThatCannotAnswerFailsTheNextSave() throws {
        // Nothing fetched, and Outing computes keys: the mistake shows with the first object.
        let controller = controller("sectionIdentifer")
        let log = ChangeLog()
        controller.delegate = log
        try controller.performFetch()
        XCTAssertEqual(controller.sections?.count, 0)

        outing("Lake", on: day(1, 5))
        context.processPendingChanges()

        XCTAssertEqual(layout(controller), [": Lake"], "placed in the unnamed section")
        let error = assertPersistenceError(.coreData) { try context.save() }
        XCTAssertTrue(error?.message.contains("'sectionIdentifer'") == true, error?.message ?? "")
    }
}

/// A row-by-row delegate that writes down what it is told.
private final class ChangeLog: FetchedResultsControllerDelegate {
    private(set) var calls: [String] = []

    func controller(_ controller: FetchedResultsController<any FetchRequestResult>,
                    didChange sectionInfo: any FetchedResultsSectionInfo, atSectionIndex sectionIndex: Int,
                    for type: FetchedResultsChangeType) {
        calls.append("section \(type) \(sectionIndex) \(sectionInfo.name)")
    }

    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChange anObject: Any,
                    at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?) {
        let title = (anObject as? Outing)?.title ?? "?"
        calls.append("\(type) \(indexPath.map { "\($0)" } ?? "-") → \(newIndexPath.map { "\($0)" } ?? "-") \(title)")
    }
}
