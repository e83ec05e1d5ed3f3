import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// `prepareForDeletion()`: called once per deletion when the context propagates deletions (processing pending
/// changes, or saving), before the object's delete rules run, so it still sees its relationships.
final class DeletionHookTests: PersistenceTestCase {
    private typealias Country = HookModel.Country
    private typealias Mood = HookModel.Mood
    private typealias Entry = HookModel.Entry

    override func makeModel() throws -> ManagedObjectModel { try HookModel.make() }

    /// The log of the deletion hooks (validation logs too).
    private var prepared: [String] { HookModel.log.filter { $0.hasPrefix("prepare") || $0.hasPrefix("entries") } }

    override func setUpWithError() throws {
        HookModel.reset()
        try super.setUpWithError()
    }

    override func tearDownWithError() throws {
        HookModel.reset()
        try super.tearDownWithError()
    }

    /// A saved country with one mood per name, each mood with one entry.
    @discardableResult
    private func makeCountry(_ name: String, moods: [String]) throws -> Country {
        let country = Country(context: context)
        country.name = name
        for moodName in moods {
            let mood = Mood(context: context)
            mood.name = moodName
            mood.country = country
            let entry = Entry(context: context)
            entry.text = "about \(moodName)"
            entry.mood = mood
        }
        try context.save()
        HookModel.log = []
        return country
    }

    func testRunsWhenPendingChangesAreProcessedNotAtDeleteAndOnlyOnce() throws {
        let country = try makeCountry("Norway", moods: ["calm"])
        let mood = country.moods.first!
        context.delete(mood)
        XCTAssertEqual(prepared, [], "delete(_:) only marks the object")
        context.processPendingChanges()
        XCTAssertEqual(prepared, ["prepare Mood calm", "prepare Entry about calm"])
        context.processPendingChanges()
        try context.save()
        XCTAssertEqual(prepared, ["prepare Mood calm", "prepare Entry about calm"], "once per deletion")
    }

    func testSeesItsRelationshipsBeforeTheDeleteRulesTearThemDown() throws {
        let country = try makeCountry("Norway", moods: ["calm", "glad"])
        HookModel.behaviour["prepareForDeletion"] = { object in
            // A mood tells its country when it is the last one going.
            guard let mood = object as? Mood, let country = mood.country else { return }
            if country.moods.allSatisfy({ $0.isDeleted }) { country.remark = "no moods left" }
        }
        for mood in country.moods { context.delete(mood) }
        try context.save()
        XCTAssertEqual(Set(HookModel.log.filter { $0.hasPrefix("prepare Mood") }), ["prepare Mood calm", "prepare Mood glad"])
        XCTAssertEqual(country.remark, "no moods left", "the country was still related when its last mood was prepared")
        XCTAssertEqual(country.moods, [], "the nullify rule ran after")
        XCTAssertFalse(country.hasChanges, "the change made in prepareForDeletion() was saved with the deletion")
        XCTAssertEqual(try storedCount("Country", "remark == 'no moods left'"), 1)
        XCTAssertEqual(try storedCount("Mood"), 0)
        XCTAssertEqual(try storedCount("Entry"), 0)
    }

    func testCascadedObjectsArePreparedAfterTheObjectThatCascadesToThem() throws {
        let country = try makeCountry("Norway", moods: ["calm"])
        HookModel.behaviour["prepareForDeletion"] = { object in
            guard let mood = object as? Mood else { return }
            HookModel.log.append("entries \(mood.entries.map(\.text))")
        }
        context.delete(country.moods.first!)
        try context.save()
        XCTAssertEqual(prepared, ["prepare Mood calm", "entries [\"about calm\"]", "prepare Entry about calm"])
    }

    func testObjectsDeletedInPrepareForDeletionArePreparedPropagatedAndSaved() throws {
        let country = try makeCountry("Norway", moods: ["calm"])
        HookModel.behaviour["prepareForDeletion"] = { object in
            // The country goes with its last mood.
            guard let mood = object as? Mood, let country = mood.country else { return }
            object.managedObjectContext?.delete(country)
        }
        context.delete(country.moods.first!)
        try context.save()
        XCTAssertEqual(Set(prepared), ["prepare Mood calm", "prepare Entry about calm", "prepare Country Norway"])
        XCTAssertEqual(try storedCount("Country"), 0)
        XCTAssertEqual(try storedCount("Mood"), 0)
        XCTAssertEqual(try storedCount("Entry"), 0)
    }

    func testAnObjectDeletedInWillSaveIsPreparedBeforeTheNextRound() throws {
        let country = try makeCountry("Norway", moods: ["calm"])
        HookModel.behaviour["willSave"] = { object in
            guard let country = object as? Country, !country.isDeleted, let mood = country.moods.first else { return }
            country.managedObjectContext?.delete(mood)
        }
        country.remark = "changed"
        try context.save()
        XCTAssertEqual(prepared, ["prepare Mood calm", "prepare Entry about calm"])
        XCTAssertEqual(try storedCount("Mood"), 0)
        XCTAssertEqual(country.moods, [])
    }

    func testAnUndoneDeletionIsPreparedAgainWhenMadeAgain() throws {
        let country = try makeCountry("Norway", moods: [])
        context.delete(country)
        context.processPendingChanges()
        context.rollback()
        XCTAssertFalse(country.isDeleted)
        context.delete(country)
        context.processPendingChanges()
        XCTAssertEqual(prepared, ["prepare Country Norway", "prepare Country Norway"])
        context.insert(country)
        context.delete(country)
        try context.save()
        XCTAssertEqual(prepared.count, 3)
    }

    func testANewObjectDeletedBeforeItsFirstSaveIsPrepared() throws {
        let country = Country(context: context)
        country.name = "Chile"
        context.delete(country)
        try context.save()
        XCTAssertEqual(prepared, ["prepare Country Chile"])
    }

    func testBatchDeletesDoNotCallIt() throws {
        try makeCountry("Norway", moods: ["calm", "glad"])
        context.reset()
        let request = BatchDeleteRequest(fetchRequest: FetchRequest<FetchRequestResult>(entityName: "Mood"))
        _ = try context.execute(request)
        XCTAssertEqual(try storedCount("Mood"), 0)
        XCTAssertEqual(prepared, [], "a batch delete acts on the store, past every context")
    }
}
