import XCTest
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence

final class ManagedObjectIDTests: XCTestCase {
    func testPermanentURIRoundTrips() throws {
        let id = ManagedObjectID.permanent(entityName: "Movie", storeIdentifier: "ABC-123", primaryKey: 42)
        XCTAssertEqual(id.uriRepresentation().absoluteString, "x-coredata://ABC-123/Movie/p42")
        XCTAssertEqual(ManagedObjectID(uriRepresentation: id.uriRepresentation()), id)
        XCTAssertFalse(id.isTemporaryID)
    }

    func testTemporaryURIRoundTripsAndDiffersFromEveryOther() throws {
        let a = ManagedObjectID.temporary(entityName: "Movie")
        let b = ManagedObjectID.temporary(entityName: "Movie")
        XCTAssertTrue(a.isTemporaryID)
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(ManagedObjectID(uriRepresentation: a.uriRepresentation()), a)
    }

    func testMalformedURIsAreRejected() {
        for text in ["http://x/Movie/p1", "x-coredata://S/Movie/q1", "x-coredata://S/Movie/p0", "x-coredata://S/p1"] {
            XCTAssertNil(ManagedObjectID(uriRepresentation: URL(string: text)!), text)
        }
    }

    func testSetsOfManyIDsAndObjectsFindEachMember() {
        // Sets and dictionaries hash IDs and objects with a cheap hash of their own; it must still tell them apart.
        let ids = (1...20_000).map { ManagedObjectID.permanent(entityName: "Movie", storeIdentifier: "S", primaryKey: Int64($0)) }
        let others = (1...20_000).map { ManagedObjectID.permanent(entityName: "Actor", storeIdentifier: "S", primaryKey: Int64($0)) }
        let set = Set(ids)
        XCTAssertEqual(set.count, 20_000)
        XCTAssertTrue(ids.allSatisfy(set.contains))
        XCTAssertFalse(others.contains(where: set.contains), "same keys of another entity are other IDs")
        XCTAssertEqual(Set(ids + others).count, 40_000)
        var byID: [ManagedObjectID: Int] = [:]
        for (position, id) in ids.enumerated() { byID[id] = position }
        XCTAssertEqual(byID[ids[12_345]], 12_345)

        let objects = (0..<5_000).map { _ in ManagedObject(entity: EntityDescription(name: "Loose", properties: []), insertInto: nil) }
        let objectSet = Set(objects)
        XCTAssertEqual(objectSet.count, 5_000)
        XCTAssertTrue(objects.allSatisfy(objectSet.contains))
        XCTAssertFalse(objectSet.contains(ManagedObject(entity: EntityDescription(name: "Loose", properties: []), insertInto: nil)))
    }
}
