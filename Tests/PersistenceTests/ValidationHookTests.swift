import Foundation
@_spi(TestHarness) @testable import Persistence
import XCTest

/// `validateForInsert()`, `validateForUpdate()`, `validateForDelete()` and `validateValue(_:forKey:)`: called by
/// the save after the willSave rounds; the defaults apply the model's rules, overrides add the app's; an error
/// fails the save as it is, several combine into 1560.
final class ValidationHookTests: PersistenceTestCase {
    private typealias Country = HookModel.Country
    private typealias Mood = HookModel.Mood

    private struct TooGloomy: Error, Equatable {}

    override func makeModel() throws -> ManagedObjectModel { try HookModel.make() }

    override func setUpWithError() throws {
        HookModel.reset()
        try super.setUpWithError()
    }

    override func tearDownWithError() throws {
        HookModel.reset()
        try super.tearDownWithError()
    }

    @discardableResult
    private func makeMood(_ name: String, level: Int = 0) -> Mood {
        let mood = Mood(context: context)
        mood.name = name
        mood.level = level
        return mood
    }

    func testEachKindOfChangeGetsItsOwnValidation() throws {
        let calm = makeMood("calm")
        let glad = makeMood("glad")
        try context.save()
        XCTAssertEqual(Set(HookModel.log), ["validateForInsert Mood calm", "validateForInsert Mood glad"])
        HookModel.log = []
        calm.level = 2
        context.delete(glad)
        let new = makeMood("new")
        try context.save()
        XCTAssertEqual(HookModel.log.filter { !$0.hasPrefix("prepare") },
                       ["validateForDelete Mood glad", "validateForInsert Mood new", "validateForUpdate Mood calm"])
        _ = new
    }

    func testAnOverridesErrorFailsTheSaveAsItIsAndNothingIsWritten() throws {
        HookModel.behaviour["validateForInsert"] = { object in
            if (object as! Mood).level < 0 { throw TooGloomy() }
        }
        makeMood("low", level: -1)
        XCTAssertThrowsError(try context.save()) { error in
            XCTAssertEqual(error as? TooGloomy, TooGloomy(), "a single error is thrown unchanged")
        }
        XCTAssertEqual(try storedCount("Mood"), 0)
        XCTAssertTrue(context.hasChanges, "the context keeps its changes to fix")
    }

    func testTheDefaultImplementationStillAppliesTheModelsRules() throws {
        // An override that calls super gets the model's errors through it.
        let nameless = Mood(context: context)
        XCTAssertThrowsError(try nameless.validateForInsert()) { error in
            XCTAssertEqual((error as? PersistenceError)?.coreDataCode, .validationMissingMandatoryProperty)
        }
        XCTAssertEqual(HookModel.log, [], "super threw first")
    }

    func testSeveralErrorsCombineIntoMultipleErrorsWithTheDetails() throws {
        HookModel.behaviour["validateForInsert"] = { object in
            throw PersistenceError(.managedObjectValidation, "\((object as! Mood).name) is not a mood", object: object)
        }
        makeMood("rock")
        makeMood("stone")
        _ = Mood(context: context) // no name: the model's 1570
        XCTAssertThrowsError(try context.save()) { error in
            let error = error as! PersistenceError
            XCTAssertEqual(error.coreDataCode, .validationMultipleErrors)
            XCTAssertEqual(error.detailedErrors.count, 3)
            XCTAssertEqual(Set(error.detailedErrors.map(\.code)), [1550, 1570])
            let details = (error as NSError).userInfo[NSDetailedErrorsKey] as? [NSError]
            XCTAssertEqual(details?.count, 3)
        }
    }

    func testValidateForUpdateAndDeleteCanRefuse() throws {
        let calm = makeMood("calm")
        try context.save()
        HookModel.behaviour["validateForUpdate"] = { _ in throw TooGloomy() }
        calm.level = 3
        XCTAssertThrowsError(try context.save()) { XCTAssertEqual($0 as? TooGloomy, TooGloomy()) }
        context.rollback()
        HookModel.behaviour["validateForDelete"] = { _ in
            throw PersistenceError(.validationRelationshipDeniedDelete, "calm stays")
        }
        context.delete(calm)
        XCTAssertThrowsError(try context.save()) { XCTAssertEqual(($0 as? PersistenceError)?.coreDataCode, .validationRelationshipDeniedDelete) }
        XCTAssertEqual(try storedCount("Mood"), 1)
    }

