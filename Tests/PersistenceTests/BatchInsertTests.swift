import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

final class BatchInsertTests: PersistenceTestCase {
    func testInsertsRowsWithDefaultsAndReturnsTheirIDs() throws {
        let request = BatchInsertRequest(entityName: "Movie", objects: [
            ["title": "Alien", "year": 1979],
            ["title": "Heat", "rating": 8.3],
        ])
        request.resultType = .objectIDs
        let result = try context.execute(request)
        XCTAssertEqual(result.count, 2)
        let ids = try XCTUnwrap(result.objectIDs)
        XCTAssertEqual(ids.count, 2)
        XCTAssertFalse(ids.contains { $0.isTemporaryID })

        let reader = container.newBackgroundContext()
        let (alien, heat) = try reader.performAndWait {
            (try XCTUnwrap(reader.existingObject(with: ids[0]) as? Movie), try XCTUnwrap(reader.existingObject(with: ids[1]) as? Movie))
        }
        reader.performAndWait {
            XCTAssertEqual(alien.title, "Alien")
            XCTAssertEqual(alien.year, 1979)
            XCTAssertNil(alien.rating)
            XCTAssertEqual(heat.year, 2000, "a missing key takes the attribute's default")
            XCTAssertEqual(heat.rating, 8.3)
        }
        XCTAssertEqual(try storedVersion(of: ids[0]), 1)
        XCTAssertFalse(context.hasChanges)
        XCTAssertTrue(context.registeredObjects.isEmpty, "the executing context does not see the rows until it fetches")
    }

    func testTheDictionaryHandlerFillsCoreDatasMutableDictionaryUntilItReturnsTrue() throws {
        let titles = ["Alien", "Heat", "Up"]
        var next = 0
        let request = BatchInsertRequest(entityName: "Movie") { (row: NSMutableDictionary) -> Bool in
            guard next < titles.count else { return true }
            row["title"] = titles[next]
            row["year"] = 1979 + next
            // Numbers come back from the dictionary as NSNumbers: 0.0 and 1.0 must stay doubles.
            row["rating"] = next == 1 ? NSNull() : Double(next) / 2
            next += 1
            return false
        }
        _ = try context.execute(request)
        XCTAssertEqual(next, 3)
        let fetch: FetchRequest<Movie> = Movie.fetchRequest()
        fetch.sortDescriptors = [FetchSortDescriptor(key: "year", ascending: true)]
        let movies = try context.fetch(fetch)
        XCTAssertEqual(movies.map(\.title), titles)
        XCTAssertEqual(movies.map(\.year), [1979, 1980, 1981])
        XCTAssertEqual(movies.map(\.rating), [0.0, nil, 1.0])
    }

    func testADictionaryHandlersKeyThatIsNotANameFailsTheRequest() throws {
        var calls = 0
        let request = BatchInsertRequest(entityName: "Movie", dictionaryHandler: { row in
            calls += 1
            if calls > 1 { return true }
            row["title"] = "Alien"
            row[7] = "seven"
            return false
        })
        let error = assertPersistenceError(.coreData) { _ = try context.execute(request) }
        XCTAssertTrue(error?.message.contains("not an attribute name") == true, error?.message ?? "")
        XCTAssertEqual(try storedCount("Movie"), 0)
    }

    func testKeysComeFromTheStoresCounterSoLaterSavesDoNotCollide() throws {
        let request = BatchInsertRequest(entityName: "Movie", objects: (1...3).map { ["title": "Batch \($0)"] })
        request.resultType = .objectIDs
        let ids = try XCTUnwrap(try context.execute(request).objectIDs)
        let saved = makeMovie("Saved")
        try context.save()
        XCTAssertFalse(ids.contains(saved.objectID))
        XCTAssertEqual(saved.objectID.primaryKey, 4)
        XCTAssertEqual(try storedCount("Movie"), 4)
    }

    func testTheHandlerFormStopsWhenTheHandlerReturnsTrue() throws {
        var next = 0
        let request = BatchInsertRequest(entityName: "Scene") { row in
            guard next < 5 else {
                row["number"] = 99        // the stopping call's row is not inserted
                return true
            }
            next += 1
            row["number"] = next
            row["summary"] = "Scene \(next)"
            return false
        }
        request.resultType = .count
        XCTAssertEqual(try context.execute(request).result as? Int, 5)
        XCTAssertEqual(try storedCount("Scene"), 5)
        XCTAssertEqual(try storedCount("Scene", "number == 99"), 0)
        XCTAssertEqual(try storedCount("Scene", "summary == 'Scene 5' AND number == 5"), 1)
    }

