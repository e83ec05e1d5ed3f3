import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

/// A palette of colour names: a class of the app's own, stored in a transformable attribute.
final class ColourPalette: NSObject, ManagedTransformable, @unchecked Sendable {
    let colors: [String]
    init(colors: [String]) { self.colors = colors }
}

/// Keeps a palette as its colour names, one a line.
final class ColourPaletteTransformer: ValueTransformer, @unchecked Sendable {
    override class func allowsReverseTransformation() -> Bool { true }

    override func transformedValue(_ value: Any?) -> Any? {
        (value as? ColourPalette).map { Data($0.colors.joined(separator: "\n").utf8) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        (value as? Data).map { ColourPalette(colors: String(decoding: $0, as: UTF8.self).components(separatedBy: "\n")) }
    }
}

/// A transformable attribute declared as its Swift type, `@Managed var colors: [String]` or
/// `@Managed var palette: ColourPalette`, as Core Data accepts `@NSManaged var colors: [String]`: values go through the
/// attribute's transformer, and a value of the wrong type read back is a programming error, not a default.
final class TransformablePropertyTests: PersistenceTestCase {
    final class Sketch: ManagedObject {
        @Managed var title: String?
        @Managed var colors: [String]
        @Managed var palette: ColourPalette
        @Managed var spare: ColourPalette?
        @Managed var tags: [String]?
        @Managed var sizes: [String: Int]
    }

    /// Declares an array of strings where the model has a string attribute.
    final class Draft: ManagedObject {
        @Managed var colors: [String]
    }

    /// A value of the app's own that Objective-C cannot represent, and properties holding it.
    struct Swatch { var name: String }
    final class SwatchBook: ManagedObject {
        @Managed var swatches: [Swatch]
    }
    final class SwatchIndex: ManagedObject {
        @Managed var byName: [String: Swatch]
    }
    final class OptionalNames: ManagedObject {
        @Managed var names: [String?]
    }
    /// Nested arrays and dictionaries of bridged values, which Objective-C represents.
    final class Atlas: ManagedObject {
        @Managed var rows: [[String]]
        @Managed var index: [String: [Int]]
        @Managed var stamps: [Date]
        @Managed var palettes: [ColourPalette]
    }

    private let reported = ReportedList<NilRead>()

