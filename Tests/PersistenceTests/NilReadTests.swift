import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) import Persistence
import XCTest

/// Reading nil through a non-optional `@Managed` property: numbers and Booleans read 0 and `false` (Core Data's
/// scalar accessors), every other type is a programming error — stopping by default, reported under a harness.
final class NilReadTests: PersistenceTestCase {
    /// A class that declares non-optional what its model leaves optional: the device bug under test.
    final class Reminder: ManagedObject {
        @Managed var text: String
        @Managed var due: Date
        @Managed var tag: UUID
        @Managed var count: Int
        @Managed var done: Bool
        @Managed var weight: Double
        @Managed var score: NSNumber
        @Managed var note: String?
    }

    private let reported = ReportedList<NilRead>()

    override func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Reminder", managedObjectClass: Reminder.self, properties: [
                .attribute("text", .string), .attribute("due", .date), .attribute("tag", .uuid),
                .attribute("count", .integer64), .attribute("done", .boolean), .attribute("weight", .double),
                .attribute("score", .integer32), .attribute("note", .string),
            ]),
        ])
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        reportNilReads(into: reported)
    }

    func testTheDefaultStopsTheProgram() {
        ManagedObject.nilReadHandling = .stop
        guard case .stop = ManagedObject.nilReadHandling else { return XCTFail("a nil read would pass by default") }
    }

    func testANewObjectsUnsetObjectTypedPropertiesAreReported() {
        let reminder = Reminder(context: context)
        XCTAssertEqual(reminder.text, "")
        XCTAssertEqual(reminder.due, Date(timeIntervalSinceReferenceDate: 0))
        _ = reminder.tag
        XCTAssertEqual(reported.take().map { "\($0.entityName).\($0.key) \($0.typeName)" },
                       ["Reminder.text String", "Reminder.due Date", "Reminder.tag UUID"])
    }

    func testNumbersAndBooleansReadZeroAndFalseAsCoreDatasScalarAccessors() {
        let reminder = Reminder(context: context)
        XCTAssertEqual(reminder.count, 0)
        XCTAssertFalse(reminder.done)
        XCTAssertEqual(reminder.weight, 0)
        XCTAssertNil(reminder.note)
        XCTAssertTrue(reported.take().isEmpty, "a scalar or an optional property read as nil is not a mistake")
    }

    /// An `NSNumber` is an object: Core Data's scalar accessors read 0, but an `NSNumber` property over nil has
    /// nil, and a non-optional one is reported like a `Date`.
    func testANonOptionalNSNumberOverNilIsReportedLikeAnObjectType() {
        let reminder = Reminder(context: context)
        XCTAssertEqual(reminder.score, 0)
        XCTAssertEqual(reported.take().map { "\($0.entityName).\($0.key) \($0.typeName)" }, ["Reminder.score NSNumber"])
        reminder.score = 7
        XCTAssertEqual(reminder.score, 7)
        XCTAssertTrue(reported.take().isEmpty)
    }

    func testASetValueIsNotReportedAndTheMessageNamesTheFix() throws {
        let reminder = Reminder(context: context)
        reminder.text = "Water the plants"
        XCTAssertEqual(reminder.text, "Water the plants")
        XCTAssertTrue(reported.take().isEmpty)
        reminder.text = ""
        _ = reminder.due
        let read = try XCTUnwrap(reported.take().first)
        XCTAssertTrue(read.description.contains("Reminder.due is declared Date, not optional"), read.description)
        XCTAssertTrue(read.description.contains("Declare the property Date?"), read.description)
    }

    func testAStoredNilIsReportedWhenAFetchedObjectIsRead() throws {
        let reminder = Reminder(context: context)
        reminder.count = 3
        try context.save()
        let fresh = container.newBackgroundContext()
        try fresh.performAndWait {
            let fetched = try XCTUnwrap(try fresh.fetch(FetchRequest<Reminder>(entityName: "Reminder")).first)
            XCTAssertEqual(fetched.count, 3)
            _ = fetched.text
            _ = fetched.due
        }
        XCTAssertEqual(reported.take().map(\.key), ["text", "due"], "read from the fetched row, and from a fault")
    }

    func testAFaultDeletedSilentlyReadsNilAndIsReportedAndAStrictOneIsLeftToTheSave() throws {
        let reminder = Reminder(context: context)
        reminder.text = "Renew the passport"
        try context.save()
        let id = reminder.objectID
        let deleter = container.newBackgroundContext()
        try deleter.performAndWait {
            deleter.delete(deleter.object(with: id))
            try deleter.save()
        }
        let quiet = container.newBackgroundContext()
        quiet.performAndWait {
            let fault = quiet.object(with: id) as! Reminder
            _ = fault.text
            XCTAssertTrue(fault.isDeleted)
        }
        XCTAssertEqual(reported.take().map(\.key), ["text"], "Core Data documents nil attributes for such a fault")
        let strict = container.newBackgroundContext()
        strict.shouldDeleteInaccessibleFaults = false
        strict.performAndWait {
            _ = (strict.object(with: id) as! Reminder).text
        }
        XCTAssertTrue(reported.take().isEmpty, "Core Data raises on the fault itself: the save reports that")
    }

    func testASavedObjectCutLooseFromItsContextIsNotReported() throws {
        var reminder: Reminder? = Reminder(context: context)
        reminder?.text = "Call back"
        XCTAssertTrue(reported.take().isEmpty, "setting through optional chaining reads nothing")
        try context.save()
        context.reset()
        _ = reminder?.text
        XCTAssertTrue(reported.take().isEmpty, "what an emptied object reads is not its value")
        reminder = nil
    }
}
