import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) import Persistence
import XCTest

/// `EntityDescription`'s class methods that reach an entity by name through a context, as in Core Data.
final class EntityLookupTests: PersistenceTestCase {
    /// `entity(forEntityName:in:)`: "Returns the entity with the specified name from the managed object model
    /// associated with the specified managed object context's persistent store coordinator."
    func testEntityForNameReturnsTheEntityOfTheContextsModel() throws {
        let entity = try XCTUnwrap(EntityDescription.entity(forEntityName: "Movie", in: context))
        XCTAssertTrue(entity === container.managedObjectModel.entitiesByName["Movie"])
        XCTAssertTrue(entity.managedObjectClass == Movie.self)
        let child = ManagedObjectContext(.mainQueue)
        child.parent = context
        XCTAssertTrue(EntityDescription.entity(forEntityName: "Movie", in: child) === entity, "a child uses its parent's model")
    }

    func testEntityForAnUnknownNameIsNil() throws {
        XCTAssertNil(EntityDescription.entity(forEntityName: "Film", in: context))
        XCTAssertNil(EntityDescription.entity(forEntityName: "Movie", in: ManagedObjectContext(.mainQueue)),
                     "a context without a coordinator has no model")
    }

    /// `insertNewObject(forEntityName:into:)`: "Creates, configures, and returns an instance of the class for the
    /// entity with a given name."
    func testInsertNewObjectReturnsAnInsertedInstanceOfTheEntitysClass() throws {
        let object = EntityDescription.insertNewObject(forEntityName: "Movie", into: context)
        let movie = try XCTUnwrap(object as? Movie, "an instance of the entity's class, not a plain ManagedObject")
        XCTAssertTrue(movie.managedObjectContext === context)
        XCTAssertTrue(movie.isInserted)
        XCTAssertEqual(movie.year, 2000, "configured with the model's default values")
        movie.title = "Alien"
        try context.save()
        XCTAssertEqual(try storedCount("Movie", "title == 'Alien'"), 1)
    }

    func testInsertNewObjectOfAnEntityWithoutASubclassMakesAManagedObject() throws {
        let model = try ManagedObjectModel(entities: [EntityDescription(name: "Note", properties: [.attribute("text", .string)])])
        let notes = try makeContainer(model: model)
        let note = EntityDescription.insertNewObject(forEntityName: "Note", into: notes.viewContext)
        XCTAssertTrue(type(of: note) == ManagedObject.self)
        note.setValue("hello", forKey: "text")
        try notes.viewContext.save()
        XCTAssertEqual(try notes.viewContext.count(for: FetchRequest<ManagedObject>(entityName: "Note")), 1)
    }

    /// Core Data raises for an entity the model does not have; here the next save fails and names it.
    func testInsertingAnUnknownEntityFailsTheNextSaveNamingIt() throws {
        let object = EntityDescription.insertNewObject(forEntityName: "Film", into: context)
        XCTAssertNil(object.managedObjectContext, "nothing is inserted")
        let error = try XCTUnwrap(assertPersistenceError(.persistentStoreIncompatibleSchema) { try context.save() })
        XCTAssertEqual(error.entityName, "Film")
        XCTAssertTrue(error.message.contains("no entity named 'Film'") && error.message.contains("Movie"), error.message)
    }

    /// `NSManagedObject.entity()`: the entity of the class, from the loaded models.
    func testAClassFindsItsEntityInTheLoadedModels() {
        let entity = Movie.entity()
        XCTAssertEqual(entity.name, "Movie")
        XCTAssertTrue(entity.managedObjectClass == Movie.self)
        XCTAssertTrue(entity === container.managedObjectModel.entitiesByName["Movie"], "the newest model answers")
    }

    /// `NSFetchRequest()` with its `entity` set afterwards, as Core Data code writes it.
    func testARequestMadeWithoutAnEntityFetchesOnceItHasOne() throws {
        makeMovie("Heat")
        try context.save()
        let request = FetchRequest<Movie>()
        XCTAssertNil(request.entityName, "Core Data's entityName is optional: nil until the request has an entity")
        assertPersistenceError(.persistentStoreIncompatibleSchema) { _ = try context.fetch(request) }
        request.entity = Movie.entity()
        XCTAssertEqual(request.entityName, "Movie")
        XCTAssertEqual(try context.fetch(request).map(\.title), ["Heat"])
    }
}
