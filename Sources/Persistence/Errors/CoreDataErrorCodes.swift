// Core Data's error codes under Core Data's own names (`NSCocoaErrorDomain` codes, as `Int`), so that code comparing
// `(error as NSError).code == NSManagedObjectMergeError` compiles and reads the same here as on Apple platforms. Like
// the user-info keys beside them, they step aside where Core Data itself is available.
#if !canImport(CoreData)
/// A validation error with no more precise code (`CocoaError.Code.managedObjectValidation`).
public let NSManagedObjectValidationError = CocoaError.Code.managedObjectValidation.rawValue
/// Objects of one save clash on a uniqueness constraint (`CocoaError.Code.managedObjectConstraintValidation`).
public let NSManagedObjectConstraintValidationError = CocoaError.Code.managedObjectConstraintValidation.rawValue
/// Several validation errors at once, under `NSDetailedErrorsKey` (`CocoaError.Code.validationMultipleErrors`).
public let NSValidationMultipleErrorsError = CocoaError.Code.validationMultipleErrors.rawValue
/// A required property is nil (`CocoaError.Code.validationMissingMandatoryProperty`).
public let NSValidationMissingMandatoryPropertyError = CocoaError.Code.validationMissingMandatoryProperty.rawValue
/// A to-many relationship holds fewer objects than its minimum.
public let NSValidationRelationshipLacksMinimumCountError = CocoaError.Code.validationRelationshipLacksMinimumCount.rawValue
/// A to-many relationship holds more objects than its maximum.
public let NSValidationRelationshipExceedsMaximumCountError = CocoaError.Code.validationRelationshipExceedsMaximumCount.rawValue
/// A deny delete rule stopped a deletion.
public let NSValidationRelationshipDeniedDeleteError = CocoaError.Code.validationRelationshipDeniedDelete.rawValue
/// A number above its attribute's maximum. Persistence models no value ranges, so never reports it.
public let NSValidationNumberTooLargeError = 1610
/// A number below its attribute's minimum; never reported here, as above.
public let NSValidationNumberTooSmallError = 1620
/// A date after its attribute's maximum; never reported here, as above.
public let NSValidationDateTooLateError = 1630
/// A date before its attribute's minimum; never reported here, as above.
public let NSValidationDateTooSoonError = 1640
/// A value that is not a date for a date attribute; never reported here (a date attribute holds dates only).
public let NSValidationInvalidDateError = 1650
/// A string longer than its attribute's maximum length; never reported here, as above.
public let NSValidationStringTooLongError = 1660
/// A string shorter than its attribute's minimum length; never reported here, as above.
public let NSValidationStringTooShortError = 1670
/// A string that does not match its attribute's pattern; never reported here, as above.
public let NSValidationStringPatternMatchingError = 1680
/// A URI attribute's value that is not a valid URI; never reported here (a URI attribute holds URLs only).
public let NSValidationInvalidURIError = 1690
/// An object refers to one that does not exist (`CocoaError.Code.managedObjectReferentialIntegrity`).
public let NSManagedObjectReferentialIntegrityError = CocoaError.Code.managedObjectReferentialIntegrity.rawValue
/// Another context saved the same objects first (`CocoaError.Code.managedObjectMerge`, 133020).
public let NSManagedObjectMergeError = CocoaError.Code.managedObjectMerge.rawValue
/// A new object clashes with a stored row on a uniqueness constraint (`CocoaError.Code.managedObjectConstraintMerge`).
public let NSManagedObjectConstraintMergeError = CocoaError.Code.managedObjectConstraintMerge.rawValue
/// The store is of an unknown type or missing (`CocoaError.Code.persistentStoreInvalidType`).
public let NSPersistentStoreInvalidTypeError = CocoaError.Code.persistentStoreInvalidType.rawValue
/// The store's schema is not the model's (`CocoaError.Code.persistentStoreIncompatibleSchema`).
public let NSPersistentStoreIncompatibleSchemaError = CocoaError.Code.persistentStoreIncompatibleSchema.rawValue
/// The store failed to save (`CocoaError.Code.persistentStoreSave`).
public let NSPersistentStoreSaveError = CocoaError.Code.persistentStoreSave.rawValue
/// A general Core Data error (`CocoaError.Code.coreData`, 134060).
public let NSCoreDataError = CocoaError.Code.coreData.rawValue
/// The model used to open the store is not the one that made it (`CocoaError.Code.persistentStoreIncompatibleVersionHash`).
public let NSPersistentStoreIncompatibleVersionHashError = CocoaError.Code.persistentStoreIncompatibleVersionHash.rawValue
/// A migration failed part-way; the store is as it was (`CocoaError.Code.migration`, 134110).
public let NSMigrationError = CocoaError.Code.migration.rawValue
/// No model version the app has wrote the store (`CocoaError.Code.migrationMissingSourceModel`, 134130).
public let NSMigrationMissingSourceModelError = CocoaError.Code.migrationMissingSourceModel.rawValue
/// No mapping could be inferred for a change (`CocoaError.Code.migrationMissingMappingModel`, 134140).
public let NSMigrationMissingMappingModelError = CocoaError.Code.migrationMissingMappingModel.rawValue
/// An inferred mapping model could not be made (`CocoaError.Code.inferredMappingModel`, 134190).
public let NSInferredMappingModelError = CocoaError.Code.inferredMappingModel.rawValue
/// A history request's token is older than the history the store still has (134301): the transactions after it were
/// purged, so the reader has missed changes.
public let NSPersistentHistoryTokenExpiredError = CocoaError.Code.persistentHistoryTokenExpired.rawValue
#endif
