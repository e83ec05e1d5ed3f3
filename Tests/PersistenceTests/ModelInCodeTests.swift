import Foundation
@_spi(ModelBuilding) @_spi(ModelLoading) @_spi(TestHarness) import Persistence
import XCTest

/// A larder of jars, for the model built with Core Data's own API.
final class Larder: ManagedObject {
    @Managed var name: String
    @Managed var jars: Set<Jar>
}

final class Jar: ManagedObject {
    @Managed var label: String
    @Managed var grams: Int
    @Managed var larder: Larder?
}

/// A model built as Core Data builds one in code: `EntityDescription()`, `AttributeDescription()` and
/// `RelationshipDescription()` with their fields set, handed to `ManagedObjectModel()`; frozen once a coordinator
/// uses it.
final class ModelInCodeTests: PersistenceTestCase {
    private let reported = ReportedList<PersistenceError>()

    override func setUpWithError() throws {
        try super.setUpWithError()
        let reported = self.reported
        ManagedObjectModel.programmingErrorHandling = .report { reported.append($0) }
    }

    override func tearDownWithError() throws {
        ManagedObjectModel.programmingErrorHandling = .stop
        try super.tearDownWithError()
    }

    /// The pieces of the larder model, before any model holds them.
    private struct Pieces {
        let larder = EntityDescription()
        let jar = EntityDescription()
        let name = AttributeDescription()
        let label = AttributeDescription()
        let grams = AttributeDescription()
        let jars = RelationshipDescription()
        let larderOfJar = RelationshipDescription()

        init() {
            larder.name = "Larder"
            larder.managedObjectClassName = NSStringFromClass(Larder.self)
            jar.name = "Jar"
            jar.managedObjectClassName = NSStringFromClass(Jar.self)
            name.name = "name"
            name.attributeType = .stringAttributeType
            name.isOptional = false
            label.name = "label"
            label.attributeType = .stringAttributeType
            label.isOptional = false
            grams.name = "grams"
            grams.attributeType = .integer32AttributeType
            grams.defaultValue = 250
            jars.name = "jars"
            jars.destinationEntity = jar
            jars.deleteRule = .cascadeDeleteRule
            larderOfJar.name = "larder"
            larderOfJar.destinationEntity = larder
            larderOfJar.maxCount = 1
            jars.inverseRelationship = larderOfJar
            larderOfJar.inverseRelationship = jars
            larder.properties = [name, jars]
            jar.properties = [label, grams, larderOfJar]
        }

        func model() -> ManagedObjectModel {
            let model = ManagedObjectModel()
            model.entities = [larder, jar]
            return model
        }
    }

    /// The error a container's store load reports for `model`, or `nil` when it loads.
    private func loadError(_ model: ManagedObjectModel) -> PersistenceError? {
        do {
            _ = try makeContainer(model: model)
            return nil
        } catch {
            return error as? PersistenceError
        }
    }

    func testNewDescriptionsStartWithCoreDatasDefaults() {
        let attribute = AttributeDescription()
        XCTAssertEqual(attribute.name, "")
        XCTAssertEqual(attribute.attributeType, .undefinedAttributeType)
        XCTAssertTrue(attribute.isOptional)
        XCTAssertFalse(attribute.isTransient)
        XCTAssertNil(attribute.defaultValue)
        XCTAssertNil(attribute.valueTransformerName)
        XCTAssertFalse(attribute.allowsExternalBinaryDataStorage)

        let relationship = RelationshipDescription()
        XCTAssertEqual(relationship.maxCount, 0)
        XCTAssertEqual(relationship.minCount, 0)
        XCTAssertTrue(relationship.isToMany, "a new relationship's maxCount is 0, which is to-many")
        XCTAssertEqual(relationship.deleteRule, .nullifyDeleteRule)
        XCTAssertFalse(relationship.isOrdered)
        XCTAssertTrue(relationship.isOptional)
        XCTAssertNil(relationship.destinationEntity)
        XCTAssertNil(relationship.inverseRelationship)
        relationship.maxCount = 1
        XCTAssertFalse(relationship.isToMany, "maxCount 1 is a to-one")
        relationship.maxCount = 5
        XCTAssertTrue(relationship.isToMany)

        let entity = EntityDescription()
        XCTAssertNil(entity.name)
        XCTAssertEqual(entity.managedObjectClassName, NSStringFromClass(ManagedObject.self))
        XCTAssertTrue(entity.managedObjectClass == ManagedObject.self)
        XCTAssertFalse(entity.isAbstract)
        XCTAssertTrue(entity.properties.isEmpty)
        XCTAssertNil(entity.superentity)

        XCTAssertTrue(ManagedObjectModel().entities.isEmpty)
        XCTAssertTrue(reported.take().isEmpty)
    }