    func testValidateValueIsCalledForEveryPropertyOfANewObjectAndTheChangedOnesOfAnUpdatedOne() throws {
        var seen: [String] = []
        HookModel.valueCheck = { value, key, _ in seen.append(key) }
        let country = Country(context: context)
        country.name = "Peru"
        let calm = makeMood("calm")
        calm.country = country
        try context.save()
        XCTAssertEqual(seen.sorted(), ["country", "level", "name"], "attributes and to-ones; to-manys by their counts")
        seen = []
        calm.level = 4
        try context.save()
        XCTAssertEqual(seen, ["level"])
    }

    func testValidateValueCanFailTheSaveWithTheValueItSaw() throws {
        HookModel.valueCheck = { value, key, mood in
            if key == "level", let level = value as? Int, level > 10 {
                throw PersistenceError(.managedObjectValidation, "level \(level) is too high", object: mood, key: key)
            }
        }
        let mood = makeMood("ecstatic", level: 11)
        XCTAssertThrowsError(try context.save()) { error in
            XCTAssertEqual((error as? PersistenceError)?.key, "level")
        }
        mood.level = 10
        XCTAssertNoThrow(try context.save())
        XCTAssertEqual(try storedCount("Mood"), 1)
    }

    func testValidateValueCalledDirectlyAppliesTheModelsRulesToTheGivenValue() throws {
        let mood = makeMood("calm")
        var name: Any? = nil
        XCTAssertThrowsError(try mood.validateValue(&name, forKey: "name")) { error in
            XCTAssertEqual((error as? PersistenceError)?.coreDataCode, .validationMissingMandatoryProperty)
        }
        var level: Any? = "high"
        XCTAssertThrowsError(try mood.validateValue(&level, forKey: "level")) { error in
            XCTAssertEqual((error as? PersistenceError)?.coreDataCode, .managedObjectValidation)
        }
        var wrongObject: Any? = makeMood("other")
        XCTAssertThrowsError(try mood.validateValue(&wrongObject, forKey: "country"))
        var good: Any? = 3
        XCTAssertNoThrow(try mood.validateValue(&good, forKey: "level"))
        var unknown: Any? = 1
        XCTAssertThrowsError(try mood.validateValue(&unknown, forKey: "colour"))
    }

    func testOverridesOfValidateValueAreFoundPerClass() {
        XCTAssertTrue(ManagedObjectOverrides.overridesValidateValue(Mood.self))
        XCTAssertFalse(ManagedObjectOverrides.overridesValidateValue(Country.self))
        XCTAssertFalse(ManagedObjectOverrides.overridesValidateValue(ManagedObject.self))
    }

    /// Core Data puts each validation error under NSDetailedErrorsKey as it was made: the app's own errors keep their
    /// domain, code and user info.
    func testSeveralOfTheAppsOwnErrorsAreKeptUnchangedInTheDetails() throws {
        HookModel.behaviour["validateForInsert"] = { object in
            let name = (object as! Mood).name
            throw NSError(domain: "com.example.moods", code: 42,
                          userInfo: [NSLocalizedDescriptionKey: "\(name) is too gloomy", NSValidationKeyErrorKey: "level",
                                     "MoodName": name])
        }
        makeMood("rain", level: -1)
        makeMood("fog", level: -2)
        XCTAssertThrowsError(try context.save()) { error in
            let error = error as NSError
            XCTAssertEqual(error.code, NSValidationMultipleErrorsError)
            let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
            XCTAssertEqual(details.count, 2)
            XCTAssertEqual(Set(details.map(\.domain)), ["com.example.moods"])
            XCTAssertEqual(Set(details.map(\.code)), [42])
            XCTAssertEqual(Set(details.compactMap { $0.userInfo["MoodName"] as? String }), ["rain", "fog"])
            XCTAssertEqual(Set(details.compactMap { $0.userInfo[NSValidationKeyErrorKey] as? String }), ["level"])
            XCTAssertEqual(Set(details.map(\.localizedDescription)), ["rain is too gloomy", "fog is too gloomy"])
        }
    }
}
