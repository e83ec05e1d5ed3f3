import Foundation
@_spi(TestHarness) @testable import Persistence
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
                let request: FetchRequest<Movie> = Movie.fetchRequest()
                request.sortDescriptors = [FetchSortDescriptor(keyPath: \Movie.year, ascending: ascending)]
                let movies = try reader.fetch(request)
                let expected: [(key: Int64, version: Int64, title: String)] = [(nearKey, 1, "Near"), (farKey, wideVersion, "Far")]
                let ordered = ascending ? expected : expected.reversed()
                XCTAssertEqual(movies.map(\.objectID.primaryKey), ordered.map(\.key))
                XCTAssertEqual(movies.map(\.version), ordered.map(\.version))
                XCTAssertEqual(movies.map(\.title), ordered.map(\.title))
            }
        }
    }

    func testRowsThatDidNotFitTheLayoutComeBackInTheirPlaces() throws {
        // Rows 0…39 of the fetch, packed into growing blocks, except rows 0, 5, 6, 17 and 39, which did not fit.
        let entity = try XCTUnwrap(container.managedObjectModel.entitiesByName["Movie"])
        let layout = try XCTUnwrap(entity.packedLayout)
        let unpackedKeys: Set<Int64> = [100, 105, 106, 117, 139]
        var fetched = FetchedPackedRows(bytesPerObject: 16)
        var allocator = PackedRowAllocator(firstBlockSize: 4)
        for key in Int64(100)..<140 {
            if unpackedKeys.contains(key) {
                fetched.appendUnpacked(StoreRow(entity: entity, primaryKey: key, version: 1, slots: []))
            } else {
                let (block, row) = allocator.nextUnretainedRow(for: layout)
                fetched.appendPacked(block: block, row: row, primaryKey: key, version: 1)
            }
        }
        XCTAssertGreaterThan(fetched.blocks.count, 2)
        var handed: [(key: Int64, packed: Bool)] = []
        fetched.consumeInOrder(packed: { block, row in handed.append((block.key(at: row), true)) },
                               unpacked: { handed.append(($0.primaryKey, false)) })
        XCTAssertEqual(handed.map(\.key), Array(100..<140))
        XCTAssertEqual(handed.filter { !$0.packed }.map(\.key), unpackedKeys.sorted())
        XCTAssertTrue(fetched.blocks.allSatisfy { $0.keyOffsets.isEmpty && $0.room.isEmpty }, "each block let go of its buffers")
    }
}
