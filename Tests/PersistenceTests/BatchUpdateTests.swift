import Foundation
@_spi(TestHarness) @_spi(BatchUpdateExpression) @testable import Persistence
import XCTest

final class BatchUpdateTests: PersistenceTestCase {
    /// Three saved movies: Alien (1979), Heat (1995), Up (2009).
    @discardableResult
    private func saveThreeMovies() throws -> [Movie] {
        let movies = [makeMovie("Alien", year: 1979), makeMovie("Heat", year: 1995), makeMovie("Up", year: 2009)]
        try context.save()
        return movies
    }

    private func request(_ format: String? = nil, _ arguments: Any..., set properties: [String: Any]) throws -> BatchUpdateRequest {
        let request = BatchUpdateRequest(entityName: "Movie")
        if let format { request.predicate = FetchPredicate(format: format, argumentArray: arguments) }
        request.propertiesToUpdate = properties
        return request
    }

    func testUpdatesOnlyTheMatchingRows() throws {
        try saveThreeMovies()
        let result = try context.execute(try request("year < %@", 2000, set: ["rating": 9.0]))
        XCTAssertEqual(result.count, 2)
        XCTAssertEqual(try storedCount("Movie", "rating == 9"), 2)
        XCTAssertEqual(try storedCount("Movie", "title == 'Up' AND rating == nil"), 1, "rows outside the predicate are untouched")
    }

    func testPropertiesAreKeyedByNameAsAnyHashable() throws {
        try saveThreeMovies()
        let update = BatchUpdateRequest(entityName: "Movie")
        let properties: [AnyHashable: Any] = [AnyHashable("rating"): 7.5, NSString(string: "year"): 2001]
        update.propertiesToUpdate = properties
        _ = try context.execute(update)
        XCTAssertEqual(try storedCount("Movie", "rating == 7.5 AND year == 2001"), 3)

        update.propertiesToUpdate = [42: 1.0]
        let error = assertPersistenceError(.coreData) { _ = try context.execute(update) }
        XCTAssertTrue(error?.message.contains("not an attribute name") == true, error?.message ?? "")
        XCTAssertEqual(try storedCount("Movie", "rating == 7.5"), 3, "nothing written")
    }

    func testResultTypesGiveStatusCountOrIDs() throws {
        let movies = try saveThreeMovies()
        let update = try request("year > %@", 1990, set: ["rating": 1])
        XCTAssertEqual(try context.execute(update).result as? Bool, true)

        update.resultType = .updatedObjectsCountResultType
        XCTAssertEqual(try context.execute(update).result as? Int, 2)

        update.resultType = .updatedObjectIDsResultType
        let result = try context.execute(update)
        XCTAssertEqual(Set(try XCTUnwrap(result.result as? [ManagedObjectID])), [movies[1].objectID, movies[2].objectID])
        XCTAssertEqual(Set(try XCTUnwrap(result.objectIDs)), [movies[1].objectID, movies[2].objectID])

        // Through the untyped entry point, as in Core Data.
        let requests: [any PersistentStoreRequest] = [update]
        let untyped = try context.execute(requests[0])
        XCTAssertEqual((untyped as? BatchUpdateResult)?.objectIDs?.count, 2)
    }

    func testIntegerValuesAreStoredAsTheAttributesType() throws {
        try saveThreeMovies()
        try context.execute(try request(set: ["rating": 7, "year": Int16(1999)]))
        let reader = container.newBackgroundContext()
        let ratings = try reader.performAndWait { try reader.fetch(Movie.fetchRequest()).map(\.rating) }
        XCTAssertEqual(ratings, [7.0, 7.0, 7.0])
        XCTAssertEqual(try storedCount("Movie", "year == 1999"), 3)
    }

    func testRegisteredObjectsKeepTheirValuesUntilRefreshed() throws {
        let movies = try saveThreeMovies()
        let alien = movies[0]
        XCTAssertNil(alien.rating)
        try context.execute(try request("title == %@", "Alien", set: ["rating": 8.5]))

        XCTAssertNil(alien.rating, "a batch update does not touch objects a context has loaded")
        XCTAssertFalse(context.hasChanges)
        context.refresh(alien, mergeChanges: false)
        XCTAssertEqual(alien.rating, 8.5, "refreshing reads the store's new value")
    }

    func testEveryUpdatedRowGetsANewVersionAndOthersDoNot() throws {
        let movies = try saveThreeMovies()
        try context.execute(try request("year < %@", 2000, set: ["rating": 5.0]))
        XCTAssertEqual(try storedVersion(of: movies[0].objectID), 2)
        XCTAssertEqual(try storedVersion(of: movies[1].objectID), 2)
        XCTAssertEqual(try storedVersion(of: movies[2].objectID), 1)
    }

