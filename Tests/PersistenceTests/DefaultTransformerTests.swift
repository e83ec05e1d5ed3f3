import Foundation
@_spi(ModelBuilding) @_spi(ModelLoading) @_spi(TestHarness) @testable import Persistence
import XCTest

/// An object whose transformable attributes name no transformer: Core Data's default one stores them.
final class Palette: ManagedObject {
    @Managed var name: String
    var colours: [String]? {
        get { value(forKey: "colours") as? [String] }
        set { setValue(newValue, forKey: "colours") }
    }
}

/// A class the default transformer does not allow.
final class Brush {
    let size = 3
}

/// A value type the default transformer does not allow either.
struct Stroke {
    let length: Double
}

/// Transformable attributes without a transformer name load, as in Core Data, with the default transformer
/// (`NSSecureUnarchiveFromData`: secure keyed archiving of a fixed list of Foundation classes) and one warning each.
final class DefaultTransformerTests: PersistenceTestCase {
    override func makeModel() throws -> ManagedObjectModel { try Self.palettes() }

    /// Palette (name, and three transformable attributes naming no transformer) and its subentity Mural.
    static func palettes(entityName: String = "Palette") throws -> ManagedObjectModel {
        let palette = EntityDescription(name: entityName, managedObjectClass: entityName == "Palette" ? Palette.self : nil, properties: [
            .attribute("name", .string, optional: false),
            AttributeDescription(name: "colours", type: .transformable),
            AttributeDescription(name: "settings", type: .transformable),
            AttributeDescription(name: "painted", type: .transformable),
        ])
        return try ManagedObjectModel(entities: [
            palette,
            EntityDescription(name: entityName == "Palette" ? "Mural" : entityName + "Mural", parent: palette, properties: [
                .attribute("wall", .string),
            ]),
        ])
    }

