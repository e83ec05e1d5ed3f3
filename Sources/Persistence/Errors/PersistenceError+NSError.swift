import Foundation

/// Bridging to `NSError` as Core Data's errors bridge: `NSCocoaErrorDomain`, Core Data's code, and Core Data's
/// user-info keys, so `(error as NSError).code == 259` reads the same here and on Apple platforms.
extension PersistenceError: CustomNSError {
    public static var errorDomain: String { NSCocoaErrorDomain }

    public var errorCode: Int { code.rawValue }

    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        // Core Data names SQLite's result code under this key (its value is SQLite's code, not a domain).
        if let sqliteCode { info["NSSQLiteErrorDomain"] = NSNumber(value: sqliteCode) }
        if let url {
            info[NSURLErrorKey] = url
            if url.isFileURL { info[NSFilePathErrorKey] = url.path }
        }
        if let key { info["NSValidationErrorKey"] = key }
        if !detailedErrors.isEmpty { info["NSDetailedErrors"] = detailedErrors.map { $0 as NSError } }
        return info
    }
}
