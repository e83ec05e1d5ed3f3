import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
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
        XCTAssertNil(fault.value(forKey: "title"), "an inaccessible fault reads nil")
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

/// Counts its `awakeFromFetch` calls: a fault that was never filled has not awoken.
final class AwakeningNote: ManagedObject {
    @Managed var text: String
    private(set) var awakenings = 0

    override func awakeFromFetch() {
        super.awakeFromFetch()
        awakenings += 1
    }

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", managedObjectClass: AwakeningNote.self, properties: [.attribute("text", .string)]),
        ])
    }
}

/// `existingObject(with:)` never returns a fault, however the context knew the object before.
final class ExistingObjectTests: PersistenceTestCase {
    private func savedNote(in container: PersistentContainer) throws -> ManagedObjectID {
        let note = AwakeningNote(context: container.viewContext)
        note.text = "kept"
        try container.viewContext.save()
        return note.objectID
    }

    private func assertFired(_ object: ManagedObject, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(object.isFault, "existingObject(with:) returned a fault", file: file, line: line)
        XCTAssertEqual((object as? AwakeningNote)?.awakenings, 1, "awakeFromFetch ran once, before it was returned", file: file, line: line)
        XCTAssertEqual((object as? AwakeningNote)?.text, "kept", file: file, line: line)
        XCTAssertEqual((object as? AwakeningNote)?.awakenings, 1, "reading a value does not awake it again", file: file, line: line)
    }

    func testAnObjectNotRegisteredComesBackFilled() throws {
        let container = try makeContainer(model: AwakeningNote.model())
        let id = try savedNote(in: container)
        let reader = container.newBackgroundContext()
        try reader.performAndWait { assertFired(try reader.existingObject(with: id)) }
    }

    func testAFetchedFaultComesBackFilled() throws {
        let container = try makeContainer(model: AwakeningNote.model())
        let id = try savedNote(in: container)
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let request = FetchRequest<AwakeningNote>(entityName: "Note")
            request.returnsObjectsAsFaults = true
            let fetched = try XCTUnwrap(reader.fetch(request).first)
            XCTAssertTrue(fetched.isFault)
            let existing = try reader.existingObject(with: id)
            XCTAssertTrue(existing === fetched)
            assertFired(existing)
        }
    }

    func testAFaultFromObjectWithComesBackFilled() throws {
        let container = try makeContainer(model: AwakeningNote.model())
        let id = try savedNote(in: container)
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let fault = reader.object(with: id)
            XCTAssertTrue(fault.isFault)
            let existing = try reader.existingObject(with: id)
            XCTAssertTrue(existing === fault)
            assertFired(existing)
        }
    }

    func testAChildReadingThroughItsParentGetsAFilledObject() throws {
        let container = try makeContainer(model: AwakeningNote.model())
        let id = try savedNote(in: container)
        let child = ManagedObjectContext(.privateQueue)
        child.parent = container.viewContext
        try child.performAndWait { assertFired(try child.existingObject(with: id)) }
    }
}
