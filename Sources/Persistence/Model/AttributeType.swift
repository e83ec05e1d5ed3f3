import Foundation

/// The type of an attribute.
///
/// Core Data spells the types two ways, and both work here: its `NSAttributeType` constants
/// (`.stringAttributeType`, `.integer16AttributeType`, …), which ``AttributeDescription/attributeType`` takes on
/// every Apple platform, are static members of this type, and its cases are named as the newer
/// `NSAttributeDescription.AttributeType` (iOS 15, macOS 12) names its members (`.string`, `.integer16`, …). One
/// type serves both so that the code in Apple's documentation compiles unchanged, whichever spelling it uses; its
/// raw values are names, not Apple's numbers.
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    /// No type yet: what a new ``AttributeDescription`` has until ``AttributeDescription/attributeType`` is set.
    /// Core Data allows it on transient attributes only, for values of any kind; Persistence has no such values, so
    /// a model with an attribute of this type is refused when it is used, transient or not.
    case undefined
    /// Text (`String`).
    case string
    /// A 16-bit integer (`Int16`).
    case integer16
    /// A 32-bit integer (`Int32`, or `Int`).
    case integer32
    /// A 64-bit integer (`Int64`, or `Int`).
    case integer64
    /// A double-precision number (`Double`).
    case double
    /// A single-precision number (`Float`), stored as a double.
    case float
    /// `Bool`, stored as 0 or 1.
    case boolean
    /// A point in time (`Date`), stored as seconds since 2001-01-01, as Core Data stores it.
    case date
    /// `UUID`, stored as its 16 bytes.
    case uuid
    /// `URL`, stored as its absolute string (Core Data's "URI" type).
    case uri
    /// Bytes (`Data`).
    case binaryData
    /// A decimal number (`Decimal`), stored as text so no digit is lost.
    case decimal
    /// A value of a type of your own, stored as the `Data` a named ``ValueTransformer`` (or Core Data's default
    /// one) turns it into (see ``AttributeDescription/valueTransformerName``).
    case transformable

    /// SQLite's column type for the attribute.
    var columnType: String {
        switch self {
        case .string, .uri, .decimal: return "TEXT"
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .float, .date: return "REAL"
        case .uuid, .binaryData, .transformable, .undefined: return "BLOB"
        }
    }

    /// Accepts `value` for this attribute, converting between compatible forms (an integer for a double, a
    /// `Float` widened to double), or returns `nil` when the value does not fit (wrong kind, out of range).
    func coerce(_ value: PersistentValue) -> PersistentValue? {
        if accepts(value) { return value }
        switch (self, value) {
        case (_, .null): return .null
        case (.string, .string): return value
        case (.integer16, .integer(let v)): return Int16(exactly: v) == nil ? nil : value
        case (.integer32, .integer(let v)): return Int32(exactly: v) == nil ? nil : value
        case (.integer64, .integer): return value
        case (.integer16, .bool(let b)), (.integer32, .bool(let b)), (.integer64, .bool(let b)): return .integer(b ? 1 : 0)
        case (.double, .double), (.float, .double): return value
        case (.double, .integer(let v)), (.float, .integer(let v)): return .double(Double(v))
        case (.boolean, .bool): return value
        case (.boolean, .integer(let v)) where v == 0 || v == 1: return .bool(v == 1)
        case (.date, .date), (.uuid, .uuid), (.uri, .uri), (.binaryData, .data), (.transformable, .data),
             (.decimal, .decimal): return value
        case (.decimal, .integer(let v)): return .decimal(Decimal(v))
        case (.decimal, .double(let v)): return .decimal(Decimal(v))
        default: return nil
        }
    }

    /// `true` when `value` is already exactly of this attribute's kind (the common case, checked first).
    @inline(__always)
    func accepts(_ value: PersistentValue) -> Bool {
        switch value {
        case .integer: return self == .integer64
        case .string: return self == .string
        case .double: return self == .double
        case .bool: return self == .boolean
        case .date: return self == .date
        default: return false
        }
    }

    /// The stored form of a value already accepted by ``coerce(_:)``.
    func sqliteValue(_ value: PersistentValue) -> SQLiteValue {
        switch value {
        case .null: return .null
        case .string(let v): return .text(v)
        case .integer(let v): return .integer(v)
        case .double(let v): return .real(v)
        case .bool(let v): return .integer(v ? 1 : 0)
        // Like Core Data, dates are seconds since 2001-01-01.
        case .date(let v): return .real(v.timeIntervalSinceReferenceDate)
        case .uuid(let v): return .blob(withUnsafeBytes(of: v.uuid) { Data($0) })
        case .uri(let v): return .text(v.absoluteString)
        case .data(let v): return .blob(v)
        case .decimal(let v): return .text(v.description)
        }
    }

    /// Reads a stored value back; a value SQLite holds in another storage class is converted where it can be.
    func persistentValue(_ value: SQLiteValue) -> PersistentValue {
        switch (self, value) {
        case (_, .null): return .null
        case (.string, .text(let v)): return .string(v)
        case (.integer16, .integer(let v)), (.integer32, .integer(let v)), (.integer64, .integer(let v)): return .integer(v)
        case (.double, .real(let v)), (.float, .real(let v)): return .double(v)
        case (.double, .integer(let v)), (.float, .integer(let v)): return .double(Double(v))
        case (.boolean, .integer(let v)): return .bool(v != 0)
        case (.date, .real(let v)): return .date(Date(timeIntervalSinceReferenceDate: v))
        case (.date, .integer(let v)): return .date(Date(timeIntervalSinceReferenceDate: Double(v)))
        case (.uuid, .blob(let d)) where d.count == 16:
            return .uuid(d.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case (.uri, .text(let v)): return URL(string: v).map(PersistentValue.uri) ?? .null
        case (.binaryData, .blob(let v)), (.transformable, .blob(let v)): return .data(v)
        case (.decimal, .text(let v)): return Decimal(string: v).map(PersistentValue.decimal) ?? .null
        case (.decimal, .integer(let v)): return .decimal(Decimal(v))
        case (.decimal, .real(let v)): return .decimal(Decimal(v))
        case (.string, .integer(let v)): return .string(String(v))
        case (.string, .real(let v)): return .string(String(v))
        default: return .null
        }
    }
}

