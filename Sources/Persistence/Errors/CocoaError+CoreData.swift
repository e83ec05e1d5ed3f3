import Foundation

// Core Data's additions to Foundation's `CocoaError`, as Apple's Core Data overlay declares them for Swift: its codes
// by name on `CocoaError.Code` and on `CocoaError` (so `catch let e as CocoaError where e.code == .managedObjectMerge`
// and `catch CocoaError.managedObjectMerge` compile), and the user-info readers (`validationKey`…). Where Core Data
// itself is available it declares them, and these step aside.
#if !canImport(CoreData)
extension CocoaError.Code {
    /// 1550, Core Data's `NSManagedObjectValidationError`.
    public static var managedObjectValidation: CocoaError.Code { CocoaError.Code(rawValue: 1550) }
    /// 1560, Core Data's `NSValidationMultipleErrorsError`.
    public static var validationMultipleErrors: CocoaError.Code { CocoaError.Code(rawValue: 1560) }
    /// 1570, Core Data's `NSValidationMissingMandatoryPropertyError`.
    public static var validationMissingMandatoryProperty: CocoaError.Code { CocoaError.Code(rawValue: 1570) }
    /// 1580, Core Data's `NSValidationRelationshipLacksMinimumCountError`.
    public static var validationRelationshipLacksMinimumCount: CocoaError.Code { CocoaError.Code(rawValue: 1580) }
    /// 1590, Core Data's `NSValidationRelationshipExceedsMaximumCountError`.
    public static var validationRelationshipExceedsMaximumCount: CocoaError.Code { CocoaError.Code(rawValue: 1590) }
    /// 1600, Core Data's `NSValidationRelationshipDeniedDeleteError`.
    public static var validationRelationshipDeniedDelete: CocoaError.Code { CocoaError.Code(rawValue: 1600) }
    /// 1610, Core Data's `NSValidationNumberTooLargeError`.
    public static var validationNumberTooLarge: CocoaError.Code { CocoaError.Code(rawValue: 1610) }
    /// 1620, Core Data's `NSValidationNumberTooSmallError`.
    public static var validationNumberTooSmall: CocoaError.Code { CocoaError.Code(rawValue: 1620) }
    /// 1630, Core Data's `NSValidationDateTooLateError`.
    public static var validationDateTooLate: CocoaError.Code { CocoaError.Code(rawValue: 1630) }
    /// 1640, Core Data's `NSValidationDateTooSoonError`.
    public static var validationDateTooSoon: CocoaError.Code { CocoaError.Code(rawValue: 1640) }
    /// 1650, Core Data's `NSValidationInvalidDateError`.
    public static var validationInvalidDate: CocoaError.Code { CocoaError.Code(rawValue: 1650) }
    /// 1660, Core Data's `NSValidationStringTooLongError`.
    public static var validationStringTooLong: CocoaError.Code { CocoaError.Code(rawValue: 1660) }
    /// 1670, Core Data's `NSValidationStringTooShortError`.
    public static var validationStringTooShort: CocoaError.Code { CocoaError.Code(rawValue: 1670) }
    /// 1680, Core Data's `NSValidationStringPatternMatchingError`.
    public static var validationStringPatternMatching: CocoaError.Code { CocoaError.Code(rawValue: 1680) }
    /// 132000, Core Data's `NSManagedObjectContextLockingError`.
    public static var managedObjectContextLocking: CocoaError.Code { CocoaError.Code(rawValue: 132000) }
    /// 132010, Core Data's `NSPersistentStoreCoordinatorLockingError`.
    public static var persistentStoreCoordinatorLocking: CocoaError.Code { CocoaError.Code(rawValue: 132010) }
    /// 133000, Core Data's `NSManagedObjectReferentialIntegrityError`.
    public static var managedObjectReferentialIntegrity: CocoaError.Code { CocoaError.Code(rawValue: 133000) }
    /// 133010, Core Data's `NSManagedObjectExternalRelationshipError`.
    public static var managedObjectExternalRelationship: CocoaError.Code { CocoaError.Code(rawValue: 133010) }
    /// 133020, Core Data's `NSManagedObjectMergeError`.
    public static var managedObjectMerge: CocoaError.Code { CocoaError.Code(rawValue: 133020) }
    /// 133021, Core Data's `NSManagedObjectConstraintMergeError`.
    public static var managedObjectConstraintMerge: CocoaError.Code { CocoaError.Code(rawValue: 133021) }
    /// 134000, Core Data's `NSPersistentStoreInvalidTypeError`.
    public static var persistentStoreInvalidType: CocoaError.Code { CocoaError.Code(rawValue: 134000) }
    /// 134010, Core Data's `NSPersistentStoreTypeMismatchError`.
    public static var persistentStoreTypeMismatch: CocoaError.Code { CocoaError.Code(rawValue: 134010) }
    /// 134020, Core Data's `NSPersistentStoreIncompatibleSchemaError`.
    public static var persistentStoreIncompatibleSchema: CocoaError.Code { CocoaError.Code(rawValue: 134020) }
    /// 134030, Core Data's `NSPersistentStoreSaveError`.
    public static var persistentStoreSave: CocoaError.Code { CocoaError.Code(rawValue: 134030) }
    /// 134040, Core Data's `NSPersistentStoreIncompleteSaveError`.
    public static var persistentStoreIncompleteSave: CocoaError.Code { CocoaError.Code(rawValue: 134040) }
    /// 134050, Core Data's `NSPersistentStoreSaveConflictsError`.
    public static var persistentStoreSaveConflicts: CocoaError.Code { CocoaError.Code(rawValue: 134050) }
    /// 134060, Core Data's `NSCoreDataError`.
    public static var coreData: CocoaError.Code { CocoaError.Code(rawValue: 134060) }
    /// 134070, Core Data's `NSPersistentStoreOperationError`.
    public static var persistentStoreOperation: CocoaError.Code { CocoaError.Code(rawValue: 134070) }
    /// 134080, Core Data's `NSPersistentStoreOpenError`.
    public static var persistentStoreOpen: CocoaError.Code { CocoaError.Code(rawValue: 134080) }
    /// 134090, Core Data's `NSPersistentStoreTimeoutError`.
    public static var persistentStoreTimeout: CocoaError.Code { CocoaError.Code(rawValue: 134090) }
    /// 134091, Core Data's `NSPersistentStoreUnsupportedRequestTypeError`.
    public static var persistentStoreUnsupportedRequestType: CocoaError.Code { CocoaError.Code(rawValue: 134091) }
    /// 134100, Core Data's `NSPersistentStoreIncompatibleVersionHashError`.
    public static var persistentStoreIncompatibleVersionHash: CocoaError.Code { CocoaError.Code(rawValue: 134100) }
    /// 134110, Core Data's `NSMigrationError`.
    public static var migration: CocoaError.Code { CocoaError.Code(rawValue: 134110) }
    /// 134120, Core Data's `NSMigrationCancelledError`.
    public static var migrationCancelled: CocoaError.Code { CocoaError.Code(rawValue: 134120) }
    /// 134130, Core Data's `NSMigrationMissingSourceModelError`.
    public static var migrationMissingSourceModel: CocoaError.Code { CocoaError.Code(rawValue: 134130) }
    /// 134140, Core Data's `NSMigrationMissingMappingModelError`.
    public static var migrationMissingMappingModel: CocoaError.Code { CocoaError.Code(rawValue: 134140) }
    /// 134150, Core Data's `NSMigrationManagerSourceStoreError`.
    public static var migrationManagerSourceStore: CocoaError.Code { CocoaError.Code(rawValue: 134150) }
    /// 134160, Core Data's `NSMigrationManagerDestinationStoreError`.
    public static var migrationManagerDestinationStore: CocoaError.Code { CocoaError.Code(rawValue: 134160) }
    /// 134170, Core Data's `NSEntityMigrationPolicyError`.
    public static var entityMigrationPolicy: CocoaError.Code { CocoaError.Code(rawValue: 134170) }
    /// 134180, Core Data's `NSSQLiteError`.
    public static var sqlite: CocoaError.Code { CocoaError.Code(rawValue: 134180) }
    /// 134190, Core Data's `NSInferredMappingModelError`.
    public static var inferredMappingModel: CocoaError.Code { CocoaError.Code(rawValue: 134190) }
    /// 134200, Core Data's `NSExternalRecordImportError`.
    public static var externalRecordImport: CocoaError.Code { CocoaError.Code(rawValue: 134200) }
}

