import Foundation
@testable import Persistence
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fetch allocates an object per row, so what an object weighs is part of what a fetch costs: its flags share a
/// byte, its values are one field, its row version 32 bits unless a store needs more, and an object with ten
/// `@Managed` properties fits malloc's 112-byte size class.
final class ObjectLayoutTests: PersistenceTestCase {
    func testTheFaultStateAndEachFlagChangeIndependently() {
        var bits = ObjectStateBits(faultState: .faultWithoutRow)
        bits.isInserted = true
        bits.isInaccessible = true
        XCTAssertEqual(bits.faultState, .faultWithoutRow)
        bits.faultState = .fired
        XCTAssertTrue(bits.isInserted)
        XCTAssertFalse(bits.isDeleted)
        XCTAssertFalse(bits.holdsUnfittingValue)
        XCTAssertTrue(bits.isInaccessible)
        bits.isDeleted = true
        bits.holdsUnfittingValue = true
        bits.isInserted = false
        bits.faultState = .faultWithRow
        XCTAssertEqual(bits.faultState, .faultWithRow)
        XCTAssertFalse(bits.isInserted)
        XCTAssertTrue(bits.isDeleted)
        XCTAssertTrue(bits.holdsUnfittingValue)
        XCTAssertTrue(bits.isInaccessible)
        for state in [ManagedObject.FaultState.fired, .faultWithRow, .faultWithoutRow] {
            bits.faultState = state
            XCTAssertEqual(bits.faultState, state)
        }
    }

    func testAnObjectWithTenManagedIntegersFitsA112ByteBlock() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Ten", managedObjectClass: Ten.self,
                              properties: (0..<10).map { .attribute("v\($0)", .integer64) }),
        ])
        let container = try makeContainer(model: model)
        let object = Ten(context: container.viewContext)
        let address = Unmanaged.passUnretained(object).toOpaque()
        let usable = try XCTUnwrap(Self.mallocUsableSize(address), "malloc reports no block sizes here")
        XCTAssertLessThanOrEqual(usable, 104, "a Ten should come from the 112-byte size class (usable \(usable))")
        object.v9 = 9
        XCTAssertEqual(object.v9, 9)
    }

    func testARowVersionBeyond32BitsIsKeptAndCheckedAtSave() throws {
        let sample = Sample(context: context)
        sample.large = 1
        try context.save()
        let wide: Int64 = 5_000_000_000
        _ = try storeRows("UPDATE ZSAMPLE SET Z_OPT = \(wide)")
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let stored = try XCTUnwrap(try reader.fetch(Sample.fetchRequest()).first)
            XCTAssertEqual(stored.version, wide)
            stored.large = 2
            XCTAssertEqual(stored.version, wide, "a change keeps the version it was read with")
            try reader.save()
            XCTAssertEqual(stored.version, wide + 1)
        }
        XCTAssertEqual(try storedVersion(of: sample.objectID), wide + 1)
        // The first context still holds version 1: its change is a conflict, as with any stale version.
        sample.large = 3
        assertPersistenceError(.managedObjectMerge) { try context.save() }
    }

    func testAVersionThatFitsAgainLeavesNothingBehind() {
        let object = ManagedObject(entity: EntityDescription(name: "Loose", properties: []), insertInto: nil)
        object.version = Int64(Int32.max) + 1
        XCTAssertEqual(object.version, Int64(Int32.max) + 1)
        XCTAssertNotNil(object.extras)
        object.version = 7
        XCTAssertEqual(object.version, 7)
        object.markClean()
        XCTAssertNil(object.extras, "the object is back to its small size")
        object.version = Int64(Int32.min)
        XCTAssertEqual(object.version, Int64(Int32.min), "the mark's own value is kept as a wide version")
    }

    /// The size of the malloc block at `address` (`malloc_usable_size` with glibc, `malloc_size` on Apple
    /// platforms), found at run time since no Swift module exports it.
    private static func mallocUsableSize(_ address: UnsafeMutableRawPointer) -> Int? {
        typealias SizeFunction = @convention(c) (UnsafeMutableRawPointer) -> Int
        let process = dlopen(nil, RTLD_NOW)
        for name in ["malloc_usable_size", "malloc_size"] {
            guard let symbol = dlsym(process, name) else { continue }
            return unsafeBitCast(symbol, to: SizeFunction.self)(address)
        }
        return nil
    }
}

private final class Ten: ManagedObject {
    @Managed var v0: Int
    @Managed var v1: Int
    @Managed var v2: Int
    @Managed var v3: Int
    @Managed var v4: Int
    @Managed var v5: Int
    @Managed var v6: Int
    @Managed var v7: Int
    @Managed var v8: Int
    @Managed var v9: Int
}
