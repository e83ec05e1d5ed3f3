import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

final class InsertAndSaveTests: PersistenceTestCase {
    func testInsertedObjectsHaveTemporaryIDsUntilSaved() throws {
        let movie = makeMovie("Alien", year: 1979)
        XCTAssertTrue(movie.objectID.isTemporaryID)
        XCTAssertTrue(movie.isInserted)
        XCTAssertTrue(context.hasChanges)
        XCTAssertEqual(context.insertedObjects, [movie])
        let temporary = movie.objectID

        try context.save()

        XCTAssertFalse(movie.objectID.isTemporaryID)
        XCTAssertNotEqual(movie.objectID, temporary)
        XCTAssertFalse(movie.isInserted)
        XCTAssertFalse(context.hasChanges)
        XCTAssertTrue(context.insertedObjects.isEmpty)
        XCTAssertTrue(context.registeredObject(for: movie.objectID) === movie)
        XCTAssertNil(context.registeredObject(for: temporary))
        XCTAssertEqual(try storedCount("Movie"), 1)
    }

    func testNothingReachesTheStoreWithoutSave() throws {
        makeMovie("Unsaved")
        XCTAssertEqual(try storedCount("Movie"), 0)
        XCTAssertEqual(try context.count(for: Movie.fetchRequest()), 1, "the context itself sees its pending insert")
    }

    func testDefaultValuesAndAwakeFromInsert() throws {
        let movie = Movie(context: context)
        XCTAssertEqual(movie.year, 2000, "the model's default value")
        XCTAssertNil(movie.rating)
        XCTAssertTrue(movie.sceneList.isEmpty)
    }

    func testUpdatesAreTrackedAndSaved() throws {
        let movie = makeMovie("Blade Runner", year: 1982)
        try context.save()
        XCTAssertFalse(movie.isUpdated)

        movie.rating = 8.1
        XCTAssertTrue(movie.isUpdated)
        XCTAssertEqual(context.updatedObjects, [movie])
        XCTAssertEqual(movie.changedValues() as? [String: Double], ["rating": 8.1])
        XCTAssertEqual(movie.committedValues(forKeys: ["rating"])["rating"] as? NSNull, NSNull())
        try context.save()

        XCTAssertFalse(movie.isUpdated)
        XCTAssertEqual(try storedCount("Movie", "rating == %@", 8.1), 1)
    }

    func testSettingAValueToItselfIsAChangeButNotAPersistentOne() throws {
        let movie = makeMovie("Same")
        try context.save()
        movie.title = "Same"
        XCTAssertTrue(movie.hasChanges)
        XCTAssertFalse(movie.hasPersistentChangedValues)
    }

    func testKeyValueAccessSetsAndReadsByKey() throws {
        let movie = makeMovie("Ran")
        movie.setValue(1985, forKey: "year")
        XCTAssertEqual(movie.value(forKey: "year") as? Int, 1985)
        XCTAssertEqual(movie.year, 1985)
        movie.setValue(nil, forKey: "rating")
        XCTAssertNil(movie.value(forKey: "rating"))
        XCTAssertNoThrow(try context.save())
    }

    func testObjectsWithoutASubclassWorkThroughKeys() throws {
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [.attribute("text", .string)])])
        let notes = try makeContainer(model: model)
        let note = ManagedObject(entity: model.entitiesByName["Note"]!, insertInto: notes.viewContext)
        note.setValue("hello", forKey: "text")
        try notes.viewContext.save()
        let reader = notes.newBackgroundContext()
        let fetched = try reader.performAndWait { try reader.fetch(FetchRequest<ManagedObject>(entityName: "Note")) }
        XCTAssertEqual(reader.performAndWait { fetched.first?.value(forKey: "text") as? String }, "hello")
    }

    func testAClassMissingFromTheModelMakesTheNextSaveFailInsteadOfTrapping() throws {
        final class Stranger: ManagedObject {}
        _ = Stranger(context: context)
        let error = assertPersistenceError(.persistentStoreIncompatibleSchema) { try context.save() }
        XCTAssertTrue(error?.message.contains("Stranger is not the class of any entity") == true, error?.message ?? "")
        context.rollback()
        XCTAssertNoThrow(try context.save())
    }

    func testObtainPermanentIDsBeforeSaving() throws {
        let movie = makeMovie("Early")
        try context.obtainPermanentIDs(for: [movie])
        XCTAssertFalse(movie.objectID.isTemporaryID)
        XCTAssertTrue(movie.isInserted)
        let id = movie.objectID
        try context.save()
        XCTAssertEqual(movie.objectID, id, "the permanent ID obtained early is the one saved")
        XCTAssertTrue(try context.existingObject(with: id) === movie)
    }

    func testEveryAttributeTypeRoundTrips() throws {
        let sample = Sample(context: context)
        let when = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
        let identifier = UUID()
        sample.text = "Ünïcødé ✓"
        sample.small = NSNumber(value: Int16.min)
        sample.medium = NSNumber(value: Int32.max)
        sample.large = NSNumber(value: Int64.min)
        sample.real = 3.141592653589793
        sample.single = 1.5
        sample.flag = true
        sample.when = when
        sample.identifier = identifier
        sample.link = URL(string: "https://example.org/a?b=c")
        sample.bytes = Data([0, 1, 2, 255])
        sample.amount = Decimal(string: "12345.6789")
        try context.save()

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let fetched = try XCTUnwrap(reader.fetch(Sample.fetchRequest()).first)
            XCTAssertEqual(fetched.text, "Ünïcødé ✓")
            XCTAssertEqual(fetched.small?.int16Value, Int16.min)
            XCTAssertEqual(fetched.medium?.int32Value, Int32.max)
            XCTAssertEqual(fetched.large?.int64Value, Int64.min)
            XCTAssertEqual(fetched.real, 3.141592653589793)
            XCTAssertEqual(fetched.single, 1.5)
            XCTAssertEqual(fetched.flag, true)
            XCTAssertEqual(fetched.when, when)
            XCTAssertEqual(fetched.identifier, identifier)
            XCTAssertEqual(fetched.link, URL(string: "https://example.org/a?b=c"))
            XCTAssertEqual(fetched.bytes, Data([0, 1, 2, 255]))
            XCTAssertEqual(fetched.amount, Decimal(string: "12345.6789"))
        }
    }

    func testNilValuesRoundTrip() throws {
        _ = Sample(context: context)
        try context.save()
        let reader = container.newBackgroundContext()
        let fetched = try XCTUnwrap(reader.performAndWait { try reader.fetch(Sample.fetchRequest()) }.first)
        XCTAssertNil(fetched.text)
        XCTAssertNil(fetched.large)
        XCTAssertNil(fetched.when)
        XCTAssertNil(fetched.amount)
    }
}
