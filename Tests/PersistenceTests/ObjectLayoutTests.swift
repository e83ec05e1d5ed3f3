import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fetch allocates an object per row, so what an object weighs is part of what a fetch costs: its flags share a
/// byte, its values are one field, its row version 32 bits unless a store needs more, a `@Managed` ordinal one
/// byte, and an object with ten `@Managed` properties fits malloc's 96-byte size class.
final class ObjectLayoutTests: PersistenceTestCase {
    func testTheFaultStateAndEachFlagChangeIndependently() {
        var bits = ObjectStateBits(faultState: .faultWithoutRow)
        let flags: [ObjectStateBits.Flag] = [.inserted, .deleted, .holdsUnfittingValue, .inaccessible, .inUpdatedList, .inDeletedList]
        // Each flag on alone, then all on, with every fault state: nothing else moves.
        for state in [ManagedObject.FaultState.fired, .faultWithRow, .faultWithoutRow] {
            for flag in flags {
                bits[flag] = true
                bits.faultState = state
                XCTAssertEqual(bits.faultState, state)
                XCTAssertEqual(flags.filter { bits[$0] }, [flag])
                bits[flag] = false
            }
            for flag in flags { bits[flag] = true }
            bits.faultState = state
            XCTAssertEqual(bits.faultState, state)
            XCTAssertTrue(flags.allSatisfy { bits[$0] })
            for flag in flags { bits[flag] = false }
            XCTAssertEqual(bits.faultState, state)
        }
    }