    func testSavingAStaleCopyAfterABatchUpdateConflicts() throws {
        let alien = try saveThreeMovies()[0]
        try context.execute(try request("title == %@", "Alien", set: ["rating": 8.5]))

        alien.year = 1980
        let error = assertPersistenceError(.managedObjectMerge) { try context.save() }
        let conflict = try XCTUnwrap(error?.conflicts.first)
        XCTAssertEqual(conflict.sourceObject.objectID, alien.objectID)
        XCTAssertEqual(conflict.oldVersionNumber, 1)
        XCTAssertEqual(conflict.newVersionNumber, 2)
        XCTAssertEqual(conflict.persistedSnapshot?["rating"] as? Double, 8.5)
        XCTAssertEqual(try storedCount("Movie", "year == 1979 AND rating == 8.5"), 1, "the batch's values stand")
    }

    func testExpressionsComputeFromEachRow() throws {
        let movies = try saveThreeMovies()
        movies[0].rating = 7
        movies[1].rating = 8
        try context.save()
        let update = try request(set: ["rating": BatchUpdateExpression.key("rating") + 0.5,
                                       "year": BatchUpdateExpression.key("year") * 2 - 1])
        XCTAssertEqual(try context.execute(update).count, 3)
        XCTAssertEqual(try storedCount("Movie", "rating == 7.5 AND year == 3957"), 1)
        XCTAssertEqual(try storedCount("Movie", "rating == 8.5 AND year == 3989"), 1)
        XCTAssertEqual(try storedCount("Movie", "rating == nil AND year == 4017"), 1, "nil stays nil")
        XCTAssertEqual(update.propertiesToUpdate?["year"].map { "\($0)" }, "(year * 2) - 1")
    }

    func testAnExpressionThatLeavesTheAttributesRangeChangesNothing() throws {
        try saveThreeMovies()
        let before = try storeSnapshot()
        let error = assertPersistenceError(.managedObjectValidation) {
            try context.execute(try request(set: ["year": BatchUpdateExpression.key("year") * 2_000_000]))
        }
        XCTAssertEqual(error?.key, "year")
        XCTAssertNotNil(error?.objectID)
        // SQLite may report any of the three rows first.
        XCTAssertTrue([1979, 1995, 2009].map { PersistentValue.integer($0 * 2_000_000) }.contains(error?.value ?? .null))
        XCTAssertTrue(error?.message.contains("out of range for integer32") == true, error?.message ?? "")
        XCTAssertEqual(try storeSnapshot(), before, "the rows updated before the bad one were rolled back")
    }

    func testAnExpressionOverflowingSixtyFourBitsIsCaught() throws {
        let sample = Sample(context: context)
        sample.large = NSNumber(value: Int64.max - 1)
        try context.save()
        let update = BatchUpdateRequest(entityName: "Sample")
        update.propertiesToUpdate = ["large": BatchUpdateExpression.key("large") + 10]
        // SQLite turns an overflowing integer sum into a real; the request notices and changes nothing.
        let error = assertPersistenceError(.managedObjectValidation) { try context.execute(update) }
        XCTAssertEqual(error?.objectID, sample.objectID)
        if case .double? = error?.value {} else { XCTFail("expected the real SQLite computed, got \(String(describing: error?.value))") }
        XCTAssertEqual(try storedVersion(of: sample.objectID), 1)
    }

    func testAnExpressionGivingDoublesCannotSetAnInteger() throws {
        try saveThreeMovies()
        let error = assertPersistenceError(.managedObjectValidation) {
            try context.execute(try request(set: ["year": BatchUpdateExpression.key("rating") + 1]))
        }
        XCTAssertEqual(error?.key, "year")
        assertPersistenceError(.coreData) {
            try context.execute(try request(set: ["title": BatchUpdateExpression.key("title") + 1]))
        }
    }

    func testAUniquenessClashMidwayRollsEveryRowBack() throws {
        try saveThreeMovies()
        try context.execute(try request(set: ["year": 2000]))
        let before = try storeSnapshot()
        // The second row to get this title clashes with the first on (title, year).
        let error = assertPersistenceError(.managedObjectConstraintMerge) {
            try context.execute(try request(set: ["title": "Same"]))
        }
        XCTAssertTrue(error?.sql?.hasPrefix("UPDATE ZMOVIE") == true, error?.sql ?? "no SQL")
        XCTAssertNotNil(error?.sqliteCode)
        XCTAssertEqual(try storeSnapshot(), before, "no row keeps the new title, no version moved")
    }

    func testAWrongTypeIsRefusedBeforeAnythingIsWritten() throws {
        try saveThreeMovies()
        let before = try storeSnapshot()
        let error = assertPersistenceError(.managedObjectValidation) {
            try context.execute(try request(set: ["rating": 1.0, "year": "nineteen"]))
        }
        XCTAssertEqual(error?.entityName, "Movie")
        XCTAssertEqual(error?.key, "year")
        XCTAssertEqual(error?.value, .string("nineteen"))
        XCTAssertEqual(try storeSnapshot(), before)
    }