    override func makeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [sketchEntity()])
    }

    private func sketchEntity() -> EntityDescription {
        EntityDescription(name: "Sketch", managedObjectClass: Sketch.self, properties: [
            .attribute("title", .string),
            .transformable("colors", transformer: "TagListTransformer"),
            .transformable("palette", transformer: "ColourPaletteTransformer"),
            .transformable("spare", transformer: "ColourPaletteTransformer"),
            .transformable("tags"),
            .transformable("sizes"),
        ])
    }

    override func setUpWithError() throws {
        ValueTransformer.setValueTransformer(TagListTransformer(), forName: NSValueTransformerName("TagListTransformer"))
        ValueTransformer.setValueTransformer(ColourPaletteTransformer(), forName: NSValueTransformerName("ColourPaletteTransformer"))
        try super.setUpWithError()
        reportNilReads(into: reported)
    }

    /// A sketch with every non-optional property set, saved.
    private func savedSketch() throws -> Sketch {
        let sketch = Sketch(context: context)
        sketch.colors = ["red", "green"]
        sketch.palette = ColourPalette(colors: ["ochre", "umber"])
        sketch.sizes = ["small": 1]
        try context.save()
        return sketch
    }

    func testAnArrayGoesThroughItsNamedTransformerToTheStoreAndBack() throws {
        _ = try savedSketch()
        let raw = try storeRows("SELECT ZCOLORS FROM ZSKETCH", in: container)
        XCTAssertEqual(raw.first?.first, .blob(Data("red\ngreen".utf8)), "the store keeps the transformer's Data")
        let reader = container.newBackgroundContext()
        let colors = try reader.performAndWait {
            try XCTUnwrap(try reader.fetch(FetchRequest<Sketch>(entityName: "Sketch")).first).colors
        }
        XCTAssertEqual(colors, ["red", "green"])
        XCTAssertTrue(reported.take().isEmpty)
    }

    func testAClassOfTheAppsOwnGoesThroughItsNamedTransformer() throws {
        _ = try savedSketch()
        let reader = container.newBackgroundContext()
        let colors = try reader.performAndWait {
            try XCTUnwrap(try reader.fetch(FetchRequest<Sketch>(entityName: "Sketch")).first).palette.colors
        }
        XCTAssertEqual(colors, ["ochre", "umber"])
    }

    func testTheDefaultTransformerKeepsAnArrayAndADictionary() throws {
        let sketch = try savedSketch()
        sketch.tags = ["draft", "ink"]
        try context.save()
        let reader = container.newBackgroundContext()
        let (tags, sizes) = try reader.performAndWait {
            let read = try XCTUnwrap(try reader.fetch(FetchRequest<Sketch>(entityName: "Sketch")).first)
            return (read.tags, read.sizes)
        }
        XCTAssertEqual(tags, ["draft", "ink"])
        XCTAssertEqual(sizes, ["small": 1])
    }

    func testTheOptionalFormReadsAndStoresNil() throws {
        let sketch = try savedSketch()
        XCTAssertNil(sketch.spare)
        XCTAssertNil(sketch.tags)
        sketch.spare = ColourPalette(colors: ["blue"])
        XCTAssertEqual(sketch.spare?.colors, ["blue"])
        sketch.spare = nil
        XCTAssertNil(sketch.spare)
        XCTAssertNil(sketch.value(forKey: "spare"))
        XCTAssertTrue(reported.take().isEmpty, "nil through an optional property is no mistake")
    }

    func testAValueOfAnotherTypeReadBackIsReportedNotDefaulted() throws {
        let sketch = try savedSketch()
        sketch.setValue(["a": 1], forKey: "tags")
        XCTAssertNil(sketch.tags)
        let read = try XCTUnwrap(reported.take().first)
        XCTAssertEqual(read.key, "tags")
        XCTAssertNotNil(read.foundTypeName)
        XCTAssertTrue(read.description.contains("Sketch.tags"), read.description)
        XCTAssertTrue(read.description.contains("another type"), read.description)
    }

    func testANilReadThroughTheNonOptionalFormIsReported() throws {
        let sketch = Sketch(context: context)
        XCTAssertEqual(sketch.colors, [])
        XCTAssertEqual(reported.take().map { "\($0.key) \($0.typeName)" }, ["colors Array<String>"])
    }

    func testOverAnAttributeThatIsNotTransformableTheModelIsRefusedByName() {
        let error = assertPersistenceError(.coreData) {
            _ = try ManagedObjectModel(entities: [
                sketchEntity(),
                EntityDescription(name: "Draft", managedObjectClass: Draft.self, properties: [
                    .attribute("colors", .string),
                ]),
            ])
        }
        XCTAssertTrue(error?.message.contains("Draft.colors") == true, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("transformable") == true, "\(String(describing: error))")
    }

    /// `@NSManaged var swatches: [Swatch]` does not compile on Apple platforms (the type must be representable in
    /// Objective-C); here the generic `@Managed` compiles it, so the model refuses it by name.
    func testAnArrayOrDictionaryObjectiveCCannotRepresentIsRefusedByName() {
        for (entity, key) in [
            (EntityDescription(name: "SwatchBook", managedObjectClass: SwatchBook.self,
                               properties: [.transformable("swatches")]), "SwatchBook.swatches"),
            (EntityDescription(name: "SwatchIndex", managedObjectClass: SwatchIndex.self,
                               properties: [.transformable("byName")]), "SwatchIndex.byName"),
            (EntityDescription(name: "OptionalNames", managedObjectClass: OptionalNames.self,
                               properties: [.transformable("names")]), "OptionalNames.names"),
        ] {
            let error = assertPersistenceError(.coreData) {
                _ = try ManagedObjectModel(entities: [sketchEntity(), entity])
            }
            XCTAssertTrue(error?.message.contains(key) == true, "\(String(describing: error))")
            XCTAssertTrue(error?.message.contains("Objective-C") == true, "\(String(describing: error))")
        }
    }

    func testNestedCollectionsOfBridgedValuesAreTaken() throws {
        XCTAssertNoThrow(try ManagedObjectModel(entities: [
            sketchEntity(),
            EntityDescription(name: "Atlas", managedObjectClass: Atlas.self, properties: [
                .transformable("rows"), .transformable("index"), .transformable("stamps"),
                .transformable("palettes"),
            ]),
        ]))
    }

    /// As with `@NSManaged`, whose type must be representable in Objective-C: a structure does not compile.
    func testAStructureOfTheAppsOwnDoesNotCompile() throws {
        let result = try typecheck("""
            import Persistence
            struct Swatch { var name: String }
            extension Swatch: ManagedTransformable {}
            """)
        XCTAssertNotEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("Swatch"), result.output)
    }
}
