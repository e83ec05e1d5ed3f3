import Foundation

/// Keyed archiving limited to a list of classes, as Foundation's `NSSecureUnarchiveFromDataTransformer` does it:
/// what Core Data's default transformer stores for a transformable attribute that names no transformer.
///
/// Foundation's archiver and unarchiver on Linux stop the process (a `fatalError`) when secure coding meets a class
/// it may not encode or decode, where Apple's raise an exception. So every value is checked here before it is
/// archived, and every archive before it is unarchived: what is not allowed becomes an error that names it.
enum SecureArchive {
    /// What Apple's `NSSecureUnarchiveFromDataTransformer.allowedTopLevelClasses` lists by default.
    static let defaultAllowedClasses: [AnyClass] = [
        NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self, NSData.self,
        NSURL.self, NSUUID.self, NSNull.self,
    ]

    /// Why a value could not be archived or an archive could not be read back.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Collections deeper than this are refused (a collection that contains itself would never end).
    private static let maximumDepth = 256

    /// `value` archived with secure coding. Every object in it, nested ones included, must be an instance of one of
    /// `allowed` (Swift values count as the classes they bridge to: `[String]` is an `NSArray` of `NSString`s).
    static func data(for value: Any, allowed: [AnyClass]) throws -> Data {
        try check(value, allowed: allowed)
        do {
            return try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true)
        } catch {
            throw Failure(description: "it could not be archived: \(error.localizedDescription)")
        }
    }

    /// The value archived in `data`; every class the archive names must be one of `allowed` or a subclass of one.
    static func value(from data: Data, allowed: [AnyClass]) throws -> Any {
        let archive: Any
        do {
            archive = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw Failure(description: "the data is not a keyed archive (\(error.localizedDescription))")
        }
        guard let root = archive as? [String: Any], root["$archiver"] as? String == "NSKeyedArchiver",
              let objects = root["$objects"] as? [Any] else {
            throw Failure(description: "the data is not a keyed archive")
        }
        for case let description as [String: Any] in objects {
            guard let name = description["$classname"] as? String else { continue }
            // Only plain class names are looked up: the runtime also reads mangled names, which stored data must
            // not feed it.
            guard ManagedObjectClassResolver.isQualifiedIdentifier(name), let named = NSClassFromString(name),
                  isAllowed(named, in: allowed) else {
                throw Failure(description: "the archive holds an object of class \(name), which is not among the allowed classes (\(names(of: allowed))); it is not read")
            }
        }
        let decoded: Any?
        do {
            decoded = try NSKeyedUnarchiver.unarchivedObject(ofClasses: allowed, from: data)
        } catch {
            throw Failure(description: "the archive could not be read: \(error.localizedDescription)")
        }
        guard let decoded else { throw Failure(description: "the archive holds no value") }
        return decoded
    }

    /// `allowed`'s class names, for messages.
    static func names(of allowed: [AnyClass]) -> String {
        allowed.map { String(describing: $0) }.joined(separator: ", ")
    }

    /// Throws when `value`, or an object inside it, is not an instance of one of `allowed`.
    static func check(_ value: Any, allowed: [AnyClass]) throws {
        try check(value, allowed: allowed, depth: 0)
    }

    private static func check(_ value: Any, allowed: [AnyClass], depth: Int) throws {
        guard depth < maximumDepth else {
            throw Failure(description: "its collections are nested more than \(maximumDepth) deep (or contain themselves)")
        }
        // Swift values become the Foundation objects they are archived as (`String` an `NSString`); anything else
        // becomes an opaque box, which is an instance of no allowed class.
        let object = value as AnyObject
        let objectClass: AnyClass = type(of: object)
        if cannotBeArchivedHere(objectClass) {
            throw Failure(description: "\(type(of: value)) is archived as an NSDecimalNumber, which Foundation cannot archive on this platform")
        }
        guard isAllowed(objectClass, in: allowed) else {
            throw Failure(description: "\(type(of: value)) is not among the allowed classes (\(names(of: allowed)))")
        }
        // What the archive will hold inside must be allowed too: the unarchiver decodes it with the same list.
        if let array = object as? NSArray {
            for element in array { try check(element, allowed: allowed, depth: depth + 1) }
        } else if let dictionary = object as? NSDictionary {
            for (key, element) in dictionary {
                try check(key, allowed: allowed, depth: depth + 1)
                try check(element, allowed: allowed, depth: depth + 1)
            }
        } else if let set = object as? NSSet {
            for element in set { try check(element, allowed: allowed, depth: depth + 1) }
        }
    }

    private static func isAllowed(_ objectClass: AnyClass, in allowed: [AnyClass]) -> Bool {
        !cannotBeArchivedHere(objectClass) && allowed.contains { ClassAncestry.isClass(objectClass, subclassOf: $0) }
    }

    /// Foundation on Linux crashes archiving or unarchiving a decimal number (undocumented), though it is an
    /// NSNumber, which the default list allows.
    private static func cannotBeArchivedHere(_ objectClass: AnyClass) -> Bool {
        #if canImport(Darwin)
        false
        #else
        ClassAncestry.isClass(objectClass, subclassOf: NSDecimalNumber.self)
        #endif
    }
}
