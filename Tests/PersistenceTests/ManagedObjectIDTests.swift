import XCTest
@testable import Persistence

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
}