    /// The same model drawn in Xcode, its Transformer fields left empty, written to a temporary folder.
    private func palettesFile() throws -> URL {
        let folder = try temporaryFolder().appendingPathComponent("Palettes.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Mural" representedClassName="Palette" parentEntity="Palette" syncable="YES">
                    <attribute name="wall" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Palette" representedClassName="Palette" syncable="YES">
                    <attribute name="colours" optional="YES" attributeType="Transformable" customClassName="[String]"/>
                    <attribute name="name" attributeType="String"/>
                    <attribute name="painted" optional="YES" attributeType="Transformable" valueTransformerName=""/>
                    <attribute name="settings" optional="YES" attributeType="Transformable" customClassName="NSDictionary"/>
                </entity>
            </model>
            """
        try Data(contents.utf8).write(to: folder.appendingPathComponent("contents"))
        return folder
    }

    private func fetchPalettes(in context: ManagedObjectContext? = nil) throws -> [Palette] {
        let request = FetchRequest<Palette>(entityName: "Palette")
        request.includesSubentities = false
        request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
        return try (context ?? self.context).fetch(request)
    }

    // MARK: - Loading

    func testATransformableAttributeWithoutATransformerNameLoadsWithOneWarningEach() throws {
        let model = try Self.palettes()
        let colours = try XCTUnwrap(model.entitiesByName["Palette"]?.attributesByName["colours"])
        XCTAssertEqual(colours.attributeType, .transformable)
        XCTAssertNil(colours.valueTransformerName, "no name, as Core Data's valueTransformerName reads")
        XCTAssertEqual(model.warnings.count, 3, "one per attribute, not repeated for the subentity Mural: \(model.warnings)")
        let warning = try XCTUnwrap(model.warnings.first { $0.contains("'Palette.colours'") })
        XCTAssertTrue(warning.contains("names no value transformer, so it uses the default, NSSecureUnarchiveFromData"), warning)
        XCTAssertTrue(warning.contains("NSArray, NSDictionary, NSSet, NSString, NSNumber, NSDate, NSData, NSURL, NSUUID, NSNull"), warning)
    }

    func testAModelFileWithEmptyTransformerFieldsLoadsAsTheCodeModel() throws {
        let model = try ManagedObjectModel(contentsOf: try palettesFile(), managedObjectClasses: [Palette.self])
        XCTAssertEqual(model.versionHash, try Self.palettes().versionHash, "the same model as the one in code")
        XCTAssertNil(model.entitiesByName["Palette"]?.attributesByName["painted"]?.valueTransformerName)
        XCTAssertEqual(model.warnings.filter { $0.contains("names no value transformer") }.count, 3, "\(model.warnings)")

        let palettes = try makeContainer(model: model)
        let palette = Palette(context: palettes.viewContext)
        palette.name = "Autumn"
        palette.colours = ["ochre", "rust"]
        try palettes.viewContext.save()
        palettes.viewContext.reset()
        XCTAssertEqual(try fetchPalettes(in: palettes.viewContext).first?.colours, ["ochre", "rust"])
    }

    func testTheWarningIsPrintedToStandardErrorOncePerAttribute() throws {
        let log = try temporaryFolder().appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let file = try FileHandle(forWritingTo: log)
        let saved = dup(STDERR_FILENO)
        dup2(file.fileDescriptor, STDERR_FILENO)
        // An entity name no other test uses: the warning is printed once per process.
        let loaded = Result { (try Self.palettes(entityName: "Easel"), try Self.palettes(entityName: "Easel")) }
        dup2(saved, STDERR_FILENO)
        close(saved)
        try file.close()
        _ = try loaded.get()

        let printed = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(printed.filter { $0.contains("'Easel.colours'") }.count, 1, "\(printed)")
        XCTAssertEqual(printed.filter { $0.contains("'Easel.settings'") }.count, 1)
        XCTAssertTrue(printed.allSatisfy { $0.hasPrefix("Persistence: warning: Transformable attribute 'Easel.") }, "\(printed)")
        XCTAssertEqual(printed.count, 3)
    }

    // MARK: - Through the store and back

    func testArraysDictionariesAndDatesComeBackFromTheStoreInAFreshContainer() throws {
        let url = try temporaryFolder().appendingPathComponent("Palettes.sqlite")
        let painted = Date(timeIntervalSinceReferenceDate: 700_000_000.5)
        let settings: NSDictionary = ["size": 3, "glossy": true, "tags": ["warm", "dry"], "since": painted]
        do {
            let writer = try makeContainer(url: url, model: try Self.palettes())
            let palette = Palette(context: writer.viewContext)
            palette.name = "Autumn"
            palette.colours = ["ochre", "rust", "umber"]
            palette.setValue(settings, forKey: "settings")
            palette.setValue(painted, forKey: "painted")
            try writer.viewContext.save()
            let stored = try storeRows("SELECT ZCOLOURS FROM ZPALETTE", in: writer)
            guard case .blob(let archive)? = stored.first?.first else { return XCTFail("no archive stored: \(stored)") }
            XCTAssertTrue(archive.starts(with: Data("bplist00".utf8)), "a keyed archive, as Core Data's default writes")
        }

        let reader = try makeContainer(url: url, model: try Self.palettes())
        let palette = try XCTUnwrap(fetchPalettes(in: reader.viewContext).first)
        XCTAssertEqual(palette.colours, ["ochre", "rust", "umber"])
        XCTAssertEqual(palette.value(forKey: "settings") as? NSDictionary, settings)
        XCTAssertEqual(palette.value(forKey: "painted") as? Date, painted)

        let request = FetchRequest<NSDictionary>(entityName: "Palette")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["colours"]
        XCTAssertEqual(try reader.viewContext.fetch(request).first?["colours"] as? [String], ["ochre", "rust", "umber"],
                       "dictionary results go through the default transformer too")
    }

    func testEveryAllowedKindOfValueComesBack() throws {
        let values: [String: Any] = [
            "uuid": UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, "url": URL(string: "https://example.com/a")!,
            "data": Data([1, 2, 3]), "null": NSNull(), "set": Set(["a", "b"]), "double": 2.5, "text": "plain",
        ]
        let palette = Palette(context: context)
        palette.name = "All"
        palette.setValue(values as NSDictionary, forKey: "settings")
        palette.setValue(42, forKey: "painted")
        try context.save()
        context.reset()
        let read = try XCTUnwrap(fetchPalettes().first)
        XCTAssertEqual(read.value(forKey: "settings") as? NSDictionary, values as NSDictionary)
        XCTAssertEqual(read.value(forKey: "painted") as? Int, 42)
    }

    // MARK: - What the default transformer does not store

    func testAValueOfAClassThatIsNotAllowedFailsTheSaveAndKeepsEverythingElse() throws {
        let palette = Palette(context: context)
        palette.name = "Autumn"
        palette.colours = ["ochre"]
        try context.save()

        palette.name = "Late autumn"
        palette.setValue(Brush(), forKey: "painted")
        XCTAssertNil(palette.value(forKey: "painted"), "the value that cannot be stored is not set")
        XCTAssertEqual(palette.colours, ["ochre"])
        let error = assertPersistenceError(.managedObjectValidation) { try self.context.save() }
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("Palette.painted is transformable with Core Data's default value transformer, NSSecureUnarchiveFromData (the attribute names none)"), message)
        XCTAssertTrue(message.contains("Brush is not among the allowed classes"), message)
        XCTAssertEqual(error?.key, "painted")
        XCTAssertTrue(error?.object === palette)
        XCTAssertEqual(palette.name, "Late autumn", "the other unsaved change is still there")

        // Nothing was written: the store still holds what was saved before.
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let stored = try XCTUnwrap(fetchPalettes(in: reader).first)
            XCTAssertEqual(stored.name, "Autumn")
            XCTAssertEqual(stored.colours, ["ochre"])
        }
    }

    func testADisallowedValueInsideACollectionIsRefusedToo() throws {
        let strokes = Palette(context: context)
        strokes.name = "Strokes"
        strokes.setValue(["ok", Stroke(length: 2)] as [Any], forKey: "settings")
        let error = assertPersistenceError(.managedObjectValidation) { try self.context.save() }
        XCTAssertTrue(error?.message.contains("Stroke is not among the allowed classes") == true, error?.message ?? "")
        context.rollback()

        let brushes = Palette(context: context)
        brushes.name = "Brushes"
        brushes.setValue(["brush": Brush()], forKey: "settings")
        let nested = assertPersistenceError(.managedObjectValidation) { try self.context.save() }
        XCTAssertTrue(nested?.message.contains("Brush is not among the allowed classes") == true, nested?.message ?? "")
    }

    func testStoredDataThatHoldsAnotherClassReadsAsNilInsteadOfStoppingTheProcess() throws {
        let palette = Palette(context: context)
        palette.name = "Tampered"
        palette.colours = ["ochre"]
        try context.save()
        // An archive naming a class that is not allowed, as another program might have written it.
        let archive = try NSKeyedArchiver.archivedData(withRootObject: ["x"], requiringSecureCoding: true)
        let tampered = Self.renamingClass(in: archive, from: "NSArray", to: "NSObject")
        XCTAssertNotEqual(tampered, archive)
        let hex = tampered.map { String(format: "%02x", $0) }.joined()
        _ = try storeRows("UPDATE ZPALETTE SET ZCOLOURS = x'\(hex)'")
        context.reset()
        let read = try XCTUnwrap(fetchPalettes().first)
        XCTAssertNil(read.value(forKey: "colours"))
        XCTAssertEqual(read.name, "Tampered", "the rest of the object reads as stored")
    }

    /// `archive` with the class name `old` in its class table replaced by `new`.
    private static func renamingClass(in archive: Data, from old: String, to new: String) -> Data {
        guard var plist = try? PropertyListSerialization.propertyList(from: archive, options: [], format: nil) as? [String: Any],
              var objects = plist["$objects"] as? [Any] else { return archive }
        for (index, object) in objects.enumerated() {
            guard var description = object as? [String: Any], description["$classname"] as? String == old else { continue }
            description["$classname"] = new
            description["$classes"] = [new]
            objects[index] = description
        }
        plist["$objects"] = objects
        return (try? PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)) ?? archive
    }

    // MARK: - The transformer itself

    func testTheDefaultTransformerIsRegisteredUnderXcodesName() throws {
        let name = NSValueTransformerName("NSSecureUnarchiveFromData")
        XCTAssertTrue(ValueTransformer.valueTransformerNames().contains(name))
        let transformer = try XCTUnwrap(ValueTransformer(forName: name))
        XCTAssertTrue(transformer is NSSecureUnarchiveFromDataTransformer)
        XCTAssertTrue(ValueTransformer(forName: name) === transformer, "Foundation's lookup answers the registered instance")
        XCTAssertNil(ValueTransformer(forName: NSValueTransformerName("NoSuchTransformer")))
        let data = try XCTUnwrap(transformer.transformedValue(["a", "b"]) as? Data)
        XCTAssertEqual(transformer.reverseTransformedValue(data) as? [String], ["a", "b"])
        XCTAssertNil(transformer.transformedValue(Brush()))
        XCTAssertNil(transformer.reverseTransformedValue(Data("not an archive".utf8)))

        // An attribute may also name it, as Xcode writes when it is picked from the list: no warning then.
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Swatchbook", properties: [
            AttributeDescription(name: "colours", type: .transformable, valueTransformerName: name.rawValue),
        ])])
        XCTAssertEqual(model.warnings, [])
    }
}
