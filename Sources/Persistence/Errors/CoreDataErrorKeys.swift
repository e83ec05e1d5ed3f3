import Foundation

// Core Data's user-info keys, under Core Data's own names and with Core Data's string values, so that code reading
// `error.userInfo[NSValidationKeyErrorKey]` compiles and reads the same here as on Apple platforms. They keep their
// `NS` because they are the keys of Foundation's `NSError`, like `NSLocalizedDescriptionKey`; where Core Data itself
// is available it defines them and these step aside.
/// The keys' values, for use inside the package whether or not Core Data is there.
enum CoreDataUserInfoKey {
    static let detailedErrors = "NSDetailedErrors"
    static let validationObject = "NSValidationErrorObject"
    static let validationKey = "NSValidationErrorKey"
    static let validationValue = "NSValidationErrorValue"
    static let affectedObjects = "NSAffectedObjectsErrorKey"
    static let saveConflicts = "conflictList"
    static let sqliteErrorCode = "NSSQLiteErrorDomain"
}

#if !canImport(CoreData)
/// The errors of an operation that found several (code 1560): an array of `NSError`.
public let NSDetailedErrorsKey = CoreDataUserInfoKey.detailedErrors
/// The object that failed validation (a ``ManagedObject``).
public let NSValidationObjectErrorKey = CoreDataUserInfoKey.validationObject
/// The name of the property that failed validation.
public let NSValidationKeyErrorKey = CoreDataUserInfoKey.validationKey
/// The value that failed validation (`NSNull` for a missing one).
public let NSValidationValueErrorKey = CoreDataUserInfoKey.validationValue
/// The predicate an attribute's value failed (Core Data's validation predicates); Persistence models none, so never
/// sets it.
public let NSValidationPredicateErrorKey = "NSValidationErrorPredicate"
/// The objects an error concerns, when it is not a validation error: an array of ``ManagedObject``.
public let NSAffectedObjectsErrorKey = CoreDataUserInfoKey.affectedObjects
/// The merge conflicts of a failed save (codes 133020, 133021 and 1551): an array of ``MergeConflict``.
public let NSPersistentStoreSaveConflictsErrorKey = CoreDataUserInfoKey.saveConflicts
/// SQLite's result code, when SQLite reported the error (the key's name says "domain"; its value is the code).
public let NSSQLiteErrorDomain = CoreDataUserInfoKey.sqliteErrorCode
#endif
