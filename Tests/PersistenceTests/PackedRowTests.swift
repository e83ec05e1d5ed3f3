import Foundation
import Synchronization
@_spi(ConcurrencyDebugging) @_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Fetched objects keep their row packed until something needs slots: reads never unpack it, every value and nil
/// reads back as stored, and the first change, a rollback or a refresh behave as they do with slots.
final class PackedRowTests: PersistenceTestCase {
    private func saveFullSample() throws -> Sample {
        let sample = Sample(context: context)
        sample.text = "naïve\0日本"
        sample.small = -7
        sample.medium = NSNumber(value: Int32.max)
        sample.large = NSNumber(value: Int64.min)
        sample.real = -0.25
        sample.single = 2.5
        sample.flag = true
        sample.when = Date(timeIntervalSinceReferenceDate: -1_000.5)
        sample.identifier = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00CF4FC964FF")
        sample.link = URL(string: "https://example.com/x?y=%C3%A9")
        sample.bytes = Data([0, 255, 0, 1])
        sample.amount = Decimal(string: "-98765.4321")
        try context.save()
        return sample
    }

    func testAFetchedObjectReadsEveryValueWithoutUnpackingItsRow() throws {
        let saved = try saveFullSample()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let stored = try XCTUnwrap(try reader.fetch(Sample.fetchRequest()).first)
            XCTAssertNotNil(stored.packedRow, "a fetched Sample should hold its row packed")
            XCTAssertEqual(stored.text, saved.text)
            XCTAssertEqual(stored.small, saved.small)
            XCTAssertEqual(stored.medium, saved.medium)
            XCTAssertEqual(stored.large, saved.large)
            XCTAssertEqual(stored.real, saved.real)
            XCTAssertEqual(stored.single, saved.single)
            XCTAssertEqual(stored.flag, saved.flag)
            XCTAssertEqual(stored.when, saved.when)
            XCTAssertEqual(stored.identifier, saved.identifier)
            XCTAssertEqual(stored.link, saved.link)
            XCTAssertEqual(stored.bytes, saved.bytes)
            XCTAssertEqual(stored.amount, saved.amount)
            XCTAssertEqual(stored.value(forKey: "medium") as? Int, Int(Int32.max))
            XCTAssertNotNil(stored.packedRow, "reading values must not unpack the row")
            XCTAssertFalse(stored.isFault)
        }
    }

    func testNilOfEveryTypeReadsAsNil() throws {
        _ = Sample(context: context)
        try context.save()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let stored = try XCTUnwrap(try reader.fetch(Sample.fetchRequest()).first)
            XCTAssertNotNil(stored.packedRow)
            for key in ["text", "small", "medium", "large", "real", "single", "flag", "when", "identifier", "link", "bytes", "amount"] {
                XCTAssertNil(stored.value(forKey: key), "\(key) should read as nil")
            }
            XCTAssertTrue(stored.committedValues(forKeys: nil).values.allSatisfy { $0 is NSNull })
        }
    }

    func testAChangeUnpacksAndRollbackRestoresTheFetchedValues() throws {
        _ = try saveFullSample()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let stored = try XCTUnwrap(try reader.fetch(Sample.fetchRequest()).first)
            stored.text = "changed"
            XCTAssertNil(stored.packedRow, "a change needs the values as slots")
            XCTAssertEqual(stored.committedValues(forKeys: ["text"])["text"] as? String, "naïve\0日本")
            XCTAssertEqual(stored.changedValues().keys.sorted(), ["text"])
            reader.rollback()
            XCTAssertEqual(stored.text, "naïve\0日本")
            XCTAssertEqual(stored.large?.int64Value, .min)
            XCTAssertFalse(stored.hasChanges)
            stored.small = 9
            try reader.save()
        }
        XCTAssertEqual(try storeInteger("SELECT ZSMALL FROM ZSAMPLE"), 9)
    }

    func testToOneKeysArePackedAndResolveToTheirObjects() throws {
        let director = Director(context: context)
        director.name = "Agnès Varda"
        makeMovie("Cléo from 5 to 7", year: 1962).director = director
        makeMovie("Untitled", year: 1963)
        try context.save()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let request: FetchRequest<Movie> = Movie.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Movie.year, ascending: true)]
            let movies = try reader.fetch(request)
            XCTAssertEqual(movies.count, 2)
            XCTAssertTrue(movies.allSatisfy { $0.packedRow != nil })
            XCTAssertEqual(movies[0].director?.name, "Agnès Varda")
            XCTAssertNil(movies[1].director)
            XCTAssertEqual(movies[0].actors.count, 0)
            XCTAssertEqual(movies[0].director?.movies.map(\.title), ["Cléo from 5 to 7"])
        }
    }

    func testRefreshWithoutMergingDropsThePackedRowAndReadsAgain() throws {
        let saved = try saveFullSample()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let stored = try XCTUnwrap(try reader.fetch(Sample.fetchRequest()).first)
            XCTAssertNotNil(stored.packedRow)
            reader.refresh(stored, mergeChanges: false)
            XCTAssertTrue(stored.isFault)
            XCTAssertNil(stored.packedRow)
        }
        saved.text = "second"
        try context.save()
        try reader.performAndWait {
            let stored = try XCTUnwrap(try reader.fetch(Sample.fetchRequest()).first)
            XCTAssertEqual(stored.text, "second")
        }
    }

    func testPackedRowsAreFreedWithTheirObjects() throws {
        _ = try saveFullSample()
        weak var released: PackedRowBlock?
        var reader: ManagedObjectContext? = container.newBackgroundContext()
        try reader!.performAndWait {
            let stored = try XCTUnwrap(try reader!.fetch(Sample.fetchRequest()).first)
            released = stored.packedRow?.block
            XCTAssertNotNil(released)
        }
        reader = nil
        XCTAssertNil(released, "the packed row outlived its object and context")
    }

    func testEntitiesWithMoreThan63PropertiesKeepSlots() {
        XCTAssertNotNil(PackedRowLayout(kinds: Array(repeating: .attribute(.integer64), count: 63)))
        XCTAssertNil(PackedRowLayout(kinds: Array(repeating: .attribute(.integer64), count: 64)))
        let layout = PackedRowLayout(kinds: [.attribute(.integer16), .toMany, .attribute(.string), .toOne, .attribute(.decimal)])
        XCTAssertEqual(layout?.cells.map(\.word), [0, 1, 1, 3, 4])
        XCTAssertEqual(layout?.referenceCells, [2])
    }

    func testAWideEntityKeepsSlotsAndStillReadsBack() throws {
        let wide = EntityDescription(name: "Wide", properties: (0..<70).map { .attribute("v\($0)", .integer64) })
        let container = try makeContainer(model: try ManagedObjectModel(entities: [wide]))
        let writer = container.viewContext
        let object = EntityDescription.insertNewObject(forEntityName: "Wide", into: writer)
        for index in 0..<70 where index % 3 != 0 { object.setValue(index * 11, forKey: "v\(index)") }
        try writer.save()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let stored = try XCTUnwrap(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Wide")).first)
            XCTAssertNil(stored.packedRow)
            for index in 0..<70 {
                XCTAssertEqual(stored.value(forKey: "v\(index)") as? Int, index % 3 == 0 ? nil : index * 11, "v\(index)")
            }
        }
    }

    // MARK: - New objects

    func testANewObjectIsSetInPlaceAndSavedFromItsPackedRow() throws {
        let sample = Sample(context: context)
        XCTAssertNotNil(sample.packedRow, "a new Sample should start packed")
        sample.text = "first"
        sample.text = "second"            // replaces a string cell
        sample.large = 42
        sample.large = nil                // back to nil
        sample.real = 1.5
        sample.flag = false
        sample.identifier = UUID(uuidString: "00000000-0000-0000-0000-0000000000AB")
        sample.amount = Decimal(7)
        XCTAssertNotNil(sample.packedRow, "setting attributes of a new object must not unpack it")
        XCTAssertEqual(sample.text, "second")
        XCTAssertNil(sample.large)
        XCTAssertEqual(sample.changedValues().keys.sorted(), ["amount", "flag", "identifier", "real", "text"])
        try context.save()
        XCTAssertNotNil(sample.packedRow, "a saved new object keeps its packed row")
        let rows = try storeRows("SELECT ZTEXT, ZLARGE, ZREAL, ZFLAG FROM ZSAMPLE")
        XCTAssertEqual(rows, [[.text("second"), .null, .real(1.5), .integer(0)]])
        sample.text = "third"             // now a saved object: the change is tracked with slots
        XCTAssertNil(sample.packedRow)
        context.rollback()
        XCTAssertEqual(sample.text, "second")
    }

    func testANewObjectStartsWithTheDefaultsAndLoadedEmptyRelationships() throws {
        let movie = Movie(context: context)
        XCTAssertNotNil(movie.packedRow)
        XCTAssertEqual(movie.year, 2000, "the model's default")
        XCTAssertTrue(movie.actors.isEmpty)
        XCTAssertTrue(movie.sceneList.isEmpty)
        XCTAssertNil(movie.director)
        XCTAssertNotNil(movie.packedRow, "reading empty relationships must not unpack")
        let director = Director(context: context)
        director.name = "Chantal Akerman"
        movie.title = "Jeanne Dielman"
        movie.director = director         // relationships live in slots
        XCTAssertNil(movie.packedRow)
        XCTAssertEqual(director.movies.map(\.title), ["Jeanne Dielman"])
        try context.save()
        XCTAssertEqual(try storedCount("Movie", "director.name == %@", "Chantal Akerman"), 1)
    }

    func testNewObjectsOfAContextShareBlocksAndEachChangesOnlyItsOwnRow() throws {
        let samples = (0..<300).map { number -> Sample in
            let sample = Sample(context: context)
            sample.large = NSNumber(value: number)
            sample.text = "sample \(number)"
            return sample
        }
        let blocks = Set(samples.map { ObjectIdentifier($0.packedRow!.block) })
        XCTAssertLessThan(blocks.count, 10, "300 new objects should share a few blocks, not have one each")
        samples[7].large = nil
        samples[8].text = "changed"
        XCTAssertTrue(samples.allSatisfy { $0.packedRow != nil }, "new objects are set in place")
        XCTAssertEqual(samples[6].large, 6)
        XCTAssertNil(samples[7].large)
        XCTAssertEqual(samples[8].large, 8)
        XCTAssertEqual(samples[9].text, "sample 9")
        XCTAssertEqual(samples[8].text, "changed")
        try context.save()
        // Saved, the rows are what rollback goes back to: a change unpacks its object only.
        samples[10].large = -10
        XCTAssertNil(samples[10].packedRow)
        XCTAssertNotNil(samples[11].packedRow)
        context.rollback()
        XCTAssertEqual(samples[10].large, 10)
        XCTAssertEqual(try storeInteger("SELECT SUM(ZLARGE) FROM ZSAMPLE"), Int64((0..<300).reduce(0, +) - 7))
    }

    func testAnObjectMadeOutsideAContextHasARowOfItsOwnUntilInserted() throws {
        let entity = try XCTUnwrap(container.managedObjectModel.entitiesByName["Sample"])
        let loose = Sample(entity: entity, insertInto: nil)
        loose.large = 5
        XCTAssertNotNil(loose.packedRow)
        XCTAssertEqual(loose.packedRow?.block.rowCapacity, 1)
        context.insert(loose)
        loose.large = 6
        XCTAssertNotNil(loose.packedRow, "inserted, it is still a new object's row")
        try context.save()
        XCTAssertEqual(try storeInteger("SELECT ZLARGE FROM ZSAMPLE"), 6)
    }

    func testAMissingMandatoryValueOfANewObjectFailsValidation() throws {
        let movie = Movie(context: context)
        movie.title = "Set, then cleared"
        movie.setValue(nil, forKey: "title")
        XCTAssertNotNil(movie.packedRow)
        let error = assertPersistenceError(.validationMissingMandatoryProperty) { try context.save() }
        XCTAssertEqual(error?.key, "title")
    }

    func testAValueThatDoesNotFitUnpacksAndIsReportedAtSave() throws {
        let sample = Sample(context: context)
        sample.setValue("not a number", forKey: "large")
        XCTAssertNil(sample.packedRow, "a value kept as given lives in slots")
        XCTAssertEqual(sample.value(forKey: "large") as? String, "not a number")
        assertPersistenceError(.managedObjectValidation) { try context.save() }
    }

    // MARK: - Blocks

    func testAFetchPacksItsRowsIntoSharedBlocksThatOutliveNoObject() throws {
        for number in 0..<1_000 {
            let sample = Sample(context: context)
            sample.text = "sample \(number)"
            sample.large = NSNumber(value: number)
        }
        try context.save()
        var blocks: [Weak] = []
        var reader: ManagedObjectContext? = container.newBackgroundContext()
        try reader!.performAndWait {
            let request: FetchRequest<Sample> = Sample.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Sample.large, ascending: true)]
            let samples = try reader!.fetch(request)
            let distinct = Set(samples.compactMap { $0.packedRow.map { ObjectIdentifier($0.block) } })
            XCTAssertLessThan(distinct.count, 20, "1,000 rows should share a few blocks, not have one each")
            blocks = samples.compactMap { $0.packedRow?.block }.map(Weak.init)
            // Changing one object unpacks it alone; its neighbours in the block read as before.
            samples[1].text = "changed"
            XCTAssertNil(samples[1].packedRow)
            XCTAssertEqual(samples[0].text, "sample 0")
            XCTAssertEqual(samples[2].text, "sample 2")
            XCTAssertEqual(samples[1].text, "changed")
            XCTAssertEqual(samples.map { $0.large?.int64Value }, (0..<1_000).map { Int64($0) })
        }
        reader = nil
        XCTAssertTrue(blocks.allSatisfy { $0.block == nil }, "blocks outlived the objects that read from them")
    }

    // Typed accessors read and write packed cells directly when nothing else has to happen; these check that the
    // direct way and the general way (key-value access) agree.

    func testTypedReadsOfAStoredValueOutOfRangeReadAsTheGeneralWayReadsThem() throws {
        let store = try makeContainer(model: Tally.model())
        let tally = Tally(context: store.viewContext)
        tally.small = 1
        tally.medium = 1
        try store.viewContext.save()
        // A store written by something else: a value too wide for the attribute's Swift type.
        _ = try storeRows("UPDATE ZTALLY SET ZSMALL = 70000, ZMEDIUM = 5000000000", in: store)
        let reader = store.newBackgroundContext()
        try reader.performAndWait {
            let stored = try XCTUnwrap(try reader.fetch(FetchRequest<Tally>(entityName: "Tally")).first)
            XCTAssertNotNil(stored.packedRow)
            XCTAssertEqual(stored.small, 0, "70000 is no Int16: read from the packed row as nil, so 0")
            XCTAssertEqual(stored.medium, 0, "5000000000 is no Int32")
            XCTAssertEqual(stored.value(forKey: "small") as? Int, 70000, "key-value access reads every integer as Int")
            stored.label = "changed"
            XCTAssertNil(stored.packedRow, "a change moves the values to slots, read the general way")
            XCTAssertEqual(stored.small, 0)
            XCTAssertEqual(stored.medium, 0)
        }
    }

    func testTypedSettersOfANewObjectWriteItsRowAndKeyValueAccessSeesThem() throws {
        let sample = Sample(context: context)
        sample.text = "first"
        sample.text = "second"
        sample.large = -5
        sample.real = 1.5
        sample.flag = false
        sample.when = Date(timeIntervalSinceReferenceDate: 86_400)
        XCTAssertNotNil(sample.packedRow, "a new object's own row takes typed values in place")
        XCTAssertEqual(sample.value(forKey: "text") as? String, "second")
        XCTAssertEqual(sample.value(forKey: "large") as? Int, -5)
        XCTAssertEqual(sample.value(forKey: "real") as? Double, 1.5)
        XCTAssertEqual(sample.value(forKey: "flag") as? Bool, false)
        XCTAssertEqual(sample.value(forKey: "when") as? Date, Date(timeIntervalSinceReferenceDate: 86_400))
        // Nil and the other way round: set by key, read typed.
        sample.text = nil
        sample.setValue(42, forKey: "large")
        XCTAssertNil(sample.text)
        XCTAssertEqual(sample.large, 42)
        try context.save()
        XCTAssertEqual(try storeRows("SELECT ZTEXT, ZLARGE, ZREAL, ZFLAG FROM ZSAMPLE"),
                       [[.null, .integer(42), .real(1.5), .integer(0)]])
    }

    func testTheFirstTypedReadOfAFaultWakesItOnce() throws {
        _ = try saveFullSample()
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let stored = try XCTUnwrap(try reader.fetch(Sample.fetchRequest()).first)
            XCTAssertTrue(stored.isFault)
            XCTAssertEqual(stored.large?.int64Value, .min)
            XCTAssertFalse(stored.isFault, "a typed read fires the fault")
            XCTAssertEqual(stored.small, -7)
        }
    }

    func testTypedReadsOffTheQueueAreStillReportedWithTheDebuggerOn() throws {
        _ = try saveFullSample()
        let reader = container.newBackgroundContext()
        let stored = try reader.performAndWait { try XCTUnwrap(try reader.fetch(Sample.fetchRequest()).first) }
        _ = reader.performAndWait { stored.large }
        let seen = Mutex<[String]>([])
        ConcurrencyDebugging.withViolationHandler({ violation in seen.withLock { $0.append(violation.operation) } }) {
            _ = stored.large
            stored.large = 3
        }
        XCTAssertEqual(seen.withLock { $0 }, ["Sample.large", "Sample.large"])
    }

    func testARowThatCannotBePackedIsTakenBackFromItsBlock() {
        let layout = PackedRowLayout(kinds: [.attribute(.string), .attribute(.integer64)])!
        var rows = PackedRowAllocator(firstBlockSize: 4)
        let first = rows.nextRow(for: layout)
        XCTAssertTrue(first.set(.string("kept"), at: 0))
        let second = rows.nextRow(for: layout)
        XCTAssertTrue(second.set(.string("taken back"), at: 0))
        XCTAssertFalse(second.set(.string("not an integer"), at: 1))
        second.block.removeLastRow()
        let third = rows.nextRow(for: layout)
        XCTAssertEqual(third.row, second.row, "the row taken back is handed out again")
        XCTAssertEqual(third.value(at: 0), .null, "and it comes back empty")
        XCTAssertEqual(first.value(at: 0), .string("kept"))
    }
}

private final class Weak {
    weak var block: PackedRowBlock?
    init(_ block: PackedRowBlock) { self.block = block }
}

/// Non-optional integers, which the typed accessors read straight from a packed row.
final class Tally: ManagedObject {
    @Managed var small: Int16
    @Managed var medium: Int32
    @Managed var label: String?

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Tally", managedObjectClass: Tally.self, properties: [
                .attribute("small", .integer16), .attribute("medium", .integer32), .attribute("label", .string),
            ]),
        ])
    }
}