    func testEveryAttributeTypeRoundTrips() throws {
        let when = Date(timeIntervalSinceReferenceDate: 123_456.5)
        let identifier = UUID()
        let link = try XCTUnwrap(URL(string: "https://example.com/a?b=c"))
        let request = BatchInsertRequest(entityName: "Sample", objects: [[
            "text": "hello", "small": 7, "medium": Int32(70_000), "large": Int64.max, "real": 1.5, "single": Float(2.5),
            "flag": true, "when": when, "identifier": identifier, "link": link, "bytes": Data([0, 1, 2]),
            "amount": Decimal(string: "12.34")!,
        ]])
        request.resultType = .objectIDs
        let id = try XCTUnwrap(try context.execute(request).objectIDs?.first)
        let sample = try XCTUnwrap(try context.existingObject(with: id) as? Sample)
        XCTAssertEqual(sample.text, "hello")
        XCTAssertEqual(sample.small, 7)
        XCTAssertEqual(sample.medium, 70_000)
        XCTAssertEqual(sample.large?.int64Value, Int64.max)
        XCTAssertEqual(sample.real, 1.5)
        XCTAssertEqual(sample.single, 2.5)
        XCTAssertEqual(sample.flag, true)
        XCTAssertEqual(sample.when, when)
        XCTAssertEqual(sample.identifier, identifier)
        XCTAssertEqual(sample.link, link)
        XCTAssertEqual(sample.bytes, Data([0, 1, 2]))
        XCTAssertEqual(sample.amount, Decimal(string: "12.34"))
    }

    func testAWrongValueNamesTheRowKeyAndValueAndNothingIsWritten() throws {
        let before = try storeSnapshot()
        let error = assertPersistenceError(.managedObjectValidation) {
            try context.execute(BatchInsertRequest(entityName: "Movie", objects: [
                ["title": "Fine", "year": 2001],
                ["title": "Bad", "year": "nineteen"],
            ]))
        }
        XCTAssertEqual(error?.key, "year")
        XCTAssertEqual(error?.value, .string("nineteen"))
        XCTAssertEqual(error?.entityName, "Movie")
        XCTAssertTrue(error?.message.contains("row 1") == true, error?.message ?? "")
        XCTAssertEqual(try storeSnapshot(), before, "not even row 0, nor a key from the counter")

        let range = assertPersistenceError(.managedObjectValidation) {
            try context.execute(BatchInsertRequest(entityName: "Sample", objects: [["small": 40_000]]))
        }
        XCTAssertEqual(range?.value, .integer(40_000))
        let kind = assertPersistenceError(.managedObjectValidation) {
            try context.execute(BatchInsertRequest(entityName: "Sample", objects: [["link": [1, 2]]]))
        }
        XCTAssertEqual(kind?.key, "link")
        XCTAssertEqual(try storedCount("Sample"), 0)
    }

    func testAMissingRequiredValueIsRefused() throws {
        let missing = assertPersistenceError(.validationMissingMandatoryProperty) {
            try context.execute(BatchInsertRequest(entityName: "Movie", objects: [["title": "A"], ["year": 1999]]))
        }
        XCTAssertEqual(missing?.key, "title")
        XCTAssertTrue(missing?.message.contains("row 1") == true, missing?.message ?? "")
        let explicitNil = assertPersistenceError(.validationMissingMandatoryProperty) {
            try context.execute(BatchInsertRequest(entityName: "Movie", objects: [["title": NSNull()]]))
        }
        XCTAssertEqual(explicitNil?.key, "title")
        XCTAssertEqual(try storedCount("Movie"), 0)
    }

    func testUnknownEntityKeysAndRelationshipsAreRefused() throws {
        let entity = assertPersistenceError(.persistentStoreIncompatibleSchema) {
            try context.execute(BatchInsertRequest(entityName: "Film", objects: [["title": "A"]]))
        }
        XCTAssertTrue(entity?.message.contains("Its entities: Movie, Director, Actor, Scene, Studio, Sample") == true, entity?.message ?? "")
        let key = assertPersistenceError(.persistentStoreIncompatibleSchema) {
            try context.execute(BatchInsertRequest(entityName: "Movie", objects: [["title": "A", "runtime": 117]]))
        }
        XCTAssertEqual(key?.key, "runtime")
        XCTAssertTrue(key?.message.contains("Its attributes: title, year, rating.") == true, key?.message ?? "")
        assertPersistenceError(.persistentStoreIncompatibleSchema) {
            try context.execute(BatchInsertRequest(entityName: "Movie", objects: [["title": "A", "director": NSNull()]]))
        }
        XCTAssertEqual(try storedCount("Movie"), 0)
    }

