import Foundation

/// Bridging to `NSError` as Core Data's errors bridge: `NSCocoaErrorDomain`, Core Data's code, and Core Data's
/// user-info keys, so `(error as NSError).code == 133020` and `userInfo[NSValidationKeyErrorKey]` read the same here
/// and on Apple platforms.
extension PersistenceError: CustomNSError {
    public static var errorDomain: String { NSCocoaErrorDomain }

    public var errorCode: Int { code.rawValue }

    /// `NSLocalizedDescription` (the message); for a validation error (1550–1600) the object, key and value under
    /// `NSValidationObjectErrorKey`, `NSValidationKeyErrorKey` and `NSValidationValueErrorKey`; for 1560 the
    /// errors under `NSDetailedErrorsKey`; for a merge or constraint conflict the ``MergeConflict`` list under
    /// `conflictList` (each with its `sourceObject`); for any other error about one object, that object under
    /// `NSAffectedObjectsErrorKey`; and SQLite's code, the store's URL and path when there are.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let sqliteCode { info[CoreDataUserInfoKey.sqliteErrorCode] = NSNumber(value: sqliteCode) }
        if let url {
            info[NSURLErrorKey] = url
            if url.isFileURL { info[NSFilePathErrorKey] = url.path }
        }
        if let key { info[CoreDataUserInfoKey.validationKey] = key }
        if let value { info[CoreDataUserInfoKey.validationValue] = value.anyValue ?? NSNull() }
        if let object {
            if isValidationError {
                info[CoreDataUserInfoKey.validationObject] = object
            } else if conflicts.isEmpty {
                info[CoreDataUserInfoKey.affectedObjects] = [object]
            }
        }
        if !detailedErrors.isEmpty { info[CoreDataUserInfoKey.detailedErrors] = detailedErrors.map { $0 as NSError } }
        if !conflicts.isEmpty { info[CoreDataUserInfoKey.saveConflicts] = conflicts }
        return info
    }

    /// Core Data's validation errors are the codes from 1550 to 1679 (`NSValidationErrorMinimum` up to the
    /// relationship and string checks).
    var isValidationError: Bool { (1550..<1680).contains(code.rawValue) }
}
