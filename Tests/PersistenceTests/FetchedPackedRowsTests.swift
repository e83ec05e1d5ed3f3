import Foundation
@testable import Persistence
import XCTest

/// A fetch's packed rows keep their keys and versions in 32 bits where they fit (see `FetchedPackedRows`): keys and
/// versions that do not fit come back whole.
final class FetchedPackedRowsTests: PersistenceTestCase {
    func testKeysAndVersionsBeyondThirtyTwoBitsComeBackWhole() throws {
        let near = makeMovie("Near", year: 1)
        let far = makeMovie("Far", year: 2)
        try context.save()
        XCTAssertNotNil(near.entity.packedLayout, "Movie's rows are fetched packed")
        let nearKey = try XCTUnwrap(near.objectID.primaryKey)
        let farKey: Int64 = 1 << 40
        let wideVersion: Int64 = 1 << 33
        try container.persistentStoreCoordinator.withStore { store in
            try store.connection.execute("UPDATE ZMOVIE SET Z_PK = \(farKey), Z_OPT = \(wideVersion) WHERE Z_PK = \(far.objectID.primaryKey!)")
        }
        for ascending in [true, false] {
            let reader = container.newBackgroundContext()
            try reader.performAndWait {
                let request = Movie.fetchRequest()
                request.sortDescriptors = [FetchSortDescriptor(\Movie.year, ascending: ascending)]
                let movies = try reader.fetch(request)
                let expected: [(key: Int64, version: Int64, title: String)] = [(nearKey, 1, "Near"), (farKey, wideVersion, "Far")]
                let ordered = ascending ? expected : expected.reversed()
                XCTAssertEqual(movies.map(\.objectID.primaryKey), ordered.map(\.key))
                XCTAssertEqual(movies.map(\.version), ordered.map(\.version))
                XCTAssertEqual(movies.map(\.title), ordered.map(\.title))
            }
        }
    }
}