    func testABuiltModelStoresObjectsOfItsClasses() throws {
        let pieces = Pieces()
        let model = pieces.model()
        XCTAssertEqual(model.entitiesByName.keys.sorted(), ["Jar", "Larder"])
        XCTAssertTrue(pieces.jar.managedObjectClass == Jar.self)
        XCTAssertTrue(pieces.jar.attributesByName["grams"] === pieces.grams)
        XCTAssertTrue(pieces.larderOfJar.entity === pieces.jar)
        XCTAssertEqual(pieces.grams.defaultValue as? Int, 250)

        let container = try makeContainer(model: model)
        let context = container.viewContext
        let larder = Larder(context: context)
        larder.name = "Cellar"
        let jam = Jar(context: context)
        jam.label = "Jam"
        jam.larder = larder
        XCTAssertEqual(jam.grams, 250, "a new object starts with the attribute's default value")
        XCTAssertTrue(larder.jars.contains(jam), "setting one end sets its inverse")
        try context.save()

        let reader = container.newBackgroundContext()
        let labels = try reader.performAndWait {
            try reader.fetch(FetchRequest<Jar>(entityName: "Jar")).map { "\($0.label) \($0.grams) \($0.larder?.name ?? "-")" }
        }
        XCTAssertEqual(labels, ["Jam 250 Cellar"])
        context.delete(larder)
        try context.save()
        XCTAssertEqual(try container.viewContext.count(for: FetchRequest<Jar>(entityName: "Jar")), 0,
                       "the larder's cascade rule deletes its jars")
    }

    func testTheModelIsFrozenOnceACoordinatorUsesIt() throws {
        let pieces = Pieces()
        let model = pieces.model()
        pieces.grams.defaultValue = 500                 // still open: changes are taken
        XCTAssertEqual(pieces.grams.defaultValue as? Int, 500)
        XCTAssertTrue(reported.take().isEmpty)

        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        pieces.label.isOptional = true
        pieces.jars.maxCount = 1
        pieces.jar.name = "Pot"
        pieces.larder.properties = [pieces.name]
        model.entities = [pieces.larder]
        let messages = reported.take().map(\.message)
        XCTAssertEqual(messages.count, 5, "\(messages)")
        XCTAssertTrue(messages.allSatisfy { $0.hasPrefix("Can't modify an immutable model") }, "\(messages)")
        XCTAssertFalse(pieces.label.isOptional)
        XCTAssertTrue(pieces.jars.isToMany)
        XCTAssertEqual(pieces.jar.name, "Jar")
        XCTAssertEqual(pieces.larder.properties.count, 2)
        XCTAssertEqual(coordinator.managedObjectModel.entities.count, 2)
    }

    func testAClassNameNoClassAnswersToLeavesPlainObjectsAndAWarning() throws {
        let note = EntityDescription()
        note.name = "Note"
        note.managedObjectClassName = "Pantry.Note"
        XCTAssertTrue(note.managedObjectClass == ManagedObject.self)
        let text = AttributeDescription()
        text.name = "text"
        text.attributeType = .stringAttributeType
        note.properties = [text]
        let model = ManagedObjectModel()
        model.entities = [note]
        let container = try makeContainer(model: model)
        XCTAssertTrue(model.warnings.contains { $0.contains("no class named 'Pantry.Note'") }, "\(model.warnings)")
        let object = EntityDescription.insertNewObject(forEntityName: "Note", into: container.viewContext)
        XCTAssertTrue(type(of: object) == ManagedObject.self)
    }

