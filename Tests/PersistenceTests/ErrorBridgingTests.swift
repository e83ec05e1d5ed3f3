import Foundation
@_spi(ModelBuilding) @_spi(TestHarness) import Persistence
import XCTest

/// Errors read as `NSError` the way Core Data's do: `NSCocoaErrorDomain`, Core Data's code, Core Data's user-info
/// keys. Each test is named after the sentence in Apple's documentation that describes the code or key.
final class ErrorBridgingTests: PersistenceTestCase {
    /// The error `body` throws, as code written for Core Data sees it.
    private func nsError(file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) -> NSError? {
        do {
            try body()
            XCTFail("expected an error, but nothing was thrown", file: file, line: line)
            return nil
        } catch {
            let bridged = error as NSError
            XCTAssertEqual(bridged.domain, NSCocoaErrorDomain, file: file, line: line)
            XCTAssertEqual(bridged.userInfo[NSLocalizedDescriptionKey] as? String, (error as? PersistenceError)?.message,
                           "NSLocalizedDescription is the error's message", file: file, line: line)
            return bridged
        }
    }

    // MARK: - Validation: NSValidationObjectErrorKey, NSValidationKeyErrorKey, NSValidationValueErrorKey

    /// NSValidationMissingMandatoryPropertyError: "a non-optional property with a nil value".
    func testANonOptionalPropertyWithANilValueIs1570WithTheObjectKeyAndValue() throws {
        let movie = Movie(context: context)
        let error = try XCTUnwrap(nsError { try context.save() })
        XCTAssertEqual(error.code, 1570)
        XCTAssertTrue(error.userInfo[NSValidationObjectErrorKey] as? Movie === movie, "the object that failed to validate")
        XCTAssertEqual(error.userInfo[NSValidationKeyErrorKey] as? String, "title", "the key that failed to validate")
        XCTAssertTrue(error.userInfo[NSValidationValueErrorKey] is NSNull, "the value that failed validation: nil")
        XCTAssertEqual(error.localizedDescription, "Movie.title is required but is nil.")
    }

    /// NSManagedObjectValidationError, "a generic validation error": here, a value of the wrong type.
    func testAValueOfTheWrongTypeIs1550WithTheObjectKeyAndValue() throws {
        let movie = makeMovie("Ran")
        movie.setValue("1985", forKey: "year")
        let error = try XCTUnwrap(nsError { try context.save() })
        XCTAssertEqual(error.code, 1550)
        XCTAssertTrue(error.userInfo[NSValidationObjectErrorKey] as? Movie === movie)
        XCTAssertEqual(error.userInfo[NSValidationKeyErrorKey] as? String, "year")
        XCTAssertEqual(error.userInfo[NSValidationValueErrorKey] as? String, "1985")
    }

    /// NSValidationMultipleErrorsError and NSDetailedErrorsKey: "If multiple validation errors occur in one
    /// operation, they are collected in an array and added with this key to the top-level error of the operation."
    func testMultipleValidationErrorsAre1560WithEachErrorUnderNSDetailedErrors() throws {
        let untitled = Movie(context: context)
        let nameless = Director(context: context)
        let error = try XCTUnwrap(nsError { try context.save() })
        XCTAssertEqual(error.code, 1560)
        let details = try XCTUnwrap(error.userInfo[NSDetailedErrorsKey] as? [NSError])
        XCTAssertEqual(details.count, 2)
        XCTAssertEqual(Set(details.map(\.domain)), [NSCocoaErrorDomain])
        XCTAssertEqual(details.map(\.code), [1570, 1570])
        let objects = details.compactMap { $0.userInfo[NSValidationObjectErrorKey] as? ManagedObject }
        XCTAssertEqual(Set(objects.map(ObjectIdentifier.init)), [ObjectIdentifier(untitled), ObjectIdentifier(nameless)])
        XCTAssertEqual(Set(details.compactMap { $0.userInfo[NSValidationKeyErrorKey] as? String }), ["title", "name"])
        XCTAssertNil(error.userInfo[NSValidationObjectErrorKey], "the top-level error names no single object")
    }