/// Core Data's `NSAttributeType` constants, the spelling ``AttributeDescription/attributeType`` takes on Apple
/// platforms: `title.attributeType = .stringAttributeType`.
extension AttributeType {
    /// Core Data's `NSAttributeType.undefinedAttributeType`: ``undefined``.
    public static let undefinedAttributeType = AttributeType.undefined
    /// Core Data's `NSAttributeType.integer16AttributeType`: ``integer16``.
    public static let integer16AttributeType = AttributeType.integer16
    /// Core Data's `NSAttributeType.integer32AttributeType`: ``integer32``.
    public static let integer32AttributeType = AttributeType.integer32
    /// Core Data's `NSAttributeType.integer64AttributeType`: ``integer64``.
    public static let integer64AttributeType = AttributeType.integer64
    /// Core Data's `NSAttributeType.decimalAttributeType`: ``decimal``.
    public static let decimalAttributeType = AttributeType.decimal
    /// Core Data's `NSAttributeType.doubleAttributeType`: ``double``.
    public static let doubleAttributeType = AttributeType.double
    /// Core Data's `NSAttributeType.floatAttributeType`: ``float``.
    public static let floatAttributeType = AttributeType.float
    /// Core Data's `NSAttributeType.stringAttributeType`: ``string``.
    public static let stringAttributeType = AttributeType.string
    /// Core Data's `NSAttributeType.booleanAttributeType`: ``boolean``.
    public static let booleanAttributeType = AttributeType.boolean
    /// Core Data's `NSAttributeType.dateAttributeType`: ``date``.
    public static let dateAttributeType = AttributeType.date
    /// Core Data's `NSAttributeType.binaryDataAttributeType`: ``binaryData``.
    public static let binaryDataAttributeType = AttributeType.binaryData
    /// Core Data's `NSAttributeType.UUIDAttributeType`: ``uuid``.
    public static let UUIDAttributeType = AttributeType.uuid
    /// Core Data's `NSAttributeType.URIAttributeType`: ``uri``.
    public static let URIAttributeType = AttributeType.uri
    /// Core Data's `NSAttributeType.transformableAttributeType`: ``transformable``.
    public static let transformableAttributeType = AttributeType.transformable
}

// No ExpressibleByNilLiteral: `nil` must keep meaning "no value" in `PersistentValue?` code; write `.null`.
extension PersistentValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
