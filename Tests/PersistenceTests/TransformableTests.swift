import Foundation
@_spi(ModelBuilding) @_spi(ModelLoading) @_spi(TestHarness) @testable import Persistence
import XCTest

/// Keeps a list of tags as one line of text per tag.
final class TagListTransformer: ValueTransformer, @unchecked Sendable {
    override class func allowsReverseTransformation() -> Bool { true }

    override func transformedValue(_ value: Any?) -> Any? {
        (value as? [String]).map { Data($0.joined(separator: "\n").utf8) }
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        (value as? Data).map { String(decoding: $0, as: UTF8.self).components(separatedBy: "\n") }
    }
}

/// Gives back something that is not Data: a transformer written wrongly.
final class BrokenTransformer: ValueTransformer, @unchecked Sendable {
    override func transformedValue(_ value: Any?) -> Any? { "not data" }
}

final class Note: ManagedObject {
    @Managed var text: String
    /// A transformable attribute is reached through key-value coding, as Core Data's custom accessors do.
    var tags: [String]? {
        get { value(forKey: "tags") as? [String] }
        set { setValue(newValue, forKey: "tags") }
    }
}

/// Transformable attributes: values of your own types, stored as the Data a named ValueTransformer makes of them.
final class TransformableTests: PersistenceTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        ValueTransformer.setValueTransformer(TagListTransformer(), forName: NSValueTransformerName("TagListTransformer"))
        ValueTransformer.setValueTransformer(BrokenTransformer(), forName: NSValueTransformerName("BrokenTransformer"))
    }

    private func notesModel(transformer: String = "TagListTransformer") throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Note", managedObjectClass: Note.self, properties: [
                .attribute("text", .string, optional: false),
                .transformable("tags", transformer: transformer),
            ]),
        ])
    }

    /// Foundation's `ValueTransformer` has `transformedValueClass()`, which a subclass overrides (as a `class` or a
    /// `static` method) to name the class its forward transformation gives; the stand-in has it too.
    func testASubclassNamesTheClassOfItsTransformedValueAsInFoundation() throws {
        let result = try typecheck("""
            import Persistence
            final class ColorsTransformer: ValueTransformer, @unchecked Sendable {
                override static func transformedValueClass() -> AnyClass { NSData.self }
            }
            final class TagsTransformer: ValueTransformer, @unchecked Sendable {
                override class func transformedValueClass() -> AnyClass { NSData.self }
            }
            let made: AnyClass = ColorsTransformer.transformedValueClass()
            let base: AnyClass = ValueTransformer.transformedValueClass()

            """)
        XCTAssertEqual(result.status, 0, result.output)
    }

    func testValuesGoThroughTheTransformerToTheStoreAndBack() throws {
        let notes = try makeContainer(model: try notesModel())
        let note = Note(context: notes.viewContext)
        note.text = "shopping"
        note.tags = ["milk", "eggs"]
        XCTAssertEqual(note.tags, ["milk", "eggs"])
        try notes.viewContext.save()

        let raw = try storeRows("SELECT ZTAGS FROM ZNOTE", in: notes)
        XCTAssertEqual(raw.first?.first, .blob(Data("milk\neggs".utf8)), "the store keeps the transformer's Data")
        let reader = notes.newBackgroundContext()
        let read = try reader.performAndWait {
            try reader.fetch(FetchRequest<Note>(entityName: "Note")).first?.tags
        }
        XCTAssertEqual(read, ["milk", "eggs"])

        let request = FetchRequest<NSDictionary>(entityName: "Note")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["tags"]
        let rows = try notes.viewContext.fetch(request)
        XCTAssertEqual(rows.first?["tags"] as? [String], ["milk", "eggs"], "dictionary results are transformed back too")

        note.tags = nil
        try notes.viewContext.save()
        XCTAssertEqual(try storeRows("SELECT ZTAGS FROM ZNOTE", in: notes).first?.first, .null)
    }

    func testAnUnregisteredTransformerFailsTheSaveAndNamesIt() throws {
        let notes = try makeContainer(model: try notesModel(transformer: "NobodyRegisteredThis"))
        let note = Note(context: notes.viewContext)
        note.text = "shopping"
        note.tags = ["milk"]
        XCTAssertNil(note.tags)
        let error = assertPersistenceError(.managedObjectValidation) { try notes.viewContext.save() }
        XCTAssertTrue(error?.message.contains("Note.tags is transformable with the value transformer 'NobodyRegisteredThis', which is not registered") ?? false,
                      error?.message ?? "")
        XCTAssertEqual(try storeRows("SELECT COUNT(*) FROM ZNOTE", in: notes).first?.first, .integer(0), "nothing is written")
    }

    func testATransformerThatDoesNotMakeDataFailsTheSave() throws {
        let notes = try makeContainer(model: try notesModel(transformer: "BrokenTransformer"))
        let note = Note(context: notes.viewContext)
        note.text = "shopping"
        note.tags = ["milk"]
        let error = assertPersistenceError(.managedObjectValidation) { try notes.viewContext.save() }
        XCTAssertTrue(error?.message.contains("'BrokenTransformer' must turn Array<String> into Data, but gave String") ?? false,
                      error?.message ?? "")
    }

    func testOnlyATransformableAttributeMayNameATransformer() {
        // One without a name uses the default transformer (DefaultTransformerTests).
        assertPersistenceError(.coreData) {
            _ = try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [
                AttributeDescription(name: "text", type: .string, valueTransformerName: "TagListTransformer"),
            ])])
        }
    }

    func testAModelFileWithATransformableAttributeLoadsAndWorks() throws {
        let model = try ManagedObjectModel(contentsOf: try ModelFixtures.url("Notes.xcdatamodel"),
                                           managedObjectClasses: [Note.self])
        let tags = try XCTUnwrap(model.entitiesByName["Note"]?.attributesByName["tags"])
        XCTAssertEqual(tags.attributeType, .transformable)
        XCTAssertEqual(tags.valueTransformerName, "TagListTransformer")
        XCTAssertEqual(model.versionHash, try notesModel().versionHash, "the same model as the one in code")
        let notes = try makeContainer(model: model)
        let note = Note(context: notes.viewContext)
        note.text = "packing"
        note.tags = ["passport", "charger"]
        try notes.viewContext.save()
        notes.viewContext.reset()
        let read = try notes.viewContext.fetch(FetchRequest<Note>(entityName: "Note")).first?.tags
        XCTAssertEqual(read, ["passport", "charger"])
    }
}
