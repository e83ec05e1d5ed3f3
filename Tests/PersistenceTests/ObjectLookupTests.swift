import Foundation
@testable import Persistence
import XCTest

final class ObjectLookupTests: PersistenceTestCase {
    func testObjectWithReturnsTheRegisteredObjectOrAFault() throws {
        let movie = makeMovie("Alien")
        try context.save()
        XCTAssertTrue(context.object(with: movie.objectID) === movie)

        let other = container.newBackgroundContext()
        other.performAndWait {
            let fault = other.object(with: movie.objectID)
            XCTAssertTrue(fault.isFault)
            XCTAssertEqual((fault as? Movie)?.title, "Alien")
            XCTAssertFalse(fault.isFault)
        }
    }

    func testExistingObjectThrowsForADeletedRow() throws {
        let movie = makeMovie("Gone")
        try context.save()
        let id = movie.objectID
        context.delete(movie)
        try context.save()
        let error = assertPersistenceError(.managedObjectReferentialIntegrity) { _ = try context.existingObject(with: id) }
        XCTAssertEqual(error?.objectID, id)
    }

    func testObjectWithForAMissingRowReadsAsDeleted() throws {
        let movie = makeMovie("Gone")
        try context.save()
        let id = movie.objectID
        context.delete(movie)
        try context.save()
        let fault = context.object(with: id)
        XCTAssertTrue(fault.isFault)
        XCTAssertEqual((fault as? Movie)?.title, "", "an inaccessible fault reads empty")
        XCTAssertTrue(fault.isDeleted)
    }

    func testRegisteredObjectNeverReadsTheStore() throws {
        let movie = makeMovie("Alien")
        try context.save()
        let other = container.newBackgroundContext()
        other.performAndWait { XCTAssertNil(other.registeredObject(for: movie.objectID)) }
    }

    func testURIsRoundTripThroughTheCoordinator() throws {
        let movie = makeMovie("Alien")
        try context.save()
        let uri = movie.objectID.uriRepresentation()
        XCTAssertEqual(container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri), movie.objectID)
        let foreign = try makeContainer()
        XCTAssertNil(foreign.persistentStoreCoordinator.managedObjectID(forURIRepresentation: uri), "another store's ID")
        XCTAssertNil(container.persistentStoreCoordinator.managedObjectID(forURIRepresentation: URL(string: "x-coredata://nope/Nothing/p1")!))
    }

    func testTemporaryIDsAreNotFoundByOtherContexts() throws {
        let movie = makeMovie("Unsaved")
        let other = container.newBackgroundContext()
        try other.performAndWait {
            XCTAssertThrowsError(try other.existingObject(with: movie.objectID))
        }
    }
}
