import Foundation
@testable import Persistence
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fetch allocates an object per row, so what an object weighs is part of what a fetch costs: its flags share a
/// byte, and an object with ten `@Managed` properties fits malloc's 128-byte size class.
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

    func testAnObjectWithTenManagedIntegersFitsA128ByteBlock() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Ten", managedObjectClass: Ten.self,
                              properties: (0..<10).map { .attribute("v\($0)", .integer64) }),
        ])
        let container = try makeContainer(model: model)
        let object = Ten(context: container.viewContext)
        let address = Unmanaged.passUnretained(object).toOpaque()
        let usable = try XCTUnwrap(Self.mallocUsableSize(address), "malloc reports no block sizes here")
        XCTAssertLessThanOrEqual(usable, 120, "a Ten should come from the 128-byte size class (usable \(usable))")
        object.v9 = 9
        XCTAssertEqual(object.v9, 9)
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
