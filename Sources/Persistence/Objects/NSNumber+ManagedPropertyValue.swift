import Foundation

/// A number or Boolean attribute as an object, the way Core Data hands it over when the attribute does not use a
/// scalar type: `@Managed var rating: NSNumber?`, the one way to declare an optional number (`Double?` does not
/// compile, as `@NSManaged var rating: Double?` does not on Apple platforms).
///
/// An `NSNumber` property stands for an integer 16, 32 or 64, double, float or Boolean attribute; an
/// `NSDecimalNumber` one for a decimal attribute, the class Xcode generates for it. What is read is a number of the
/// attribute's kind (`rating?.doubleValue`); what is written is stored as the attribute's type, and a number that
/// type cannot hold exactly (2.5 for an integer attribute, 2 for a Boolean one, 70 000 for an integer 16 one) is kept
/// as given and fails the context's next save with a validation error (1550), as a Swift value of the wrong type
/// does. Core Data does not document what it does with such a number; the stricter reading is taken here.
///
/// A non-optional `NSNumber` property read while its attribute is nil is a programming error, as for `String` or
/// `Date` (see ``ManagedAttributeValue/placeholder``): Core Data's scalar accessors read 0, but an `NSNumber` is an
/// object, and nil is what Core Data has for it.
extension NSNumber: ManagedPropertyValue, ManagedOptionalWrappable {
    public static var managedValueKind: ManagedValueKind { .attribute(attributeTypes) }
    public static var isManagedAttribute: Bool { true }
    public static var nilManagedStorage: ManagedStorage { .value(.null) }

    /// The attribute types this class stands for; none for a subclass of Foundation's number classes of your own,
    /// which the model check then refuses at start-up (no value of it could be read back).
    static var attributeTypes: [AttributeType] {
        if ObjectIdentifier(self) == ObjectIdentifier(NSNumber.self) { return [.integer16, .integer32, .integer64, .double, .float, .boolean] }
        if ObjectIdentifier(self) == ObjectIdentifier(NSDecimalNumber.self) { return [.decimal] }
        return []
    }

    public static func fromManagedStorage(_ storage: ManagedStorage) -> Self {
        wrappedFromManagedStorage(storage) ?? placeholder
    }

    public static func _fromManagedStorage(_ storage: ManagedStorage, of object: ManagedObject,
                                           ordinal: UInt8) -> Self {
        if let value = wrappedFromManagedStorage(storage) { return value }
        object._readNilThroughNonOptional(ordinal: ordinal, as: Self.self)
        return placeholder
    }

    public static func wrappedFromManagedStorage(_ storage: ManagedStorage) -> Self? {
        guard case .value(let value) = storage else { return nil }
        let number: NSNumber
        switch value {
        case .integer(let v): number = NSNumber(value: v)
        case .double(let v): number = NSNumber(value: v)
        case .bool(let v): number = NSNumber(value: v)
        case .decimal(let v): number = NSDecimalNumber(decimal: v)
        default: return nil
        }
        // A value of another kind than this class holds (a decimal where NSNumber is declared) reads as nil.
        return number as? Self
    }

    /// What a non-optional property reads after a nil read is reported (see ``NilRead``).
    private static var placeholder: Self {
        (ObjectIdentifier(self) == ObjectIdentifier(NSDecimalNumber.self) ? NSDecimalNumber.zero : NSNumber(value: 0)) as! Self
    }

    public var managedStorage: ManagedStorage { .value(persistentValue) }

    /// This number as the store keeps it, by the C type it was made from: a floating-point number as a double, a
    /// Boolean as a Boolean, any other as an integer; the attribute's type then converts what it can hold exactly.
    var persistentValue: PersistentValue {
        if let decimal = self as? NSDecimalNumber { return .decimal(decimal.decimalValue) }
        let type = String(cString: objCType)
        if type == "f" || type == "d" { return .double(doubleValue) }
        // A Boolean reports the C type char; so does an Int8, whose 0 and 1 the attribute types convert alike.
        if type == "c" || type == "B", int64Value == 0 || int64Value == 1 { return .bool(boolValue) }
        // Beyond every integer attribute: kept as a decimal, which no number attribute accepts, so the save fails.
        if type == "Q" || type == "L" || type == "I", uint64Value > UInt64(Int64.max) {
            return .decimal(Decimal(uint64Value))
        }
        return .integer(int64Value)
    }
}