extension CocoaError {
    /// 1550, Core Data's `NSManagedObjectValidationError`.
    public static var managedObjectValidation: CocoaError.Code { CocoaError.Code(rawValue: 1550) }
    /// 1560, Core Data's `NSValidationMultipleErrorsError`.
    public static var validationMultipleErrors: CocoaError.Code { CocoaError.Code(rawValue: 1560) }
    /// 1570, Core Data's `NSValidationMissingMandatoryPropertyError`.
    public static var validationMissingMandatoryProperty: CocoaError.Code { CocoaError.Code(rawValue: 1570) }
    /// 1580, Core Data's `NSValidationRelationshipLacksMinimumCountError`.
    public static var validationRelationshipLacksMinimumCount: CocoaError.Code { CocoaError.Code(rawValue: 1580) }
    /// 1590, Core Data's `NSValidationRelationshipExceedsMaximumCountError`.
    public static var validationRelationshipExceedsMaximumCount: CocoaError.Code { CocoaError.Code(rawValue: 1590) }
    /// 1600, Core Data's `NSValidationRelationshipDeniedDeleteError`.
    public static var validationRelationshipDeniedDelete: CocoaError.Code { CocoaError.Code(rawValue: 1600) }
    /// 1610, Core Data's `NSValidationNumberTooLargeError`.
    public static var validationNumberTooLarge: CocoaError.Code { CocoaError.Code(rawValue: 1610) }
    /// 1620, Core Data's `NSValidationNumberTooSmallError`.
    public static var validationNumberTooSmall: CocoaError.Code { CocoaError.Code(rawValue: 1620) }
    /// 1630, Core Data's `NSValidationDateTooLateError`.
    public static var validationDateTooLate: CocoaError.Code { CocoaError.Code(rawValue: 1630) }
    /// 1640, Core Data's `NSValidationDateTooSoonError`.
    public static var validationDateTooSoon: CocoaError.Code { CocoaError.Code(rawValue: 1640) }
    /// 1650, Core Data's `NSValidationInvalidDateError`.
    public static var validationInvalidDate: CocoaError.Code { CocoaError.Code(rawValue: 1650) }
    /// 1660, Core Data's `NSValidationStringTooLongError`.
    public static var validationStringTooLong: CocoaError.Code { CocoaError.Code(rawValue: 1660) }
    /// 1670, Core Data's `NSValidationStringTooShortError`.
    public static var validationStringTooShort: CocoaError.Code { CocoaError.Code(rawValue: 1670) }
    /// 1680, Core Data's `NSValidationStringPatternMatchingError`.
    public static var validationStringPatternMatching: CocoaError.Code { CocoaError.Code(rawValue: 1680) }
    /// 132000, Core Data's `NSManagedObjectContextLockingError`.
    public static var managedObjectContextLocking: CocoaError.Code { CocoaError.Code(rawValue: 132000) }
    /// 132010, Core Data's `NSPersistentStoreCoordinatorLockingError`.
    public static var persistentStoreCoordinatorLocking: CocoaError.Code { CocoaError.Code(rawValue: 132010) }
    /// 133000, Core Data's `NSManagedObjectReferentialIntegrityError`.
    public static var managedObjectReferentialIntegrity: CocoaError.Code { CocoaError.Code(rawValue: 133000) }
    /// 133010, Core Data's `NSManagedObjectExternalRelationshipError`.
    public static var managedObjectExternalRelationship: CocoaError.Code { CocoaError.Code(rawValue: 133010) }
    /// 133020, Core Data's `NSManagedObjectMergeError`.
    public static var managedObjectMerge: CocoaError.Code { CocoaError.Code(rawValue: 133020) }
    /// 133021, Core Data's `NSManagedObjectConstraintMergeError`.
    public static var managedObjectConstraintMerge: CocoaError.Code { CocoaError.Code(rawValue: 133021) }
    /// 134000, Core Data's `NSPersistentStoreInvalidTypeError`.
    public static var persistentStoreInvalidType: CocoaError.Code { CocoaError.Code(rawValue: 134000) }
    /// 134010, Core Data's `NSPersistentStoreTypeMismatchError`.
    public static var persistentStoreTypeMismatch: CocoaError.Code { CocoaError.Code(rawValue: 134010) }
    /// 134020, Core Data's `NSPersistentStoreIncompatibleSchemaError`.
    public static var persistentStoreIncompatibleSchema: CocoaError.Code { CocoaError.Code(rawValue: 134020) }
    /// 134030, Core Data's `NSPersistentStoreSaveError`.
    public static var persistentStoreSave: CocoaError.Code { CocoaError.Code(rawValue: 134030) }
    /// 134040, Core Data's `NSPersistentStoreIncompleteSaveError`.
    public static var persistentStoreIncompleteSave: CocoaError.Code { CocoaError.Code(rawValue: 134040) }
    /// 134050, Core Data's `NSPersistentStoreSaveConflictsError`.
    public static var persistentStoreSaveConflicts: CocoaError.Code { CocoaError.Code(rawValue: 134050) }
    /// 134060, Core Data's `NSCoreDataError`.
    public static var coreData: CocoaError.Code { CocoaError.Code(rawValue: 134060) }
    /// 134070, Core Data's `NSPersistentStoreOperationError`.
    public static var persistentStoreOperation: CocoaError.Code { CocoaError.Code(rawValue: 134070) }
    /// 134080, Core Data's `NSPersistentStoreOpenError`.
    public static var persistentStoreOpen: CocoaError.Code { CocoaError.Code(rawValue: 134080) }
    /// 134090, Core Data's `NSPersistentStoreTimeoutError`.
    public static var persistentStoreTimeout: CocoaError.Code { CocoaError.Code(rawValue: 134090) }
    /// 134091, Core Data's `NSPersistentStoreUnsupportedRequestTypeError`.
    public static var persistentStoreUnsupportedRequestType: CocoaError.Code { CocoaError.Code(rawValue: 134091) }
    /// 134100, Core Data's `NSPersistentStoreIncompatibleVersionHashError`.
    public static var persistentStoreIncompatibleVersionHash: CocoaError.Code { CocoaError.Code(rawValue: 134100) }
    /// 134110, Core Data's `NSMigrationError`.
    public static var migration: CocoaError.Code { CocoaError.Code(rawValue: 134110) }
    /// 134120, Core Data's `NSMigrationCancelledError`.
    public static var migrationCancelled: CocoaError.Code { CocoaError.Code(rawValue: 134120) }
    /// 134130, Core Data's `NSMigrationMissingSourceModelError`.
    public static var migrationMissingSourceModel: CocoaError.Code { CocoaError.Code(rawValue: 134130) }
    /// 134140, Core Data's `NSMigrationMissingMappingModelError`.
    public static var migrationMissingMappingModel: CocoaError.Code { CocoaError.Code(rawValue: 134140) }
    /// 134150, Core Data's `NSMigrationManagerSourceStoreError`.
    public static var migrationManagerSourceStore: CocoaError.Code { CocoaError.Code(rawValue: 134150) }
    /// 134160, Core Data's `NSMigrationManagerDestinationStoreError`.
    public static var migrationManagerDestinationStore: CocoaError.Code { CocoaError.Code(rawValue: 134160) }
    /// 134170, Core Data's `NSEntityMigrationPolicyError`.
    public static var entityMigrationPolicy: CocoaError.Code { CocoaError.Code(rawValue: 134170) }
    /// 134180, Core Data's `NSSQLiteError`.
    public static var sqlite: CocoaError.Code { CocoaError.Code(rawValue: 134180) }
    /// 134190, Core Data's `NSInferredMappingModelError`.
    public static var inferredMappingModel: CocoaError.Code { CocoaError.Code(rawValue: 134190) }
    /// 134200, Core Data's `NSExternalRecordImportError`.
    public static var externalRecordImport: CocoaError.Code { CocoaError.Code(rawValue: 134200) }
}

