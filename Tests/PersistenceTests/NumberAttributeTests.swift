import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Optional numbers and Booleans are `NSNumber?`, as on Apple platforms, where `@NSManaged var x: Double?` does not
/// compile: they round-trip with nil, filter and sort as before, are stored as the attribute's type, and a number the
/// attribute cannot hold fails the save. `Sample` declares its number attributes `NSNumber?`.
final class NumberAttributeTests: PersistenceTestCase {
    /// The saved samples, fetched anew by another context, sorted by text, handed to `body` on that context's queue.
    private func withStoredSamples(_ body: ([Sample]) throws -> Void) throws {
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let request: FetchRequest<Sample> = Sample.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "text", ascending: true)]
            try body(try reader.fetch(request))
        }
    }

    private func cType(_ number: NSNumber?) -> String? { number.map { String(cString: $0.objCType) } }

    func testEveryNumberTypeRoundTripsThroughTheStoreNilIncluded() throws {
        let full = Sample(context: context)
        full.text = "full"
        full.small = NSNumber(value: Int16.min)
        full.medium = NSNumber(value: Int32.max)
        full.large = NSNumber(value: Int64.min)
        full.real = NSNumber(value: -0.1)
        full.single = NSNumber(value: Float(1.5))
        full.flag = true
        let cleared = Sample(context: context)
        cleared.text = "cleared"
        cleared.large = 5
        cleared.flag = false
        let empty = Sample(context: context)
        empty.text = "empty"
        try context.save()
        cleared.large = nil
        cleared.flag = nil
        try context.save()

        try withStoredSamples { samples in
            XCTAssertEqual(samples.map(\.text), ["cleared", "empty", "full"])
            let stored = samples[2]
            XCTAssertEqual(stored.small?.int16Value, Int16.min)
            XCTAssertEqual(stored.medium?.int32Value, Int32.max)
            XCTAssertEqual(stored.large?.int64Value, Int64.min)
            XCTAssertEqual(stored.real?.doubleValue, -0.1)
            XCTAssertEqual(stored.single?.floatValue, 1.5)
            XCTAssertEqual(stored.flag?.boolValue, true)
            // What comes back is a number of the attribute's kind, whatever it was written as.
            XCTAssertEqual(cType(stored.real), "d")
            XCTAssertEqual(cType(stored.large), "q")
            XCTAssertEqual(stored.flag, NSNumber(value: true))
            for sample in samples.prefix(2) {
                for (key, value) in [("small", sample.small), ("medium", sample.medium), ("large", sample.large),
                                     ("real", sample.real), ("single", sample.single), ("flag", sample.flag)] {
                    XCTAssertNil(value, "\(sample.text ?? "").\(key) should read nil")
                }
            }
        }
    }

    func testPredicatesAndSortsOnNumberPropertiesWork() throws {
        var samples: [String: Sample] = [:]
        for (text, real, flag) in [("a", 2.5, true), ("b", nil, false), ("c", -1, nil), ("d", 10, true)] as [(String, Double?, Bool?)] {
            let sample = Sample(context: context)
            samples[text] = sample
            sample.text = text
            sample.real = real.map(NSNumber.init(value:))
            sample.flag = flag.map(NSNumber.init(value:))
            sample.large = real.map { NSNumber(value: Int64($0 * 10)) }
        }
        try context.save()
        let request: FetchRequest<Sample> = Sample.fetchRequest()
        request.predicate = FetchPredicate(format: "real > %@", NSNumber(value: 0))
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Sample.real, ascending: false)]
        XCTAssertEqual(try context.fetch(request).map(\.text), ["d", "a"])
        request.predicate = FetchPredicate(format: "flag == YES AND large >= 25")
        XCTAssertEqual(try context.fetch(request).map(\.text), ["d", "a"])
        request.predicate = FetchPredicate(format: "real == nil OR flag == nil")
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Sample.large, ascending: true)]
        XCTAssertEqual(try context.fetch(request).map(\.text), ["b", "c"], "nil sorts first, as in SQLite")
        // Evaluated in memory, the same.
        let negative = try XCTUnwrap(samples["c"])
        XCTAssertTrue(FetchPredicate(format: "real < 0").evaluate(with: negative))
        XCTAssertFalse(FetchPredicate(format: "real > 0").evaluate(with: negative))
    }

    func testANumberIsStoredAsTheAttributesType() throws {
        let sample = Sample(context: context)
        sample.real = 3                        // an integer NSNumber into a double attribute
        sample.flag = NSNumber(value: 1)       // an integer 1 into a Boolean attribute
        sample.small = true                    // a Boolean into an integer attribute
        sample.single = NSNumber(value: 0.25)  // a double into a float attribute
        try context.save()
        XCTAssertEqual(try storeRows("SELECT ZREAL, ZFLAG, ZSMALL, ZSINGLE FROM ZSAMPLE"),
                       [[.real(3), .integer(1), .integer(1), .real(0.25)]])
        try withStoredSamples { samples in
            let stored = try XCTUnwrap(samples.first)
            XCTAssertEqual(cType(stored.real), "d")
            XCTAssertEqual(stored.flag, NSNumber(value: true))
            XCTAssertEqual(stored.small, 1)
            XCTAssertEqual(stored.value(forKey: "flag") as? Bool, true)
        }
    }

    /// Core Data does not document what it does with a number its attribute cannot hold exactly; the stricter
    /// reading: it is kept as given, and the save fails with a validation error naming it, as a Swift value of the
    /// wrong type does.
    func testANumberTheAttributeCannotHoldFailsTheSave() throws {
        let cases: [(key: String, number: NSNumber, stored: PersistentValue)] = [
            ("large", NSNumber(value: 2.5), .double(2.5)),
            ("large", NSNumber(value: 2.0), .double(2)),
            ("flag", NSNumber(value: 2), .integer(2)),
            ("small", NSNumber(value: 70_000), .integer(70_000)),
            ("medium", NSNumber(value: UInt64.max), .decimal(Decimal(UInt64.max))),
        ]
        for (key, number, stored) in cases {
            let sample = Sample(context: context)
            switch key {
            case "large": sample.large = number
            case "flag": sample.flag = number
            case "small": sample.small = number
            default: sample.medium = number
            }
            let error = assertPersistenceError(.managedObjectValidation) { try context.save() }
            XCTAssertEqual(error?.key, key, "\(number) in \(key)")
            XCTAssertEqual(error?.value, stored, "\(number) in \(key)")
            context.rollback()
        }
        XCTAssertEqual(try storedCount("Sample"), 0)
    }

    func testTheModelCheckAcceptsNSNumberForNumbersAndBooleansOnly() throws {
        final class Scored: ManagedObject {
            @Managed var score: NSNumber?
        }
        for type in [AttributeType.integer16, .integer32, .integer64, .double, .float, .boolean] {
            XCTAssertNoThrow(try ManagedObjectModel(entities: [
                EntityDescription(name: "Scored", managedObjectClass: Scored.self, properties: [.attribute("score", type)]),
            ]), "\(type)")
        }
        for type in [AttributeType.string, .decimal, .date] {
            XCTAssertThrowsError(try ManagedObjectModel(entities: [
                EntityDescription(name: "Scored", managedObjectClass: Scored.self, properties: [.attribute("score", type)]),
            ])) { error in
                let message = (error as? PersistenceError)?.message ?? "\(error)"
                XCTAssertTrue(message.contains("Scored.score is declared as attribute (integer16 or integer32 or "
                    + "integer64 or double or float or boolean) but the model says attribute of type \(type.rawValue)"),
                              message)
            }
        }
    }

    /// Xcode generates `NSDecimalNumber?` for a decimal attribute without a Swift type of its own; the subclass of
    /// NSNumber stands for decimal attributes only.
    func testNSDecimalNumberStandsForADecimalAttribute() throws {
        final class Priced: ManagedObject {
            @Managed var price: NSDecimalNumber?
        }
        XCTAssertThrowsError(try ManagedObjectModel(entities: [
            EntityDescription(name: "Priced", managedObjectClass: Priced.self, properties: [.attribute("price", .double)]),
        ]))
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Priced", managedObjectClass: Priced.self, properties: [.attribute("price", .decimal)]),
        ])
        let store = try makeContainer(model: model)
        let priced = Priced(context: store.viewContext)
        priced.price = NSDecimalNumber(string: "19.99")
        try store.viewContext.save()
        store.viewContext.reset()
        let request = FetchRequest<Priced>(entityName: "Priced")
        let stored = try XCTUnwrap(try store.viewContext.fetch(request).first)
        XCTAssertEqual(stored.price, NSDecimalNumber(string: "19.99"))
        stored.price = nil
        try store.viewContext.save()
        XCTAssertNil(stored.price)
    }

    /// `@Managed var x: Double?` must not compile, as `@NSManaged var x: Double?` does not. The compiler is run on
    /// declarations against the Persistence module beside this test executable: once with the optional numbers,
    /// which each fail with the message that names the fix, once with what to write instead, which compiles.
    func testAnOptionalSwiftNumberIsACompileError() throws {
        let refused = ["Int", "Int16", "Int32", "Int64", "Double", "Float", "Bool"]
        let bad = try typecheck(refused.enumerated().map { "    @Managed var v\($0.offset): \($0.element)?" })
        XCTAssertNotEqual(bad.status, 0)
        for type in refused {
            XCTAssertTrue(bad.output.contains("error: conformance of '\(type)' to 'ManagedOptionalWrappable' is "
                + "unavailable: a @Managed property cannot be \"\(type)?\": as with @NSManaged, an optional number or "
                + "Boolean has no Objective-C form. Declare it NSNumber?"), "\(type)?: \(bad.output)")
        }
        let good = try typecheck(["    @Managed var rating: NSNumber?", "    @Managed var year: Int",
                                  "    @Managed var done: Bool", "    @Managed var title: String?",
                                  "    @Managed var price: Decimal?", "    @Managed var due: Date?"])
        XCTAssertEqual(good.status, 0, good.output)
    }

    /// Runs `swiftc -typecheck` on a class with `properties` against the built Persistence module.
    private func typecheck(_ properties: [String]) throws -> (status: Int32, output: String) {
        try typecheck((["import Persistence", "final class Declared: ManagedObject {"] + properties + ["}", ""])
            .joined(separator: "\n"))
    }
}
