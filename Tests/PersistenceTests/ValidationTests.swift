import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) @testable import Persistence
import XCTest

final class ValidationTests: PersistenceTestCase {
    func testAMissingMandatoryAttributeFailsWith1570() throws {
        _ = Movie(context: context)
        let error = assertPersistenceError(.validationMissingMandatoryProperty) { try context.save() }
        XCTAssertEqual(error?.key, "title")
        XCTAssertEqual(error?.entityName, "Movie")
        XCTAssertEqual(try storedCount("Movie"), 0)
    }

    func testSeveralProblemsFailWith1560AndListEachObjectAndKey() throws {
        _ = Movie(context: context)
        _ = Director(context: context)
        let scene = Scene(context: context)
        scene.summary = "no number"
        let error = assertPersistenceError(.validationMultipleErrors) { try context.save() }
        let details = (error?.detailedErrors ?? []).compactMap { $0 as? PersistenceError }
        XCTAssertEqual(details.count, 3)
        XCTAssertEqual(Set(details.map { "\($0.entityName!).\($0.key!)" }), ["Movie.title", "Director.name", "Scene.number"])
        XCTAssertTrue(details.allSatisfy { $0.coreDataCode == .validationMissingMandatoryProperty && $0.objectID != nil })
    }

    func testAValueTooLargeForItsAttributeFailsAtSave() throws {
        let sample = Sample(context: context)
        sample.small = 10
        try context.save()
        // Int16 keeps the typed setter in range, so go through a wider type by key: kept, then refused at save.
        sample.setValue(70_000, forKey: "small")
        let error = assertPersistenceError(.managedObjectValidation) { try context.save() }
        XCTAssertEqual(error?.key, "small")
        XCTAssertEqual(error?.value, .integer(70_000))
    }

    func testTwoNewObjectsBreakingAUniquenessConstraintFailWith1551() throws {
        makeMovie("Alien", year: 1979)
        makeMovie("Alien", year: 1979)
        makeMovie("Alien", year: 1986)
        let error = assertPersistenceError(.managedObjectConstraintValidation) { try context.save() }
        XCTAssertEqual(error?.conflicts.first?.constraint, ["title", "year"])
        XCTAssertEqual(error?.conflicts.first?.conflictingObjectIDs.count, 2)
        XCTAssertEqual(try storedCount("Movie"), 0)
    }

    func testAClashWithAStoredRowFailsWith133021AndWritesNothing() throws {
        makeMovie("Alien", year: 1979)
        try context.save()
        makeMovie("Heat", year: 1995)
        let duplicate = makeMovie("Alien", year: 1979)
        let error = assertPersistenceError(.managedObjectConstraintMerge) { try context.save() }
        XCTAssertEqual(error?.conflicts.first?.constraint, ["title", "year"])
        XCTAssertEqual(error?.conflicts.first?.conflictingObjectIDs.count, 1)
        XCTAssertEqual(try storedCount("Movie"), 1, "Heat was not written either: a save is all or nothing")
        XCTAssertTrue(duplicate.isInserted, "the context keeps its changes so they can be fixed")

        duplicate.year = 1992
        XCTAssertNoThrow(try context.save())
        XCTAssertEqual(try storedCount("Movie"), 3)
    }

    func testNilsNeverClashUnderAConstraint() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Tag", properties: [.attribute("code", .string)], uniquenessConstraints: [["code"]]),
        ])
        let tags = try makeContainer(model: model)
        for _ in 0..<2 { _ = ManagedObject(entity: model.entitiesByName["Tag"]!, insertInto: tags.viewContext) }
        XCTAssertNoThrow(try tags.viewContext.save())
    }

    func testARequiredToOneAndToManyCounts() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Team", properties: [.toMany("players", "Player", inverse: "team", optional: false,
                                                                 minCount: 1, maxCount: 2)]),
            EntityDescription(name: "Player", properties: [.toOne("team", "Team", inverse: "players", optional: false)]),
        ])
        let league = try makeContainer(model: model)
        let context = league.viewContext
        let team = ManagedObject(entity: model.entitiesByName["Team"]!, insertInto: context)
        let player = ManagedObject(entity: model.entitiesByName["Player"]!, insertInto: context)
        let errors = assertPersistenceError(.validationMultipleErrors) { try context.save() }?.detailedErrors ?? []
        XCTAssertEqual(Set(errors.map(\.code)), [NSValidationMissingMandatoryPropertyError, NSValidationRelationshipLacksMinimumCountError])

        player.setValue(team, forKey: "team")
        XCTAssertNoThrow(try context.save())

        for _ in 0..<2 {
            let extra = ManagedObject(entity: model.entitiesByName["Player"]!, insertInto: context)
            extra.setValue(team, forKey: "team")
        }
        assertPersistenceError(.validationRelationshipExceedsMaximumCount) { try context.save() }
    }

    /// A required to-many with no minimum may be empty: Apple's minimum of 0 "means undefined", and a to-many's
    /// value, a set, is never nil. Real apps rely on it (a country kept, empty, until a later save removes it).
    func testARequiredToManyWithNoMinimumMayBeEmpty() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Country", properties: [.toMany("moods", "Mood", inverse: "country", optional: false)]),
            EntityDescription(name: "Mood", properties: [.toOne("country", "Country", inverse: "moods")]),
        ])
        let context = try makeContainer(model: model).viewContext
        let country = ManagedObject(entity: model.entitiesByName["Country"]!, insertInto: context)
        let mood = ManagedObject(entity: model.entitiesByName["Mood"]!, insertInto: context)
        mood.setValue(country, forKey: "country")
        try context.save()
        context.delete(mood)
        XCTAssertNoThrow(try context.save(), "the country is saved with no moods")
        XCTAssertEqual((country.value(forKey: "moods") as? Set<ManagedObject>)?.count, 0)
    }

    /// Apple: "The counts are only enforced if the relationship value in the containing object is not nil. That
    /// is, optional relationships may have zero objects in the relationship, which might be less than the minimum
    /// count."
    func testAnOptionalToManyMayBeEmptyWhateverItsMinimum() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Crew", properties: [.toMany("members", "Member", inverse: "crew", minCount: 2)]),
            EntityDescription(name: "Member", properties: [.toOne("crew", "Crew", inverse: "members")]),
        ])
        let context = try makeContainer(model: model).viewContext
        let crew = ManagedObject(entity: model.entitiesByName["Crew"]!, insertInto: context)
        XCTAssertNoThrow(try context.save(), "empty: the minimum does not apply")
        let member = ManagedObject(entity: model.entitiesByName["Member"]!, insertInto: context)
        member.setValue(crew, forKey: "crew")
        assertPersistenceError(.validationRelationshipLacksMinimumCount) { try context.save() }
        let second = ManagedObject(entity: model.entitiesByName["Member"]!, insertInto: context)
        second.setValue(crew, forKey: "crew")
        XCTAssertNoThrow(try context.save())
    }

    func testAFailedSaveLeavesTheStoreExactlyAsItWas() throws {
        let kept = makeMovie("Kept", year: 1)
        try context.save()
        kept.rating = 5
        makeMovie("New", year: 2)
        _ = Director(context: context)   // invalid: no name
        assertPersistenceError(.validationMissingMandatoryProperty) { try context.save() }
        XCTAssertEqual(try storedCount("Movie"), 1)
        XCTAssertEqual(try storedCount("Movie", "rating == nil"), 1)
    }
}
