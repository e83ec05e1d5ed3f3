// Core Data's error codes under Core Data's own names (`NSCocoaErrorDomain` codes, as `Int`), so that code comparing
// `(error as NSError).code == NSManagedObjectMergeError` compiles and reads the same here as on Apple platforms. Like
// the user-info keys beside them, they step aside where Core Data itself is available.
#if !canImport(CoreData)
/// A validation error with no more precise code (``PersistenceError/Code/managedObjectValidation``).
public let NSManagedObjectValidationError = PersistenceError.Code.managedObjectValidation.rawValue
/// Objects of one save clash on a uniqueness constraint (``PersistenceError/Code/managedObjectConstraintValidation``).
public let NSManagedObjectConstraintValidationError = PersistenceError.Code.managedObjectConstraintValidation.rawValue
/// Several validation errors at once, under `NSDetailedErrorsKey` (``PersistenceError/Code/validationMultipleErrors``).
public let NSValidationMultipleErrorsError = PersistenceError.Code.validationMultipleErrors.rawValue
/// A required property is nil (``PersistenceError/Code/validationMissingMandatoryProperty``).
public let NSValidationMissingMandatoryPropertyError = PersistenceError.Code.validationMissingMandatoryProperty.rawValue
/// A to-many relationship holds fewer objects than its minimum.
public let NSValidationRelationshipLacksMinimumCountError = PersistenceError.Code.validationRelationshipLacksMinimumCount.rawValue
/// A to-many relationship holds more objects than its maximum.
public let NSValidationRelationshipExceedsMaximumCountError = PersistenceError.Code.validationRelationshipExceedsMaximumCount.rawValue
/// A deny delete rule stopped a deletion.
public let NSValidationRelationshipDeniedDeleteError = PersistenceError.Code.validationRelationshipDeniedDelete.rawValue
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
/// An object refers to one that does not exist (``PersistenceError/Code/managedObjectReferentialIntegrity``).
public let NSManagedObjectReferentialIntegrityError = PersistenceError.Code.managedObjectReferentialIntegrity.rawValue
/// Another context saved the same objects first (``PersistenceError/Code/managedObjectMerge``, 133020).
public let NSManagedObjectMergeError = PersistenceError.Code.managedObjectMerge.rawValue
/// A new object clashes with a stored row on a uniqueness constraint (``PersistenceError/Code/managedObjectConstraintMerge``).
public let NSManagedObjectConstraintMergeError = PersistenceError.Code.managedObjectConstraintMerge.rawValue
/// The store is of an unknown type or missing (``PersistenceError/Code/persistentStoreInvalidType``).
public let NSPersistentStoreInvalidTypeError = PersistenceError.Code.persistentStoreInvalidType.rawValue
/// The store's schema is not the model's (``PersistenceError/Code/persistentStoreIncompatibleSchema``).
public let NSPersistentStoreIncompatibleSchemaError = PersistenceError.Code.persistentStoreIncompatibleSchema.rawValue
/// The store failed to save (``PersistenceError/Code/persistentStoreSave``).
public let NSPersistentStoreSaveError = PersistenceError.Code.persistentStoreSave.rawValue
/// A general Core Data error (``PersistenceError/Code/coreData``, 134060).
public let NSCoreDataError = PersistenceError.Code.coreData.rawValue
/// The model used to open the store is not the one that made it (``PersistenceError/Code/persistentStoreIncompatibleVersionHash``).
public let NSPersistentStoreIncompatibleVersionHashError = PersistenceError.Code.persistentStoreIncompatibleVersionHash.rawValue
/// A migration failed part-way; the store is as it was (``PersistenceError/Code/migration``, 134110).
public let NSMigrationError = PersistenceError.Code.migration.rawValue
/// No model version the app has wrote the store (``PersistenceError/Code/migrationMissingSourceModel``, 134130).
public let NSMigrationMissingSourceModelError = PersistenceError.Code.migrationMissingSourceModel.rawValue
/// No mapping could be inferred for a change (``PersistenceError/Code/migrationMissingMappingModel``, 134140).
public let NSMigrationMissingMappingModelError = PersistenceError.Code.migrationMissingMappingModel.rawValue
/// An inferred mapping model could not be made (``PersistenceError/Code/inferredMappingModel``, 134190).
public let NSInferredMappingModelError = PersistenceError.Code.inferredMappingModel.rawValue
#endif
