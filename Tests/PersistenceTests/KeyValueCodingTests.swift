import Foundation
@_spi(TestHarness) import Persistence
import XCTest

/// `value(forKey:)` and `setValue(_:forKey:)` as in Core Data: setting never throws (it is called without `try`
/// throughout this suite); what is wrong is reported by the next save.
final class KeyValueCodingTests: PersistenceTestCase {
    /// "Sets the specified property of the managed object to the specified value."
    func testSetValueForKeySetsTheSpecifiedPropertyToTheSpecifiedValue() throws {
        let movie = makeMovie("Ran")
        let director = Director(context: context)
        director.name = "Akira Kurosawa"
        movie.setValue(1985, forKey: "year")
        movie.setValue(director, forKey: "director")
        director.setValue(Set([movie]), forKey: "movies")
        XCTAssertEqual(movie.year, 1985)
        XCTAssertTrue(movie.value(forKey: "director") as? Director === director)
        XCTAssertEqual(director.movies, [movie], "the inverse follows")
        try context.save()
        XCTAssertEqual(try storedCount("Movie", "year == 1985 AND director.name == %@", "Akira Kurosawa"), 1)
    }

    /// NSManagedObjectValidationError, "a generic validation error": a value of the wrong type is kept until the
    /// save, which fails naming the object, the key and the value.
    func testAValueOfTheWrongTypeFailsTheNextSaveWith1550() throws {
        let movie = makeMovie("Ran")
        movie.setValue("nineteen eighty-five", forKey: "year")
        XCTAssertEqual(movie.value(forKey: "year") as? String, "nineteen eighty-five", "kept as given until the save")
        let error: NSError
        do {
            try context.save()
            return XCTFail("a string in an integer attribute was saved")
        } catch let thrown {
            error = thrown as NSError
        }
        XCTAssertEqual(error.domain, NSCocoaErrorDomain)
        XCTAssertEqual(error.code, 1550)
        XCTAssertTrue(error.userInfo[NSValidationObjectErrorKey] as? Movie === movie)
        XCTAssertEqual(error.userInfo[NSValidationKeyErrorKey] as? String, "year")
        XCTAssertEqual(error.userInfo[NSValidationValueErrorKey] as? String, "nineteen eighty-five")
        XCTAssertEqual(try storedCount("Movie"), 0)

        movie.setValue(1985, forKey: "year")
        XCTAssertNoThrow(try context.save(), "setting a value that fits clears the error")
    }

    /// Core Data refuses "an illegal attempt to establish a relationship between objects in different contexts";
    /// here the relationship is not made and the next save says why.
    func testARelationshipToAnObjectOfAnotherContextFailsTheNextSave() throws {
        let director = Director(context: context)
        director.name = "Ridley Scott"
        try context.save()
        let other = container.newBackgroundContext()
        other.performAndWait {
            let movie = Movie(context: other)
            movie.title = "Alien"
            movie.setValue(director, forKey: "director")
            XCTAssertNil(movie.director)
            let error = assertPersistenceError(.coreData) { try other.save() }
            XCTAssertTrue(error?.message.contains("different contexts") == true, error?.message ?? "")
            XCTAssertTrue(error?.object === movie)
        }
    }

    /// Core Data raises NSUndefinedKeyException for a key the entity does not have. Here nothing changes, and the
    /// next save fails with an error that names the entity and the key (a raise would end the test run).
    func testAnUndefinedKeyIsAProgrammerErrorThatNamesTheEntityAndTheKey() throws {
        let movie = makeMovie("Ran")
        movie.setValue(162, forKey: "runtime")
        let error = try XCTUnwrap(assertPersistenceError(.persistentStoreIncompatibleSchema) { try context.save() })
        XCTAssertEqual(error.entityName, "Movie")
        XCTAssertEqual(error.key, "runtime")
        XCTAssertTrue(error.message.contains("entity Movie has no property named 'runtime'"), error.message)
        XCTAssertTrue(error.message.contains("title, year"), "the message lists the keys there are: \(error.message)")
        XCTAssertEqual(try storedCount("Movie"), 0)

        context.rollback()
        makeMovie("Ran")
        XCTAssertNoThrow(try context.save(), "rollback forgets the mistake")
    }

    /// Reading a key the entity does not have is the same mistake (Core Data raises NSUnknownKeyException from
    /// `value(forKey:)` through `value(forUndefinedKey:)`): it reads nil, and the next save fails naming the key.
    func testReadingAnUndefinedKeyFailsTheNextSave() throws {
        let movie = makeMovie("Ran")
        try context.save()
        XCTAssertNil(movie.value(forKey: "runtime"))
        movie.year = 1985
        let error = try XCTUnwrap(assertPersistenceError(.persistentStoreIncompatibleSchema) { try context.save() })
        XCTAssertEqual(error.key, "runtime")
        XCTAssertTrue(error.message.contains("value(forKey:): the entity Movie has no property named 'runtime'"), error.message)
        context.rollback()
        XCTAssertEqual(movie.value(forKey: "title") as? String, "Ran", "a key the entity has reads as always")
        XCTAssertNoThrow(try context.save(), "reading a real key is no mistake")
    }

    /// Setting `nil` (or `NSNull`) on a relationship empties it.
    func testSettingNilOnARelationshipEmptiesIt() throws {
        let movie = makeMovie("Alien")
        let actor = Actor(context: context)
        actor.name = "Sigourney Weaver"
        movie.actors = [actor]
        movie.setValue(NSNull(), forKey: "actors")
        XCTAssertEqual(movie.actors, [])
        XCTAssertEqual(actor.movies, [])
        try context.save()
    }
}
