import Foundation

#if !canImport(Darwin)
extension NSValueTransformerName {
    /// The name of ``NSSecureUnarchiveFromDataTransformer``, registered from the start as on Apple platforms:
    /// Xcode's `NSSecureUnarchiveFromData`.
    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName("NSSecureUnarchiveFromData")
}

/// Stores a value as a keyed archive of classes that support secure coding, and reads it back only as one of
/// ``allowedTopLevelClasses``: Foundation's transformer of the same name on Apple platforms, supplied here for Linux.
///
/// It is the transformer of every transformable attribute that names none (see
/// ``AttributeDescription/valueTransformerName``), as in Core Data, and is registered under
/// ``NSValueTransformerName/secureUnarchiveFromDataTransformerName``. Swift values count as the classes they bridge
/// to, so `[String]`, `[String: Any]` of property-list values, `Date`, `URL`, `UUID`, `Data` and numbers are stored
/// and come back as their Foundation classes (`value as? [String]` reads them). Objects inside collections must be
/// allowed too, as the unarchiver decodes them with the same list. A value of any other type is not transformed
/// (``transformedValue(_:)`` returns nil), and data that holds another class is not read back (nil).
///
/// Subclass it and override ``allowedTopLevelClasses`` to allow classes of your own that adopt `NSSecureCoding`.
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer, @unchecked Sendable {
    /// The classes a value may be an instance of: by default Apple's list, `NSArray`, `NSDictionary`, `NSSet`,
    /// `NSString`, `NSNumber`, `NSDate`, `NSData`, `NSURL`, `NSUUID` and `NSNull`.
    open class var allowedTopLevelClasses: [AnyClass] { SecureArchive.defaultAllowedClasses }

    override open class func allowsReverseTransformation() -> Bool { true }

    /// `value` as a secure keyed archive, or nil when it (or an object inside it) is not of an allowed class.
    override open func transformedValue(_ value: Any?) -> Any? {
        guard let value else { return nil }
        return try? SecureArchive.data(for: value, allowed: Self.allowedTopLevelClasses)
    }

    /// The value archived in `value` (`Data`), or nil when it is not an archive of allowed classes.
    override open func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? SecureArchive.value(from: data, allowed: Self.allowedTopLevelClasses)
    }
}
#endif
