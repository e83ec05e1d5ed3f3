import Foundation

/// The `userInfo` of Persistence's errors, with Core Data's keys, so `userInfo[NSValidationKeyErrorKey]` and
/// `userInfo[NSDetailedErrorsKey]` read the same here and on Apple platforms.
extension PersistenceError {
    /// `NSLocalizedDescription` (the message); for a validation error (1550–1600) the object, key and value under
    /// `NSValidationObjectErrorKey`, `NSValidationKeyErrorKey` and `NSValidationValueErrorKey`; for 1560 the
    /// errors under `NSDetailedErrorsKey`; for a merge or constraint conflict the ``MergeConflict`` list under
    /// `conflictList` (each with its `sourceObject`); for any other error about one object, that object under
    /// `NSAffectedObjectsErrorKey`; and SQLite's code, the store's URL and path when there are.
    static func userInfo(code: Int, message: String, object: ManagedObject?, key: String?, value: PersistentValue?,
                         detailedErrors: [NSError], conflicts: [MergeConflict], sqliteCode: Int32?,
                         url: URL?) -> [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let sqliteCode { info[CoreDataUserInfoKey.sqliteErrorCode] = NSNumber(value: sqliteCode) }
        if let url {
            info[NSURLErrorKey] = url
            if url.isFileURL { info[NSFilePathErrorKey] = url.path }
        }
        if let key { info[CoreDataUserInfoKey.validationKey] = key }
        if let value { info[CoreDataUserInfoKey.validationValue] = value.anyValue ?? NSNull() }
        if let object {
            if isValidationError(code) {
                info[CoreDataUserInfoKey.validationObject] = object
            } else if conflicts.isEmpty {
                info[CoreDataUserInfoKey.affectedObjects] = [object]
            }
        }
        if !detailedErrors.isEmpty { info[CoreDataUserInfoKey.detailedErrors] = detailedErrors }
        if !conflicts.isEmpty { info[CoreDataUserInfoKey.saveConflicts] = conflicts }
        return info
    }

    /// Core Data's validation errors are the codes from 1550 to 1679 (`NSValidationErrorMinimum` up to the
    /// relationship and string checks).
    static func isValidationError(_ code: Int) -> Bool { (1550..<1680).contains(code) }

    var isValidationError: Bool { Self.isValidationError(code) }
}