    func testNilForARequiredAttributeIsRefused() throws {
        try saveThreeMovies()
        let error = assertPersistenceError(.validationMissingMandatoryProperty) {
            try context.execute(try request(set: ["title": NSNull()]))
        }
        XCTAssertEqual(error?.key, "title")
        // An optional attribute may be cleared.
        XCTAssertEqual(try context.execute(try request(set: ["rating": Optional<Double>.none as Any])).count, 3)
    }

    func testUnknownEntityAndKeysListTheValidChoices() throws {
        let unknownEntity = assertPersistenceError(.persistentStoreIncompatibleSchema) {
            let update = BatchUpdateRequest(entityName: "Film")
            update.propertiesToUpdate = ["title": "x"]
            try context.execute(update)
        }
        XCTAssertTrue(unknownEntity?.message.contains("Its entities: Movie, Director, Actor, Scene, Studio, Sample") == true,
                      unknownEntity?.message ?? "")

        let unknownKey = assertPersistenceError(.persistentStoreIncompatibleSchema) {
            try context.execute(try request(set: ["titel": "x"]))
        }
        XCTAssertEqual(unknownKey?.key, "titel")
        XCTAssertTrue(unknownKey?.message.contains("Its attributes: title, year, rating.") == true, unknownKey?.message ?? "")

        let relationship = assertPersistenceError(.persistentStoreIncompatibleSchema) {
            try context.execute(try request(set: ["director": NSNull()]))
        }
        XCTAssertTrue(relationship?.message.contains("is a relationship") == true, relationship?.message ?? "")

        assertPersistenceError(.persistentStoreIncompatibleSchema) {
            try context.execute(try request("titel == %@", "x", set: ["rating": 1.0]))
        }
        assertPersistenceError(.coreData) { try context.execute(try request(set: [:])) }
    }

    func testPredicateValuesAreBoundNotSpliced() throws {
        try saveThreeMovies()
        let hostile = "x' OR 1=1; DROP TABLE ZMOVIE; --"
        makeMovie(hostile, year: 1)
        try context.save()
        let result = try context.execute(try request("title == %@", hostile, set: ["rating": 3.0]))
        XCTAssertEqual(result.count, 1)
        XCTAssertEqual(try storedCount("Movie"), 4)
        XCTAssertEqual(try storedCount("Movie", "rating == 3"), 1)
    }

    func testPredicatesThroughToOneRelationshipsWork() throws {
        let movies = try saveThreeMovies()
        let scott = Director(context: context)
        scott.name = "Ridley Scott"
        movies[0].director = scott
        try context.save()
        let result = try context.execute(try request("director.name BEGINSWITH[c] %@", "ridley", set: ["rating": 9.0]))
        XCTAssertEqual(result.count, 1)
        XCTAssertEqual(try storedCount("Movie", "rating == 9 AND title == 'Alien'"), 1)
    }

    func testPredicatesThroughToManyRelationshipsWork() throws {
        let movies = try saveThreeMovies()
        let weaver = Actor(context: context)
        weaver.name = "Sigourney Weaver"
        weaver.movies = [movies[0], movies[2]]
        try context.save()
        let result = try context.execute(try request("ANY actors.name == %@", "Sigourney Weaver", set: ["rating": 6.0]))
        XCTAssertEqual(result.count, 2)
        XCTAssertEqual(try storedCount("Movie", "rating == 6 AND title IN {'Alien', 'Up'}"), 2)
    }

    func testBatchRequestsPostNoNotificationsAndLeaveContextsAlone() throws {
        try saveThreeMovies()
        let watcher = container.newBackgroundContext()
        watcher.automaticallyMergesChangesFromParent = true
        let log = PostedNotifications()
        let token = NotificationCenter.default.addObserver(forName: nil, object: nil, queue: nil) { note in
            if note.object is ManagedObjectContext { log.record(note.name) }
        }
        defer { NotificationCenter.default.removeObserver(token) }

        try context.execute(try request(set: ["rating": 2.0]))
        let delete = BatchDeleteRequest(fetchRequest: FetchRequest<FetchRequestResult>(entityName: "Movie"))
        try context.execute(delete)
        try context.execute(BatchInsertRequest(entityName: "Movie", objects: [["title": "New"]]))
        watcher.performAndWait {}
        RunLoop.current.run(until: Date().addingTimeInterval(0.05))

        XCTAssertEqual(log.names, [], "batch requests post nothing")
        XCTAssertFalse(context.hasChanges)
        XCTAssertEqual(watcher.performAndWait { watcher.registeredObjects.count }, 0)
    }
}

/// Notification names seen by an observer on any thread.
private final class PostedNotifications: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Notification.Name] = []

    func record(_ name: Notification.Name) { lock.withLock { seen.append(name) } }
    var names: [Notification.Name] { lock.withLock { seen } }
}
