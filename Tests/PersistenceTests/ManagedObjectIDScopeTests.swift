import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// The scopes IDs point at: they name their entity only while it exists, without keeping it alive — and without a
/// weak reference, whose side table would slow every retain and release of the entity.
final class ManagedObjectIDScopeTests: XCTestCase {
    func testAScopeLetsGoOfItsEntityWhenTheEntityGoes() throws {
        var entity: EntityDescription? = EntityDescription(name: "Comet", properties: [.attribute("name", .string)])
        let temporary: ManagedObjectID.Scope = try XCTUnwrap(entity).temporaryIDScope
        let permanent = try XCTUnwrap(entity).idScope(store: "S", temporary: false)
        XCTAssertTrue(temporary.entity === entity)
        XCTAssertTrue(permanent.entity === entity)
        weak let gone = entity
        entity = nil
        XCTAssertNil(gone, "a scope does not keep its entity alive")
        XCTAssertNil(temporary.entity, "the entity told its scopes it went")
        XCTAssertNil(permanent.entity)
        XCTAssertTrue(permanent.isMadeForEntity)
    }
}