    /// NSValidationRelationshipDeniedDeleteError: "some relationship with delete rule NSDeleteRuleDeny is non-empty".
    func testDeletingAnObjectWhoseDenyRelationshipIsNotEmptyIs1600() throws {
        let studio = Studio(context: context)
        studio.name = "Brandywine"
        makeMovie("Alien").studio = studio
        try context.save()
        context.delete(studio)
        let error = try XCTUnwrap(nsError { try context.save() })
        XCTAssertEqual(error.code, 1600)
        XCTAssertTrue(error.userInfo[NSValidationObjectErrorKey] as? Studio === studio)
        XCTAssertEqual(error.userInfo[NSValidationKeyErrorKey] as? String, "movies")
    }

    /// NSManagedObjectConstraintValidationError: a uniqueness constraint broken among the objects of one save; the
    /// clash is in the conflict list, with its source object.
    func testObjectsOfOneSaveBreakingAUniquenessConstraintAre1551WithTheConflictList() throws {
        let first = makeMovie("Alien", year: 1979)
        let second = makeMovie("Alien", year: 1979)
        let error = try XCTUnwrap(nsError { try context.save() })
        XCTAssertEqual(error.code, 1551)
        let conflicts = try XCTUnwrap(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [MergeConflict])
        XCTAssertEqual(conflicts.count, 1)
        XCTAssertEqual(conflicts[0].constraint, ["title", "year"])
        XCTAssertTrue(conflicts[0].sourceObject === first || conflicts[0].sourceObject === second)
        XCTAssertEqual(Set(conflicts[0].conflictingObjectIDs), [first.objectID, second.objectID])
    }

    // MARK: - Merging: conflictList

    /// NSManagedObjectMergeError: "a merge policy failed — Core Data is unable to complete merging"; the conflicts
    /// are under NSPersistentStoreSaveConflictsErrorKey, each with its source object, versions and snapshots.
    func testAStaleSaveUnderTheErrorPolicyIs133020WithEachConflictAndItsSourceObject() throws {
        let movie = makeMovie("Alien", year: 1979)
        try context.save()
        try changeElsewhere(movie.objectID) { $0.rating = 8.5 }
        movie.rating = 7
        let error = try XCTUnwrap(nsError { try context.save() })
        XCTAssertEqual(error.code, 133_020)
        XCTAssertEqual(error.localizedDescription, "Could not merge changes.")
        XCTAssertNotNil(error.userInfo["conflictList"], "Core Data's key for the conflicts is the string conflictList")
        let conflicts = try XCTUnwrap(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [MergeConflict])
        XCTAssertEqual(conflicts.count, 1)
        XCTAssertTrue(conflicts[0].sourceObject === movie)
        XCTAssertEqual(conflicts[0].oldVersionNumber, 1)
        XCTAssertEqual(conflicts[0].newVersionNumber, 2)
        XCTAssertEqual(conflicts[0].persistedSnapshot?["rating"] as? Double, 8.5)
    }

    /// NSManagedObjectConstraintMergeError: a save clashes with a stored row under a uniqueness constraint.
    func testAClashWithAStoredRowOnAUniquenessConstraintIs133021WithTheConflictList() throws {
        let stored = makeMovie("Alien", year: 1979)
        try context.save()
        let newcomer = makeMovie("Alien", year: 1979)
        let error = try XCTUnwrap(nsError { try context.save() })
        XCTAssertEqual(error.code, 133_021)
        let conflicts = try XCTUnwrap(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [MergeConflict])
        XCTAssertTrue(conflicts.first?.sourceObject === newcomer)
        XCTAssertEqual(conflicts.first?.conflictingObjectIDs, [stored.objectID])
        XCTAssertNil(error.userInfo[NSAffectedObjectsErrorKey], "the object is in the conflict list")
    }

    // MARK: - Other errors: NSAffectedObjectsErrorKey, the store's URL