    func testTheSameModelBuiltEitherWayHasTheSameVersionHashes() throws {
        let built = Pieces().model()
        let shorthand = try ManagedObjectModel(entities: [
            EntityDescription(name: "Larder", managedObjectClass: Larder.self, properties: [
                .attribute("name", .string, optional: false),
                .toMany("jars", "Jar", inverse: "larder", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Jar", managedObjectClass: Jar.self, properties: [
                .attribute("label", .string, optional: false),
                .attribute("grams", .integer32, defaultValue: 250),
                .toOne("larder", "Larder", inverse: "jars"),
            ]),
        ])
        XCTAssertEqual(built.entityVersionHashesByName, shorthand.entityVersionHashesByName)
        XCTAssertEqual(built.versionChecksum, shorthand.versionChecksum)
        _ = try makeContainer(model: built)
        XCTAssertEqual(built.entityVersionHashesByName, shorthand.entityVersionHashesByName, "freezing changes no hash")
        let toOne = try XCTUnwrap(shorthand.entitiesByName["Jar"]?.relationshipsByName["larder"])
        XCTAssertEqual(toOne.maxCount, 1, "a to-one keeps maxCount 1, as Core Data does")

        let other = Pieces()
        other.larderOfJar.maxCount = 0
        XCTAssertNotEqual(other.model().entityVersionHashesByName["Jar"], built.entityVersionHashesByName["Jar"])
    }

    func testMistakesFailEveryStoreTheCoordinatorLoads() {
        // An inverse that does not point back is no mistake Core Data stops at: it loads, and the model warns.
        let oneSided = Pieces()
        oneSided.larderOfJar.inverseRelationship = nil
        let oneSidedModel = oneSided.model()
        XCTAssertNil(loadError(oneSidedModel))
        XCTAssertEqual(oneSidedModel.warnings.filter { $0.contains("does not point back") }.count, 1, "\(oneSidedModel.warnings)")

        let untyped = Pieces()
        untyped.grams.attributeType = .undefinedAttributeType
        XCTAssertTrue(loadError(untyped.model())?.message.contains("has no type") == true)

        let stranger = Pieces()
        let shelf = EntityDescription()                // in no model (the relationship holds it unowned, as Core Data's)
        shelf.name = "Shelf"
        stranger.jars.destinationEntity = shelf
        XCTAssertTrue(loadError(stranger.model())?.message.contains("not an entity of this model") == true)
        withExtendedLifetime(shelf) {}

        let wrongDefault = Pieces()
        wrongDefault.grams.defaultValue = "heavy"
        XCTAssertTrue(loadError(wrongDefault.model())?.message.contains("is not a integer32 value") == true)

        let unnamed = Pieces()
        unnamed.jar.name = nil
        XCTAssertTrue(loadError(unnamed.model())?.message.contains("has no name") == true)

        let toOneForASet = Pieces()
        toOneForASet.jars.maxCount = 1             // the class declares Set<Jar>
        XCTAssertNotNil(loadError(toOneForASet.model()))

        // A failed model stays open: mended, it loads.
        let mended = Pieces()
        mended.grams.attributeType = .undefinedAttributeType
        let model = mended.model()
        XCTAssertNotNil(loadError(model))
        mended.grams.attributeType = .integer32AttributeType
        XCTAssertNil(loadError(model))
        XCTAssertTrue(reported.take().isEmpty)
    }

    func testSubentitiesInheritPropertiesAndConstraints() throws {
        let pieces = Pieces()
        let preserve = EntityDescription()
        preserve.name = "Preserve"
        preserve.managedObjectClassName = NSStringFromClass(Jar.self)   // the parent's class, as Larder.jars needs
        let fruit = AttributeDescription()
        fruit.name = "fruit"
        fruit.attributeType = .stringAttributeType
        preserve.properties = [fruit]
        pieces.jar.subentities = [preserve]
        pieces.jar.uniquenessConstraints = [[pieces.label]]
        XCTAssertTrue(preserve.superentity === pieces.jar)
        XCTAssertEqual(preserve.properties.map(\.name), ["label", "grams", "larder", "fruit"])
        XCTAssertEqual(preserve.uniquenessConstraints.map { $0.compactMap { $0 as? String } }, [["label"]])

        let model = ManagedObjectModel()
        model.entities = [pieces.larder, pieces.jar, preserve]
        let container = try makeContainer(model: model)
        let context = container.viewContext
        let quince = EntityDescription.insertNewObject(forEntityName: "Preserve", into: context)
        quince.setValue("Quince", forKey: "label")
        quince.setValue("quince", forKey: "fruit")
        try context.save()
        XCTAssertEqual(try context.count(for: FetchRequest<ManagedObject>(entityName: "Jar")), 1,
                       "a fetch of the parent finds the subentity's objects")
    }
}