    func testAnObjectWithTenManagedIntegersFitsA96ByteBlock() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Ten", managedObjectClass: Ten.self,
                              properties: (0..<10).map { .attribute("v\($0)", .integer64) }),
        ])
        let container = try makeContainer(model: model)
        let object = Ten(context: container.viewContext)
        let address = Unmanaged.passUnretained(object).toOpaque()
        let usable = try XCTUnwrap(Self.mallocUsableSize(address), "malloc reports no block sizes here")
        XCTAssertLessThanOrEqual(usable, 88, "a Ten should come from the 96-byte size class (usable \(usable))")
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

    func testAClassWithMoreThan255ManagedPropertiesIsRefusedByName() {
        let properties = (0..<256).map { PropertyDescription.attribute("p\($0)", .integer64) }
        XCTAssertThrowsError(try ManagedObjectModel(entities: [
            EntityDescription(name: "Wide", managedObjectClass: TooWide.self, properties: properties),
        ])) { error in
            let message = (error as? PersistenceError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("TooWide declares 256 @Managed properties; at most 255"), message)
        }
    }

    func testAClassWhoseOrdinalsSkipANumberIsRefusedByName() {
        // A stray Managed() made while the object initialises takes a number from the same counter.
        XCTAssertThrowsError(try ManagedObjectModel(entities: [
            EntityDescription(name: "Tangled", managedObjectClass: Tangled.self, properties: [
                .attribute("name", .string), .attribute("count", .integer64),
            ]),
        ])) { error in
            let message = (error as? PersistenceError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("the @Managed properties of Tangled could not be numbered in declaration "
                + "order (ordinals [0, 2])"), message)
        }
    }

    func testObjectsLeaveTheUpdatedAndDeletedListsOneByOne() throws {
        let movies = (0..<100).map { makeMovie("m\($0)", year: $0) }
        try context.save()
        for movie in movies { movie.year += 1000 }
        for movie in movies[0..<40] { context.delete(movie) }
        XCTAssertEqual(context.updatedObjects.count, 60, "deleted objects are not reported as updated")
        XCTAssertEqual(context.deletedObjects.count, 40)
        // Undo some deletes (the deleted list loses them one by one), then refresh some changes away.
        for movie in movies[0..<10] { context.insert(movie) }
        XCTAssertEqual(context.deletedObjects.count, 30)
        XCTAssertFalse(context.deletedObjects.contains(movies[3]))
        for movie in movies[50..<70] { context.refresh(movie, mergeChanges: false) }
        XCTAssertEqual(context.updatedObjects.count, 50)
        XCTAssertFalse(context.updatedObjects.contains(movies[55]))
        movies[55].year = 1
        XCTAssertTrue(context.updatedObjects.contains(movies[55]), "an object can join the list again")
        try context.save()
        XCTAssertEqual(try storedCount("Movie"), 70)
        XCTAssertEqual(try storedCount("Movie", "year == 1"), 1)
        XCTAssertFalse(context.hasChanges)
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

/// 256 @Managed properties: one more than a class may have.
private final class Tangled: ManagedObject {
    @Managed var name: String
    let stray = Managed<Int>()
    @Managed var count: Int
}

private final class TooWide: ManagedObject {
    @Managed var p0: Int; @Managed var p1: Int; @Managed var p2: Int; @Managed var p3: Int; @Managed var p4: Int; @Managed var p5: Int; @Managed var p6: Int; @Managed var p7: Int; @Managed var p8: Int; @Managed var p9: Int; @Managed var p10: Int; @Managed var p11: Int; @Managed var p12: Int; @Managed var p13: Int; @Managed var p14: Int; @Managed var p15: Int
    @Managed var p16: Int; @Managed var p17: Int; @Managed var p18: Int; @Managed var p19: Int; @Managed var p20: Int; @Managed var p21: Int; @Managed var p22: Int; @Managed var p23: Int; @Managed var p24: Int; @Managed var p25: Int; @Managed var p26: Int; @Managed var p27: Int; @Managed var p28: Int; @Managed var p29: Int; @Managed var p30: Int; @Managed var p31: Int
    @Managed var p32: Int; @Managed var p33: Int; @Managed var p34: Int; @Managed var p35: Int; @Managed var p36: Int; @Managed var p37: Int; @Managed var p38: Int; @Managed var p39: Int; @Managed var p40: Int; @Managed var p41: Int; @Managed var p42: Int; @Managed var p43: Int; @Managed var p44: Int; @Managed var p45: Int; @Managed var p46: Int; @Managed var p47: Int
    @Managed var p48: Int; @Managed var p49: Int; @Managed var p50: Int; @Managed var p51: Int; @Managed var p52: Int; @Managed var p53: Int; @Managed var p54: Int; @Managed var p55: Int; @Managed var p56: Int; @Managed var p57: Int; @Managed var p58: Int; @Managed var p59: Int; @Managed var p60: Int; @Managed var p61: Int; @Managed var p62: Int; @Managed var p63: Int
    @Managed var p64: Int; @Managed var p65: Int; @Managed var p66: Int; @Managed var p67: Int; @Managed var p68: Int; @Managed var p69: Int; @Managed var p70: Int; @Managed var p71: Int; @Managed var p72: Int; @Managed var p73: Int; @Managed var p74: Int; @Managed var p75: Int; @Managed var p76: Int; @Managed var p77: Int; @Managed var p78: Int; @Managed var p79: Int
    @Managed var p80: Int; @Managed var p81: Int; @Managed var p82: Int; @Managed var p83: Int; @Managed var p84: Int; @Managed var p85: Int; @Managed var p86: Int; @Managed var p87: Int; @Managed var p88: Int; @Managed var p89: Int; @Managed var p90: Int; @Managed var p91: Int; @Managed var p92: Int; @Managed var p93: Int; @Managed var p94: Int; @Managed var p95: Int
    @Managed var p96: Int; @Managed var p97: Int; @Managed var p98: Int; @Managed var p99: Int; @Managed var p100: Int; @Managed var p101: Int; @Managed var p102: Int; @Managed var p103: Int; @Managed var p104: Int; @Managed var p105: Int; @Managed var p106: Int; @Managed var p107: Int; @Managed var p108: Int; @Managed var p109: Int; @Managed var p110: Int; @Managed var p111: Int
    @Managed var p112: Int; @Managed var p113: Int; @Managed var p114: Int; @Managed var p115: Int; @Managed var p116: Int; @Managed var p117: Int; @Managed var p118: Int; @Managed var p119: Int; @Managed var p120: Int; @Managed var p121: Int; @Managed var p122: Int; @Managed var p123: Int; @Managed var p124: Int; @Managed var p125: Int; @Managed var p126: Int; @Managed var p127: Int
    @Managed var p128: Int; @Managed var p129: Int; @Managed var p130: Int; @Managed var p131: Int; @Managed var p132: Int; @Managed var p133: Int; @Managed var p134: Int; @Managed var p135: Int; @Managed var p136: Int; @Managed var p137: Int; @Managed var p138: Int; @Managed var p139: Int; @Managed var p140: Int; @Managed var p141: Int; @Managed var p142: Int; @Managed var p143: Int
    @Managed var p144: Int; @Managed var p145: Int; @Managed var p146: Int; @Managed var p147: Int; @Managed var p148: Int; @Managed var p149: Int; @Managed var p150: Int; @Managed var p151: Int; @Managed var p152: Int; @Managed var p153: Int; @Managed var p154: Int; @Managed var p155: Int; @Managed var p156: Int; @Managed var p157: Int; @Managed var p158: Int; @Managed var p159: Int
    @Managed var p160: Int; @Managed var p161: Int; @Managed var p162: Int; @Managed var p163: Int; @Managed var p164: Int; @Managed var p165: Int; @Managed var p166: Int; @Managed var p167: Int; @Managed var p168: Int; @Managed var p169: Int; @Managed var p170: Int; @Managed var p171: Int; @Managed var p172: Int; @Managed var p173: Int; @Managed var p174: Int; @Managed var p175: Int
    @Managed var p176: Int; @Managed var p177: Int; @Managed var p178: Int; @Managed var p179: Int; @Managed var p180: Int; @Managed var p181: Int; @Managed var p182: Int; @Managed var p183: Int; @Managed var p184: Int; @Managed var p185: Int; @Managed var p186: Int; @Managed var p187: Int; @Managed var p188: Int; @Managed var p189: Int; @Managed var p190: Int; @Managed var p191: Int
    @Managed var p192: Int; @Managed var p193: Int; @Managed var p194: Int; @Managed var p195: Int; @Managed var p196: Int; @Managed var p197: Int; @Managed var p198: Int; @Managed var p199: Int; @Managed var p200: Int; @Managed var p201: Int; @Managed var p202: Int; @Managed var p203: Int; @Managed var p204: Int; @Managed var p205: Int; @Managed var p206: Int; @Managed var p207: Int
    @Managed var p208: Int; @Managed var p209: Int; @Managed var p210: Int; @Managed var p211: Int; @Managed var p212: Int; @Managed var p213: Int; @Managed var p214: Int; @Managed var p215: Int; @Managed var p216: Int; @Managed var p217: Int; @Managed var p218: Int; @Managed var p219: Int; @Managed var p220: Int; @Managed var p221: Int; @Managed var p222: Int; @Managed var p223: Int
    @Managed var p224: Int; @Managed var p225: Int; @Managed var p226: Int; @Managed var p227: Int; @Managed var p228: Int; @Managed var p229: Int; @Managed var p230: Int; @Managed var p231: Int; @Managed var p232: Int; @Managed var p233: Int; @Managed var p234: Int; @Managed var p235: Int; @Managed var p236: Int; @Managed var p237: Int; @Managed var p238: Int; @Managed var p239: Int
    @Managed var p240: Int; @Managed var p241: Int; @Managed var p242: Int; @Managed var p243: Int; @Managed var p244: Int; @Managed var p245: Int; @Managed var p246: Int; @Managed var p247: Int; @Managed var p248: Int; @Managed var p249: Int; @Managed var p250: Int; @Managed var p251: Int; @Managed var p252: Int; @Managed var p253: Int; @Managed var p254: Int; @Managed var p255: Int
}