    func testAConstraintClashUpdatesTheStoredRowAndBumpsItsVersion() throws {
        let alien = makeMovie("Alien", year: 1979)
        alien.rating = 5
        try context.save()
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump

        let request = BatchInsertRequest(entityName: "Movie", objects: [
            ["title": "Alien", "year": 1979, "rating": 8.5],
            ["title": "Alien", "year": 1986],
        ])
        request.resultType = .objectIDs
        let result = try context.execute(request)
        XCTAssertEqual(result.count, 2)
        XCTAssertEqual(result.objectIDs?.first, alien.objectID, "the stored row's own ID")
        XCTAssertNotEqual(result.objectIDs?.last, alien.objectID)
        XCTAssertEqual(try storedCount("Movie"), 2)
        XCTAssertEqual(try storedCount("Movie", "title == 'Alien' AND year == 1979 AND rating == 8.5"), 1)
        XCTAssertEqual(try storedVersion(of: alien.objectID), 2)

        // Only the given keys are overwritten.
        try context.execute(BatchInsertRequest(entityName: "Movie", objects: [["title": "Alien", "year": 1979]]))
        XCTAssertEqual(try storedCount("Movie", "year == 1979 AND rating == 8.5"), 1)
        XCTAssertEqual(try storedVersion(of: alien.objectID), 3)

        // The context's copy is stale now.
        XCTAssertEqual(alien.rating, 5)
        alien.rating = 6
        context.mergePolicy = MergePolicy.error
        assertPersistenceError(.managedObjectMerge) { try context.save() }
    }

    func testUnderAnyOtherMergePolicyAClashIsRefusedAndNothingIsWritten() throws {
        makeMovie("Alien", year: 1979).rating = 5
        try context.save()
        let before = try storeSnapshot(in: container)
        for policy in [MergePolicy.error, .mergeByPropertyStoreTrump, .overwrite, .rollback] {
            context.mergePolicy = policy
            let error = assertPersistenceError(.managedObjectConstraintMerge) {
                try context.execute(BatchInsertRequest(entityName: "Movie", objects: [
                    ["title": "Heat", "year": 1995],
                    ["title": "Alien", "year": 1979, "rating": 8.5],
                ]))
            }
            XCTAssertEqual(error?.coreDataCode.rawValue, 133_021)
            XCTAssertTrue(error?.message.contains("merge policy \(policy)") == true, error?.message ?? "no error")
            XCTAssertEqual(try storeSnapshot(in: container), before, "nothing written under \(policy)")
        }
        // Two rows of one request that clash with each other are refused too.
        context.mergePolicy = MergePolicy.error
        assertPersistenceError(.managedObjectConstraintMerge) {
            try context.execute(BatchInsertRequest(entityName: "Movie", objects: [
                ["title": "Up", "year": 2009], ["title": "Up", "year": 2009],
            ]))
        }
        // Without a clash the default policy inserts as usual.
        try context.execute(BatchInsertRequest(entityName: "Movie", objects: [["title": "Heat", "year": 1995]]))
        XCTAssertEqual(try storedCount("Movie"), 2)
    }

    func testDuplicatesWithinOneRequestMergeIntoOneRow() throws {
        context.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        let request = BatchInsertRequest(entityName: "Movie", objects: [
            ["title": "Up", "year": 2009, "rating": 1.0],
            ["title": "Up", "year": 2009, "rating": 2.0],
        ])
        request.resultType = .objectIDs
        let ids = try XCTUnwrap(try context.execute(request).objectIDs)
        XCTAssertEqual(ids[0], ids[1])
        XCTAssertEqual(try storedCount("Movie"), 1)
        XCTAssertEqual(try storedCount("Movie", "rating == 2"), 1, "the later dictionary wins")
    }

    func testAFailureAfterSomeRowsWereWrittenRollsThemAllBack() throws {
        let store = try makeContainer(model: BatchModel.make())
        store.viewContext.mergePolicy = MergePolicy.mergeByPropertyObjectTrump
        let request = BatchInsertRequest(entityName: "Keyed", objects: [["code": "a", "slot": 1], ["code": "b", "slot": 2]])
        try store.viewContext.execute(request)
        let before = try storeSnapshot(in: store)

        // Row 0 is new; row 1 matches "a" by code, and its update would give "a" the slot "b" holds.
        let error = assertPersistenceError(.managedObjectConstraintMerge) {
            try store.viewContext.execute(BatchInsertRequest(entityName: "Keyed", objects: [
                ["code": "c", "slot": 3, "label": "new"],
                ["code": "a", "slot": 2],
            ]))
        }
        XCTAssertTrue(error?.sql?.hasPrefix("INSERT INTO ZKEYED") == true, error?.sql ?? "no SQL")
        XCTAssertEqual(try storeSnapshot(in: store), before, "row 0 and the keys it took are gone too")
    }
}
