import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Primitive accessors declared with `@Managed`: `@Managed private var primitiveDate: Date?` reads and writes the
/// attribute `date` as `primitiveValue(forKey:)` and `setPrimitiveValue(_:forKey:)` do — without the change
/// notifications, so a set alone records no change — as Core Data generates `primitiveDate` for `date`.
final class PrimitiveAccessorTests: PersistenceTestCase {
    final class Entry: ManagedObject {
        @Managed var date: Date?
        @Managed var text: String?
        @Managed var journal: Journal?
        @Managed private var primitiveDate: Date?
        @Managed private var primitiveText: String?
        @Managed private var primitiveJournal: Journal?

        /// A hand-written accessor in Core Data's pattern, over the generated primitive.
        var day: Date? {
            get { primitiveDate }
            set {
                willChangeValue(forKey: "date")
                primitiveDate = newValue
                didChangeValue(forKey: "date")
            }
        }

        var quietText: String? {
            get { primitiveText }
            set { primitiveText = newValue }
        }

        var quietJournal: Journal? {
            get { primitiveJournal }
            set { primitiveJournal = newValue }
        }
    }

    final class Journal: ManagedObject {
        @Managed var entries: Set<Entry>
    }

    /// A primitive accessor for a key its entity does not have.
    final class Stray: ManagedObject {
        @Managed var date: Date?
        @Managed var primitiveColour: String?
    }

    override func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [entryEntity(), journalEntity()])
    }

    private func entryEntity() -> EntityDescription {
        EntityDescription(name: "Entry", managedObjectClass: Entry.self, properties: [
            .attribute("date", .date), .attribute("text", .string),
            .toOne("journal", "Journal", inverse: "entries"),
        ])
    }

    private func journalEntity() -> EntityDescription {
        EntityDescription(name: "Journal", managedObjectClass: Journal.self, properties: [
            .toMany("entries", "Entry", inverse: "journal"),
        ])
    }

    private let day = Date(timeIntervalSinceReferenceDate: 86_400)

    func testTheAccessorReadsAndWritesItsKeysValue() {
        let entry = Entry(context: context)
        entry.date = day
        XCTAssertEqual(entry.day, day)
        entry.quietText = "quiet"
        XCTAssertEqual(entry.text, "quiet")
        XCTAssertEqual(entry.primitiveValue(forKey: "text") as? String, "quiet")
    }

    func testASetAloneRecordsNoChangeOnASavedObject() throws {
        let entry = Entry(context: context)
        entry.text = "before"
        try context.save()
        entry.quietText = "after"
        XCTAssertEqual(entry.text, "after")
        XCTAssertFalse(entry.hasChanges, "no change notification, no change")
        XCTAssertTrue(entry.changedValues().isEmpty)
        XCTAssertFalse(context.hasChanges)
    }

    func testBetweenTheChangeNotificationsTheSetIsSaved() throws {
        let entry = Entry(context: context)
        try context.save()
        entry.day = day
        XCTAssertTrue(entry.hasChanges)
        XCTAssertEqual(entry.changedValues().keys.sorted(), ["date"])
        try context.save()
        XCTAssertEqual(try storedCount("Entry", "date == %@", day), 1)
    }

    func testANewObjectsPrimitiveValueIsSavedWithIt() throws {
        let entry = Entry(context: context)
        entry.quietText = "new"
        try context.save()
        XCTAssertEqual(try storedCount("Entry", "text == %@", "new"), 1)
    }

    func testAToOnePrimitiveRelatesAsSetPrimitiveValueDoes() throws {
        let journal = Journal(context: context)
        let entry = Entry(context: context)
        try context.save()
        entry.quietJournal = journal
        XCTAssertTrue(entry.journal === journal)
        XCTAssertTrue(entry.quietJournal === journal)
        XCTAssertFalse(entry.hasChanges, "the entry's side records no change")
        XCTAssertEqual(journal.value(forKey: "entries") as? Set<ManagedObject>, [], "the inverse is the caller's to set")
    }

    func testAPrimitiveAccessorForAKeyTheEntityDoesNotHaveIsRefusedByName() {
        let error = assertPersistenceError(.coreData) {
            _ = try ManagedObjectModel(entities: [
                entryEntity(), journalEntity(),
                EntityDescription(name: "Stray", managedObjectClass: Stray.self, properties: [
                    .attribute("date", .date),
                ]),
            ])
        }
        XCTAssertTrue(error?.message.contains("Stray.primitiveColour") == true, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("'colour'") == true, "\(String(describing: error))")
    }
}