    /// NSManagedObjectReferentialIntegrityError: "an attempt to fire a fault pointing to an object that does not
    /// exist"; the object is under NSAffectedObjectsErrorKey.
    func testFiringAFaultWhoseRowIsGoneIs133000WithTheAffectedObject() throws {
        let alien = makeMovie("Alien")
        try context.save()
        let id = alien.objectID
        try deleteElsewhere(id)
        let strict = container.newBackgroundContext()
        strict.shouldDeleteInaccessibleFaults = false
        strict.performAndWait {
            let fault = strict.object(with: id)
            _ = fault.value(forKey: "title")
            guard let error = nsError({ try strict.save() }) else { return }
            XCTAssertEqual(error.code, 133_000)
            let affected = error.userInfo[NSAffectedObjectsErrorKey] as? [ManagedObject]
            XCTAssertEqual(affected?.count, 1)
            XCTAssertTrue(affected?.first === fault)
            XCTAssertNil(error.userInfo[NSValidationObjectErrorKey], "not a validation error")
        }
    }

    /// NSPersistentStoreInvalidTypeError: "an unknown persistent store type/format/version".
    func testAStoreURLThatIsNotAFileIs134000() throws {
        let url = try XCTUnwrap(URL(string: "https://example.com/films.sqlite"))
        let error = try XCTUnwrap(nsError { _ = try makeContainer(url: url) })
        XCTAssertEqual(error.code, 134_000)
        XCTAssertEqual(error.userInfo[NSURLErrorKey] as? URL, url)
    }

    /// NSPersistentStoreIncompatibleVersionHashError: "the persistent store is incompatible with the current
    /// managed object model".
    func testAStoreMadeWithAnotherModelIs134100WithItsPath() throws {
        let url = try temporaryFolder().appendingPathComponent("films.sqlite")
        _ = try makeContainer(url: url)
        let otherModel = try ManagedObjectModel(entities: [
            EntityDescription(name: "Movie", properties: [.attribute("title", .string), .attribute("minutes", .integer32)]),
        ])
        let container = PersistentContainer(name: "Films", managedObjectModel: otherModel)
        let description = PersistentStoreDescription(url: url)
        description.shouldMigrateStoreAutomatically = false
        container.persistentStoreDescriptions = [description]
        nonisolated(unsafe) var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        let error = try XCTUnwrap(loadError as? PersistenceError) as NSError
        XCTAssertEqual(error.code, 134_100)
        XCTAssertEqual(error.userInfo[NSFilePathErrorKey] as? String, url.path)
    }

    /// The Swift-typed properties stay: the same facts without a cast.
    func testTheSwiftPropertiesCarryWhatTheUserInfoCarries() throws {
        let movie = Movie(context: context)
        do {
            try context.save()
            XCTFail("the save should fail")
        } catch let error as PersistenceError {
            XCTAssertEqual(error.coreDataCode, .validationMissingMandatoryProperty)
            XCTAssertTrue(error.object === movie)
            XCTAssertEqual(error.objectID, movie.objectID)
            XCTAssertEqual(error.key, "title")
            XCTAssertEqual(error.value, .null)
        }
    }

    func testCoreDatasCodeConstantsHaveCoreDatasNumbers() {
        XCTAssertEqual([NSManagedObjectValidationError, NSManagedObjectConstraintValidationError, NSValidationMultipleErrorsError,
                        NSValidationMissingMandatoryPropertyError, NSValidationRelationshipLacksMinimumCountError,
                        NSValidationRelationshipExceedsMaximumCountError, NSValidationRelationshipDeniedDeleteError],
                       [1550, 1551, 1560, 1570, 1580, 1590, 1600])
        XCTAssertEqual([NSValidationNumberTooLargeError, NSValidationNumberTooSmallError, NSValidationDateTooLateError,
                        NSValidationDateTooSoonError, NSValidationInvalidDateError, NSValidationStringTooLongError,
                        NSValidationStringTooShortError, NSValidationStringPatternMatchingError, NSValidationInvalidURIError],
                       [1610, 1620, 1630, 1640, 1650, 1660, 1670, 1680, 1690])
        XCTAssertEqual([NSManagedObjectReferentialIntegrityError, NSManagedObjectMergeError, NSManagedObjectConstraintMergeError,
                        NSPersistentStoreInvalidTypeError, NSPersistentStoreIncompatibleSchemaError, NSPersistentStoreSaveError,
                        NSCoreDataError, NSPersistentStoreIncompatibleVersionHashError],
                       [133_000, 133_020, 133_021, 134_000, 134_020, 134_030, 134_060, 134_100])
        XCTAssertEqual([NSValidationObjectErrorKey, NSValidationKeyErrorKey, NSValidationValueErrorKey, NSValidationPredicateErrorKey],
                       ["NSValidationErrorObject", "NSValidationErrorKey", "NSValidationErrorValue", "NSValidationErrorPredicate"])
    }