extension CocoaError {
    /// The object that failed validation (`NSValidationObjectErrorKey`).
    public var validationObject: Any? { userInfo[NSValidationObjectErrorKey] }
    /// The name of the property that failed validation (`NSValidationKeyErrorKey`).
    public var validationKey: String? { userInfo[NSValidationKeyErrorKey] as? String }
    /// The value that failed validation (`NSValidationValueErrorKey`).
    public var validationValue: Any? { userInfo[NSValidationValueErrorKey] }
    /// The objects the error concerns, when it is not a validation error (`NSAffectedObjectsErrorKey`).
    public var affectedObjects: [AnyObject]? { userInfo[NSAffectedObjectsErrorKey] as? [AnyObject] }
    /// The conflicts of a failed save (`NSPersistentStoreSaveConflictsErrorKey`).
    public var persistentStoreSaveConflicts: [MergeConflict]? {
        userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [MergeConflict]
    }
}
#else
import CoreData
#endif

// Codes Core Data reports that its overlay gives no `CocoaError.Code` name (only the `NS…Error` constant).
extension CocoaError.Code {
    /// 1551: objects of one save break a uniqueness constraint among themselves
    /// (`NSManagedObjectConstraintValidationError`).
    static var managedObjectConstraintValidation: CocoaError.Code { CocoaError.Code(rawValue: 1551) }
    /// 134301: a history request's token is older than the history the store still has: the transactions after it
    /// were purged (`PersistentHistoryChangeRequest.deleteHistory(before:)`), so the reader has missed changes
    /// (`NSPersistentHistoryTokenExpiredError`). Read the store afresh (refetch what you show), then go on from the
    /// newest token.
    static var persistentHistoryTokenExpired: CocoaError.Code { CocoaError.Code(rawValue: 134_301) }
}
