import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// The hashes sets and dictionaries use for objects and IDs (`_rawHashValue(seed:)`, see `fastHash`): one
/// multiplication instead of SipHash, so they must still spread keys over a table's buckets and follow its seed.
final class FastHashTests: PersistenceTestCase {
    /// Buckets of a 1,024-slot table that `hashes` reach.
    private func bucketsUsed(_ hashes: [Int]) -> Int {
        Set(hashes.map { $0 & 1023 }).count
    }

    func testObjectsSpreadOverATablesLowBitsAlthoughTheirAddressesAreAligned() {
        let movies = (0..<10_000).map { makeMovie("M\($0)") }
        // Addresses are multiples of 16: without folding the high bits down, only 1 bucket in 16 would be used.
        let used = bucketsUsed(movies.map { $0._rawHashValue(seed: 0x5EED) })
        XCTAssertGreaterThan(used, 950, "10,000 objects reach only \(used) of 1,024 buckets")
        XCTAssertEqual(Set(movies).count, 10_000)
        XCTAssertTrue(Set(movies.prefix(10)).contains(movies[3]))
        XCTAssertFalse(Set(movies.prefix(10)).contains(movies[10]))
    }

    func testIDsOfConsecutiveKeysSpreadAndEqualIDsHashEqually() throws {
        let movies = (0..<5_000).map { makeMovie("M\($0)") }
        try context.save()
        let ids = movies.map(\.objectID)
        XCTAssertGreaterThan(bucketsUsed(ids.map { $0._rawHashValue(seed: 42) }), 900)
        let again = try context.existingObject(with: ids[17]).objectID
        XCTAssertEqual(again._rawHashValue(seed: 7), ids[17]._rawHashValue(seed: 7))
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })[again], 17)
    }

    func testTheSeedChangesTheHash() {
        let movie = makeMovie("Alien")
        let seeds = [0, 1, 2, 0x5EED, -1, Int.max]
        XCTAssertEqual(Set(seeds.map { movie._rawHashValue(seed: $0) }).count, seeds.count)
        XCTAssertEqual(movie._rawHashValue(seed: 3), movie._rawHashValue(seed: 3))
    }
}