    func testAMissingValueIsReportedUnderItsCoreDataConstant() throws {
        let movie = Movie(context: context)
        movie.setValue(nil, forKey: "title")
        XCTAssertThrowsError(try context.save()) { error in
            let bridged = error as NSError
            XCTAssertEqual(bridged.domain, NSCocoaErrorDomain)
            XCTAssertEqual(bridged.code, NSValidationMissingMandatoryPropertyError)
            XCTAssertEqual(bridged.userInfo[NSValidationKeyErrorKey] as? String, "title")
        }
    }

    // MARK: - How Apple code catches Core Data's errors: each pattern matches here, on Linux too

    func testCatchAsNSErrorWhereTheCodeMatches() {
        _ = Movie(context: context)
        var caught: Int?
        do {
            try context.save()
        } catch let error as NSError where error.code == NSValidationMissingMandatoryPropertyError {
            caught = error.code
        } catch {
            XCTFail("`catch let error as NSError where …` did not match \(error)")
        }
        XCTAssertEqual(caught, 1570)
    }

    func testConditionalCastToNSErrorSucceeds() {
        _ = Movie(context: context)
        XCTAssertThrowsError(try context.save()) { error in
            // Through Any, so the cast is made at run time (the compiler takes any Error to NSError as certain, and
            // on Linux it is not: a Swift error type fails it).
            let thrown: Any = error
            XCTAssertEqual((thrown as? NSError)?.code, 1570, "`error as? NSError` is never nil, as on Apple")
            XCTAssertTrue(thrown is NSError)
        }
    }

    func testCatchAsCocoaErrorWithCoreDatasCodeNamesAndUserInfoReaders() {
        let movie = Movie(context: context)
        var matched = false
        do {
            try context.save()
        } catch let error as CocoaError where error.code == .validationMissingMandatoryProperty {
            matched = true
            XCTAssertEqual(error.validationKey, "title")
            XCTAssertTrue(error.validationObject as? Movie === movie)
            XCTAssertTrue(error.validationValue is NSNull)
        } catch {
            XCTFail("`catch let error as CocoaError where …` did not match \(error)")
        }
        XCTAssertTrue(matched)
    }

    func testCatchACocoaErrorCodePattern() {
        _ = Movie(context: context)
        var matched = false
        do {
            try context.save()
        } catch CocoaError.managedObjectMerge {
            XCTFail("133020 matched a 1570")
        } catch CocoaError.validationMissingMandatoryProperty {
            matched = true
        } catch {
            XCTFail("`catch CocoaError.validationMissingMandatoryProperty` did not match \(error)")
        }
        XCTAssertTrue(matched)
    }

    func testTheOverlaysCodeNamesHaveCoreDatasNumbers() {
        XCTAssertEqual([CocoaError.Code.managedObjectValidation, .validationMultipleErrors,
                        .validationMissingMandatoryProperty, .managedObjectReferentialIntegrity, .managedObjectMerge,
                        .managedObjectConstraintMerge, .persistentStoreIncompatibleVersionHash, .coreData,
                        .migrationMissingSourceModel].map(\.rawValue),
                       [NSManagedObjectValidationError, NSValidationMultipleErrorsError,
                        NSValidationMissingMandatoryPropertyError, NSManagedObjectReferentialIntegrityError,
                        NSManagedObjectMergeError, NSManagedObjectConstraintMergeError,
                        NSPersistentStoreIncompatibleVersionHashError, NSCoreDataError, NSMigrationMissingSourceModelError])
        XCTAssertEqual(CocoaError.managedObjectMerge, CocoaError.Code.managedObjectMerge)
    }
}
