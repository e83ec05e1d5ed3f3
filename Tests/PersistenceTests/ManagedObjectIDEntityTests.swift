import Foundation
@_spi(TestHarness) import Persistence
import XCTest

/// `ManagedObjectID.entity`: the entity description of the model an ID was made with, even when several models
/// (each test's own, or two containers on one file) have an entity of the same name.
final class ManagedObjectIDEntityTests: PersistenceTestCase {
    private var movieEntity: EntityDescription { container.managedObjectModel.entitiesByName["Movie"]! }

    func testNewSavedAndFetchedObjectsIDsNameTheirEntity() throws {
        let movie = makeMovie("Heat")
        XCTAssertTrue(movie.objectID.isTemporaryID)
        XCTAssertTrue(movie.objectID.entity === movieEntity, "a temporary ID names the inserting model's entity")
        try context.save()
        XCTAssertFalse(movie.objectID.isTemporaryID)
        XCTAssertTrue(movie.objectID.entity === movieEntity, "so does the permanent ID the save gives")

        let reader = container.newBackgroundContext()
        let entity = movieEntity
        let fetched = try reader.performAndWait {
            let request = FetchRequest<ManagedObjectID>(entityName: "Movie")
            request.resultType = .managedObjectIDResultType
            return try reader.fetch(request)
        }
        XCTAssertEqual(fetched, [movie.objectID])
        XCTAssertTrue(fetched.allSatisfy { $0.entity === entity }, "and the IDs a fetch returns")
    }

    func testEachModelsIDsNameThatModelsEntityOfTheSameName() throws {
        let other = try makeContainer()
        let otherEntity = other.managedObjectModel.entitiesByName["Movie"]!
        XCTAssertFalse(otherEntity === movieEntity, "two models, two Movie entities")

        let mine = makeMovie("Heat")
        let theirs = makeMovie("Ran", in: other.viewContext)
        XCTAssertTrue(mine.objectID.entity === movieEntity)
        XCTAssertTrue(theirs.objectID.entity === otherEntity, "not the first model's Movie, though it has the name")
        XCTAssertNotEqual(mine.objectID, theirs.objectID)

        try context.save()
        try other.viewContext.save()
        XCTAssertTrue(mine.objectID.entity === movieEntity)
        XCTAssertTrue(theirs.objectID.entity === otherEntity)
    }

    func testAnIDCrossingToAnotherModelOfTheSameStoreIsNamedThere() throws {
        let url = try temporaryFolder().appendingPathComponent("Films.sqlite")
        let writer = try makeContainer(url: url)
        let movie = makeMovie("Heat", in: writer.viewContext)
        try writer.viewContext.save()
        let id = movie.objectID
        let reader = try makeContainer(url: url)
        let readerEntity = reader.managedObjectModel.entitiesByName["Movie"]!

        let object = reader.viewContext.object(with: id)
        XCTAssertEqual(object.objectID, id, "the same row of the same store: equal IDs, whichever model made them")
        XCTAssertEqual(object.objectID.hashValue, id.hashValue)
        XCTAssertTrue(object.objectID.entity === readerEntity, "the reader's object names the reader's entity")
        XCTAssertTrue(id.entity === writer.managedObjectModel.entitiesByName["Movie"]!, "the writer's ID keeps its own")

        let fromURI = try XCTUnwrap(reader.persistentStoreCoordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()))
        XCTAssertEqual(fromURI, id)
        XCTAssertTrue(fromURI.entity === readerEntity, "a URI comes back as the coordinator's own ID")
        XCTAssertNil(container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()),
                     "another store's coordinator has no such ID")
    }
}

