import Foundation

/// What a `@Managed` property may be declared as, and the entity property it must match.
public enum ManagedValueKind: Sendable, CustomStringConvertible {
    /// An attribute whose type is one of these.
    case attribute([AttributeType])
    /// A to-one relationship to objects of this class (declared `T?`).
    case toOne(ManagedObject.Type)
    /// A to-many relationship (declared `Set<T>`, or `NSOrderedSet` when ordered).
    case toMany(ManagedObject.Type, ordered: Bool)
    /// A to-many relationship declared as a Swift array `[T]`, which the model check refuses: Core Data hands an
    /// ordered to-many over as an `NSOrderedSet`, and what an `@NSManaged` property typed `[T]` does with it is
    /// undocumented, so the stricter reading is taken here, at start-up.
    case array(ManagedObject.Type)
    /// A value stored in a *Transformable* attribute through its value transformer, declared as its Swift type
    /// (named here): an array or dictionary of values, or a class of your own (see ``ManagedTransformable``).
    case transformable(String)
    /// An array or dictionary declared over a transformable attribute whose elements Objective-C cannot represent
    /// (named here), which the model check refuses: `@NSManaged` does not compile it on Apple platforms.
    case unrepresentable(String)

    /// The kind of a Swift array or dictionary over a transformable attribute: refused unless Objective-C can
    /// represent it, as `@NSManaged` requires.
    static func transformable(representing type: Any.Type) -> Self {
        let name = String(describing: type)
        return ObjectiveCRepresentation.represents(type) ? .transformable(name) : .unrepresentable(name)
    }

    public var description: String {
        switch self {
        case .attribute(let types): return "attribute (\(types.map(\.rawValue).joined(separator: " or ")))"
        case .toOne(let type): return "to-one relationship to \(type)"
        case .toMany(let type, let ordered): return "\(ordered ? "ordered " : "")to-many relationship to \(type)"
        case .array(let type): return "Swift array of \(type)"
        case .transformable(let type): return "\(type), a transformable attribute's value"
        case .unrepresentable(let type): return "\(type), which Objective-C cannot represent"
        }
    }
}

/// A Swift type a `@Managed` property can have: attribute types, `T?`, `Set<T>` and `NSOrderedSet` for
/// relationships (`[T]` compiles, and the model check refuses it, as ``ManagedValueKind/array(_:)`` says), and
/// for a transformable attribute, arrays and dictionaries of values and ``ManagedTransformable`` classes.
///
/// Persistence conforms every type it stores to this protocol. To store a type of your own, conform it to
/// ``ManagedAttributeValue`` instead: its four requirements say which attribute types it stands for and how it
/// converts to and from ``PersistentValue``, and it supplies everything here.
public protocol ManagedPropertyValue {
    /// What kind of entity property a `@Managed` property of this type must match: checked against the model
    /// when the model is made, so a mismatch is an error at start-up rather than a wrong value later.
    static var managedValueKind: ManagedValueKind { get }
    /// `true` for attribute types: a constant the typed accessors test on every access, so it must be cheaper
    /// than building ``managedValueKind``.
    static var isManagedAttribute: Bool { get }
    /// The Swift value of a property read from an object (a non-optional attribute that is nil reads as a
    /// placeholder — see ``ManagedAttributeValue/placeholder``; a relationship drops objects of other classes).
    static func fromManagedStorage(_ storage: ManagedStorage) -> Self
    /// The Swift value of property `ordinal` of `object`, which stores `storage`: ``fromManagedStorage(_:)``, and
    /// for an attribute whose Swift type is not a number or a Boolean, a nil there is a programming error
    /// (`NilRead`, reported as the test harness asks; by default it stops the program).
    static func _fromManagedStorage(_ storage: ManagedStorage, of object: ManagedObject, ordinal: UInt8) -> Self
    /// This value as the object stores it.
    var managedStorage: ManagedStorage { get }
    /// The value read straight from `object`'s packed row, or nil when the accessor must go the general way.
    static func _packedValue(in object: ManagedObject, ordinal: UInt8) -> Self?
    /// Sets `value` as `@Managed` property `ordinal` of `object`, in one call into the library (see
    /// ``Managed``'s setter for why one).
    static func _store(_ value: Self, in object: ManagedObject, ordinal: UInt8)
}

extension ManagedPropertyValue {
    // Relationships and the rarer attribute types always go the general way.
    @inlinable public static func _packedValue(in object: ManagedObject, ordinal: UInt8) -> Self? { nil }
    @inlinable public static func _fromManagedStorage(_ storage: ManagedStorage, of object: ManagedObject,
                                                      ordinal: UInt8) -> Self {
        fromManagedStorage(storage)
    }
    @inlinable public static func _store(_ value: Self, in object: ManagedObject, ordinal: UInt8) {
        object._setManagedStorage(value.managedStorage, ordinal: ordinal)
    }
}

/// A type that can sit inside an optional `@Managed` property (`String?`, `NSNumber?`, `Director?`).
///
/// Only types that Core Data hands over as objects conform: strings, dates, data, UUIDs, URLs, decimals, `NSNumber`
/// and managed objects. Swift's numbers and `Bool` do not, as on Apple platforms, where
/// `@NSManaged var rating: Double?` does not compile ("property cannot be marked @NSManaged because its type cannot
/// be represented in Objective-C"): `@Managed var rating: Double?` fails to compile too, with a message that says to
/// declare it `NSNumber?` (what Xcode generates for a number attribute without *Use Scalar Type*), or as a plain
/// `Double`, which reads 0 while the attribute is nil.
public protocol ManagedOptionalWrappable {
    /// What kind of entity property an optional `@Managed` property of this type must match.
    static var managedValueKind: ManagedValueKind { get }
    /// `true` for attribute types (see ``ManagedPropertyValue/isManagedAttribute``).
    static var isManagedAttribute: Bool { get }
    /// The value, or `nil` when the storage holds nil (or nothing).
    static func wrappedFromManagedStorage(_ storage: ManagedStorage) -> Self?
    /// What the object stores for nil.
    static var nilManagedStorage: ManagedStorage { get }
    /// This value as the object stores it.
    var managedStorage: ManagedStorage { get }
    /// The value read straight from `object`'s packed row (`.some(nil)` for nil), or nil for the general way.
    static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Self??
    /// Sets `value` (nil included) as `@Managed` property `ordinal` of `object`, in one call into the library.
    static func _storeWrapped(_ value: Self?, in object: ManagedObject, ordinal: UInt8)
}

extension ManagedOptionalWrappable {
    @inlinable public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Self?? { nil }
    @inlinable public static func _storeWrapped(_ value: Self?, in object: ManagedObject, ordinal: UInt8) {
        object._setManagedStorage(value?.managedStorage ?? nilManagedStorage, ordinal: ordinal)
    }
}

// An attribute type that may be optional has both protocols' defaults; these, more specific than either, settle which.
extension ManagedOptionalWrappable where Self: ManagedAttributeValue {
    @inlinable public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Self?? { nil }
    @inlinable public static func _storeWrapped(_ value: Self?, in object: ManagedObject, ordinal: UInt8) {
        object._setManagedStorage(value?.managedStorage ?? nilManagedStorage, ordinal: ordinal)
    }
}

/// An attribute type: converts to and from ``PersistentValue``.
///
/// A type of your own that conforms may be declared optional (`T?`) only if it also conforms to
/// ``ManagedOptionalWrappable``, which it may do with no more code: do so only for a type Core Data would hand over as
/// an object (a class, or a Swift type bridged to one), as `@NSManaged` accepts an optional of nothing else.
public protocol ManagedAttributeValue: ManagedPropertyValue {
    /// The attribute types this Swift type may stand for.
    static var attributeTypes: [AttributeType] { get }
    /// The value a non-optional property reads while the attribute is nil: 0 or `false` for numbers and Booleans,
    /// as Core Data's scalar accessors; for any other type the read is a programming error first (it stops the
    /// program, as the device would), and this is what a test harness that reports it gets.
    static var placeholder: Self { get }
    /// The Swift value of a stored value, or nil when `persistentValue` does not fit this type (an integer too large
    /// for it, a value of another kind); such a value reads as nil, or as ``placeholder`` in a non-optional property.
    init?(persistentValue: PersistentValue)
    /// This value as the store keeps it.
    var persistentValue: PersistentValue { get }
    /// The value read straight from `object`'s packed row (`.some(nil)` for nil), or nil for the general way.
    static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Self??
    /// Sets `value` (nil included) as `@Managed` property `ordinal` of `object`, in one call into the library.
    static func _storeWrapped(_ value: Self?, in object: ManagedObject, ordinal: UInt8)
}

extension ManagedAttributeValue {
    @inlinable public static var managedValueKind: ManagedValueKind { .attribute(attributeTypes) }
    @inlinable public static var isManagedAttribute: Bool { true }
    @inlinable public static var nilManagedStorage: ManagedStorage { .value(.null) }
    @inlinable public var managedStorage: ManagedStorage { .value(persistentValue) }
    @inlinable public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Self?? { nil }
    @inlinable public static func _storeWrapped(_ value: Self?, in object: ManagedObject, ordinal: UInt8) {
        object._setManagedStorage(value?.managedStorage ?? nilManagedStorage, ordinal: ordinal)
    }

    @inlinable public static func fromManagedStorage(_ storage: ManagedStorage) -> Self {
        wrappedFromManagedStorage(storage) ?? placeholder
    }

    @inlinable public static func wrappedFromManagedStorage(_ storage: ManagedStorage) -> Self? {
        if case .value(let value) = storage { return Self(persistentValue: value) }
        return nil
    }

    @inlinable public static func _fromManagedStorage(_ storage: ManagedStorage, of object: ManagedObject,
                                                      ordinal: UInt8) -> Self {
        if let value = wrappedFromManagedStorage(storage) { return value }
        object._readNilThroughNonOptional(ordinal: ordinal, as: Self.self)
        return placeholder
    }

    @inlinable public static func _packedValue(in object: ManagedObject, ordinal: UInt8) -> Self? {
        guard let read = _packedWrapped(in: object, ordinal: ordinal) else { return nil }
        if let value = read { return value }
        object._readNilThroughNonOptional(ordinal: ordinal, as: Self.self)
        return placeholder
    }

    @inlinable public static func _store(_ value: Self, in object: ManagedObject, ordinal: UInt8) {
        _storeWrapped(value, in: object, ordinal: ordinal)
    }

    /// A value from a packed word of `kind`, converted by `convert` (nil: the value does not fit this type, which
    /// reads as nil, as the general way reads it).
    @inlinable static func packedWrapped(in object: ManagedObject, ordinal: UInt8, kind: PackedRowLayout.CellKind,
                                         _ convert: (UInt64) -> Self?) -> Self?? {
        let read = object._packedWord(ordinal: ordinal, kind: kind)
        switch read.state {
        case .general: return nil
        case .null: return .some(nil)
        case .value: return .some(convert(read.word))
        }
    }
}

extension Optional: ManagedPropertyValue where Wrapped: ManagedOptionalWrappable {
    @inlinable public static var managedValueKind: ManagedValueKind { Wrapped.managedValueKind }
    @inlinable public static var isManagedAttribute: Bool { Wrapped.isManagedAttribute }
    @inlinable public static func fromManagedStorage(_ storage: ManagedStorage) -> Self { Wrapped.wrappedFromManagedStorage(storage) }
    @inlinable public var managedStorage: ManagedStorage { map(\.managedStorage) ?? Wrapped.nilManagedStorage }
    @inlinable public static func _packedValue(in object: ManagedObject, ordinal: UInt8) -> Self? {
        Wrapped._packedWrapped(in: object, ordinal: ordinal)
    }
    @inlinable public static func _store(_ value: Self, in object: ManagedObject, ordinal: UInt8) {
        Wrapped._storeWrapped(value, in: object, ordinal: ordinal)
    }
}

extension ManagedObject: ManagedOptionalWrappable {
    public class var managedValueKind: ManagedValueKind { .toOne(self) }
    public static var isManagedAttribute: Bool { false }
    public static var nilManagedStorage: ManagedStorage { .objects([]) }
    @inlinable public var managedStorage: ManagedStorage { .objects([self]) }
    @inlinable public static func wrappedFromManagedStorage(_ storage: ManagedStorage) -> Self? {
        if case .objects(let objects) = storage { return objects.first as? Self }
        return nil
    }
}

extension Set: ManagedPropertyValue where Element: ManagedObject {
    @inlinable public static var managedValueKind: ManagedValueKind { .toMany(Element.self, ordered: false) }
    @inlinable public static var isManagedAttribute: Bool { false }
    @inlinable public static func fromManagedStorage(_ storage: ManagedStorage) -> Self {
        guard case .objects(let objects) = storage else { return [] }
        return Set(objects.compactMap { $0 as? Element })
    }
    @inlinable public var managedStorage: ManagedStorage { .objects(Array(self)) }
}

/// A Swift array: over a *Transformable* attribute, a value stored through the attribute's transformer
/// (`@Managed var colors: [String]`, as `@NSManaged var colors: [String]`; see ``ManagedTransformable`` for how it
/// reads and writes; a nil read through the non-optional form reads `[]` after a test harness is told). An array of
/// managed objects is a to-many declared `[T]`, which the model check refuses (see ``ManagedValueKind/array(_:)``).
extension Array: ManagedPropertyValue, ManagedOptionalWrappable {
    public static var managedValueKind: ManagedValueKind {
        if let type = Element.self as? ManagedObject.Type { return .array(type) }
        return .transformable(representing: Self.self)
    }
    @inlinable public static var isManagedAttribute: Bool { false }
    @inlinable public static var nilManagedStorage: ManagedStorage { .value(.null) }
    public static func fromManagedStorage(_ storage: ManagedStorage) -> Self {
        guard case .objects(let objects) = storage else { return [] }
        return objects.compactMap { $0 as? Element }
    }
    public static func wrappedFromManagedStorage(_ storage: ManagedStorage) -> Self? {
        guard case .objects(let objects) = storage else { return nil }
        return objects.compactMap { $0 as? Element }
    }
    public var managedStorage: ManagedStorage { .objects(compactMap { $0 as? ManagedObject }) }

    public static func _packedValue(in object: ManagedObject, ordinal: UInt8) -> Self? {
        guard !(Element.self is ManagedObject.Type), !object._isRecordingKeyPaths else { return nil }
        return object._transformableValue(ordinal: ordinal, as: Self.self, placeholder: [])
    }
    public static func _store(_ value: Self, in object: ManagedObject, ordinal: UInt8) {
        if Element.self is ManagedObject.Type { return object._setManagedStorage(value.managedStorage, ordinal: ordinal) }
        object._setTransformableValue(value, ordinal: ordinal)
    }
    public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Self?? {
        guard !(Element.self is ManagedObject.Type), !object._isRecordingKeyPaths else { return nil }
        return .some(object._optionalTransformableValue(ordinal: ordinal, as: Self.self))
    }
    public static func _storeWrapped(_ value: Self?, in object: ManagedObject, ordinal: UInt8) {
        if Element.self is ManagedObject.Type {
            return object._setManagedStorage(value?.managedStorage ?? .objects([]), ordinal: ordinal)
        }
        object._setTransformableValue(value, ordinal: ordinal)
    }
}

/// A Swift dictionary over a *Transformable* attribute (`@Managed var sizes: [String: Int]`), as an array of
/// values is: see ``ManagedTransformable``.
extension Dictionary: ManagedPropertyValue, ManagedOptionalWrappable {
    public static var managedValueKind: ManagedValueKind { .transformable(representing: Self.self) }
    @inlinable public static var isManagedAttribute: Bool { false }
    @inlinable public static var nilManagedStorage: ManagedStorage { .value(.null) }
    public static func fromManagedStorage(_ storage: ManagedStorage) -> Self { [:] }
    public static func wrappedFromManagedStorage(_ storage: ManagedStorage) -> Self? { nil }
    public var managedStorage: ManagedStorage { .value(.null) }

    public static func _packedValue(in object: ManagedObject, ordinal: UInt8) -> Self? {
        if object._isRecordingKeyPaths { return nil }
        return object._transformableValue(ordinal: ordinal, as: Self.self, placeholder: [:])
    }
    public static func _store(_ value: Self, in object: ManagedObject, ordinal: UInt8) {
        object._setTransformableValue(value, ordinal: ordinal)
    }
    public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Self?? {
        if object._isRecordingKeyPaths { return nil }
        return .some(object._optionalTransformableValue(ordinal: ordinal, as: Self.self))
    }
    public static func _storeWrapped(_ value: Self?, in object: ManagedObject, ordinal: UInt8) {
        object._setTransformableValue(value, ordinal: ordinal)
    }
}

/// An ordered to-many relationship, as Core Data hands it over: its objects in order, each a `ManagedObject` (read
/// `set.array as! [Step]`, or `set.compactMap { $0 as? Step }`). Setting one replaces the relationship's objects
/// and their order. A set with an element that is not a managed object is refused, as Core Data raises for it: the
/// relationship keeps its objects and the context's next save throws the mistake.
extension NSOrderedSet: ManagedPropertyValue {
    public static var managedValueKind: ManagedValueKind { .toMany(ManagedObject.self, ordered: true) }
    public static var isManagedAttribute: Bool { false }
    public static func fromManagedStorage(_ storage: ManagedStorage) -> Self {
        guard case .objects(let objects) = storage else { return NSOrderedSet() as! Self }
        return NSOrderedSet(array: objects) as! Self
    }
    public var managedStorage: ManagedStorage {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(count)
        for element in self {
            guard let object = element as? ManagedObject else { return .unacceptable("\(type(of: element))") }
            objects.append(object)
        }
        return .objects(objects)
    }
}

// MARK: - Attribute types

extension String: ManagedAttributeValue, ManagedOptionalWrappable {
    public static var attributeTypes: [AttributeType] { [.string] }
    @inlinable public static var placeholder: String { "" }
    @inlinable public init?(persistentValue: PersistentValue) {
        guard case .string(let v) = persistentValue else { return nil }
        self = v
    }
    @inlinable public var persistentValue: PersistentValue { .string(self) }
    @inlinable public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> String?? {
        object._packedString(ordinal: ordinal)
    }
    @inlinable public static func _storeWrapped(_ value: String?, in object: ManagedObject, ordinal: UInt8) {
        object._storeString(value, ordinal: ordinal)
    }
}

extension Int: ManagedAttributeValue {
    public static var attributeTypes: [AttributeType] { [.integer16, .integer32, .integer64] }
    @inlinable public static var placeholder: Int { 0 }
    @inlinable public init?(persistentValue: PersistentValue) {
        guard case .integer(let v) = persistentValue else { return nil }
        self = Int(v)
    }
    @inlinable public var persistentValue: PersistentValue { .integer(Int64(self)) }
    @inlinable public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Int?? {
        packedWrapped(in: object, ordinal: ordinal, kind: .integer) { Int(Int64(bitPattern: $0)) }
    }
    @inlinable public static func _storeWrapped(_ value: Int?, in object: ManagedObject, ordinal: UInt8) {
        object._storeInteger(value.map(Int64.init), ordinal: ordinal)
    }
}

extension Int64: ManagedAttributeValue {
    public static var attributeTypes: [AttributeType] { [.integer64] }
    @inlinable public static var placeholder: Int64 { 0 }
    @inlinable public init?(persistentValue: PersistentValue) {
        guard case .integer(let v) = persistentValue else { return nil }
        self = v
    }
    @inlinable public var persistentValue: PersistentValue { .integer(self) }
    @inlinable public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Int64?? {
        packedWrapped(in: object, ordinal: ordinal, kind: .integer) { Int64(bitPattern: $0) }
    }
    @inlinable public static func _storeWrapped(_ value: Int64?, in object: ManagedObject, ordinal: UInt8) {
        object._storeInteger(value, ordinal: ordinal)
    }
}

extension Int32: ManagedAttributeValue {
    public static var attributeTypes: [AttributeType] { [.integer32] }
    @inlinable public static var placeholder: Int32 { 0 }
    @inlinable public init?(persistentValue: PersistentValue) {
        guard case .integer(let v) = persistentValue, let narrow = Int32(exactly: v) else { return nil }
        self = narrow
    }
    @inlinable public var persistentValue: PersistentValue { .integer(Int64(self)) }
    @inlinable public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Int32?? {
        packedWrapped(in: object, ordinal: ordinal, kind: .integer) { Int32(exactly: Int64(bitPattern: $0)) }
    }
}

extension Int16: ManagedAttributeValue {
    public static var attributeTypes: [AttributeType] { [.integer16] }
    @inlinable public static var placeholder: Int16 { 0 }
    @inlinable public init?(persistentValue: PersistentValue) {
        guard case .integer(let v) = persistentValue, let narrow = Int16(exactly: v) else { return nil }
        self = narrow
    }
    @inlinable public var persistentValue: PersistentValue { .integer(Int64(self)) }
    @inlinable public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Int16?? {
        packedWrapped(in: object, ordinal: ordinal, kind: .integer) { Int16(exactly: Int64(bitPattern: $0)) }
    }
}

extension Double: ManagedAttributeValue {
    public static var attributeTypes: [AttributeType] { [.double, .float] }
    @inlinable public static var placeholder: Double { 0 }
    @inlinable public init?(persistentValue: PersistentValue) {
        switch persistentValue {
        case .double(let v): self = v
        case .integer(let v): self = Double(v)
        default: return nil
        }
    }
    @inlinable public var persistentValue: PersistentValue { .double(self) }
    @inlinable public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Double?? {
        packedWrapped(in: object, ordinal: ordinal, kind: .double) { Double(bitPattern: $0) }
    }
    @inlinable public static func _storeWrapped(_ value: Double?, in object: ManagedObject, ordinal: UInt8) {
        object._storeDouble(value, ordinal: ordinal)
    }
}

extension Float: ManagedAttributeValue {
    public static var attributeTypes: [AttributeType] { [.float] }
    @inlinable public static var placeholder: Float { 0 }
    @inlinable public init?(persistentValue: PersistentValue) {
        guard let v = Double(persistentValue: persistentValue) else { return nil }
        self = Float(v)
    }
    @inlinable public var persistentValue: PersistentValue { .double(Double(self)) }
    @inlinable public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Float?? {
        packedWrapped(in: object, ordinal: ordinal, kind: .double) { Float(Double(bitPattern: $0)) }
    }
}

extension Bool: ManagedAttributeValue {
    public static var attributeTypes: [AttributeType] { [.boolean] }
    @inlinable public static var placeholder: Bool { false }
    @inlinable public init?(persistentValue: PersistentValue) {
        guard case .bool(let v) = persistentValue else { return nil }
        self = v
    }
    @inlinable public var persistentValue: PersistentValue { .bool(self) }
    @inlinable public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Bool?? {
        packedWrapped(in: object, ordinal: ordinal, kind: .bool) { $0 != 0 }
    }
    @inlinable public static func _storeWrapped(_ value: Bool?, in object: ManagedObject, ordinal: UInt8) {
        object._storeBool(value, ordinal: ordinal)
    }
}

extension Date: ManagedAttributeValue, ManagedOptionalWrappable {
    public static var attributeTypes: [AttributeType] { [.date] }
    @inlinable public static var placeholder: Date { Date(timeIntervalSinceReferenceDate: 0) }
    @inlinable public init?(persistentValue: PersistentValue) {
        guard case .date(let v) = persistentValue else { return nil }
        self = v
    }
    @inlinable public var persistentValue: PersistentValue { .date(self) }
    @inlinable public static func _packedWrapped(in object: ManagedObject, ordinal: UInt8) -> Date?? {
        packedWrapped(in: object, ordinal: ordinal, kind: .date) { Date(timeIntervalSinceReferenceDate: Double(bitPattern: $0)) }
    }
    @inlinable public static func _storeWrapped(_ value: Date?, in object: ManagedObject, ordinal: UInt8) {
        object._storeDate(value, ordinal: ordinal)
    }
}

extension UUID: ManagedAttributeValue, ManagedOptionalWrappable {
    public static var attributeTypes: [AttributeType] { [.uuid] }
    @inlinable public static var placeholder: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    @inlinable public init?(persistentValue: PersistentValue) {
        guard case .uuid(let v) = persistentValue else { return nil }
        self = v
    }
    @inlinable public var persistentValue: PersistentValue { .uuid(self) }
}

extension URL: ManagedAttributeValue, ManagedOptionalWrappable {
    public static var attributeTypes: [AttributeType] { [.uri] }
    @inlinable public static var placeholder: URL { URL(string: "about:blank")! }
    @inlinable public init?(persistentValue: PersistentValue) {
        guard case .uri(let v) = persistentValue else { return nil }
        self = v
    }
    @inlinable public var persistentValue: PersistentValue { .uri(self) }
}

extension Data: ManagedAttributeValue, ManagedOptionalWrappable {
    public static var attributeTypes: [AttributeType] { [.binaryData] }
    @inlinable public static var placeholder: Data { Data() }
    @inlinable public init?(persistentValue: PersistentValue) {
        guard case .data(let v) = persistentValue else { return nil }
        self = v
    }
    @inlinable public var persistentValue: PersistentValue { .data(self) }
}

extension Decimal: ManagedAttributeValue, ManagedOptionalWrappable {
    public static var attributeTypes: [AttributeType] { [.decimal] }
    @inlinable public static var placeholder: Decimal { 0 }
    @inlinable public init?(persistentValue: PersistentValue) {
        guard case .decimal(let v) = persistentValue else { return nil }
        self = v
    }
    @inlinable public var persistentValue: PersistentValue { .decimal(self) }
}

// MARK: - Numbers and Booleans are never optional

// `@NSManaged var rating: Double?` does not compile on Apple platforms: an optional Swift number has no Objective-C
// form. These conformances exist only to be refused, so that `@Managed var rating: Double?` fails to compile as well,
// with a message that says what to write instead; they are never used.

@available(*, unavailable, message: "a @Managed property cannot be \"Int?\": as with @NSManaged, an optional number or Boolean has no Objective-C form. Declare it NSNumber? (as Xcode does for an attribute without Use Scalar Type), or Int, which reads 0 while the attribute is nil")
extension Int: ManagedOptionalWrappable {}

@available(*, unavailable, message: "a @Managed property cannot be \"Int16?\": as with @NSManaged, an optional number or Boolean has no Objective-C form. Declare it NSNumber? (as Xcode does for an attribute without Use Scalar Type), or Int16, which reads 0 while the attribute is nil")
extension Int16: ManagedOptionalWrappable {}

@available(*, unavailable, message: "a @Managed property cannot be \"Int32?\": as with @NSManaged, an optional number or Boolean has no Objective-C form. Declare it NSNumber? (as Xcode does for an attribute without Use Scalar Type), or Int32, which reads 0 while the attribute is nil")
extension Int32: ManagedOptionalWrappable {}

@available(*, unavailable, message: "a @Managed property cannot be \"Int64?\": as with @NSManaged, an optional number or Boolean has no Objective-C form. Declare it NSNumber? (as Xcode does for an attribute without Use Scalar Type), or Int64, which reads 0 while the attribute is nil")
extension Int64: ManagedOptionalWrappable {}

@available(*, unavailable, message: "a @Managed property cannot be \"Double?\": as with @NSManaged, an optional number or Boolean has no Objective-C form. Declare it NSNumber? (as Xcode does for an attribute without Use Scalar Type), or Double, which reads 0 while the attribute is nil")
extension Double: ManagedOptionalWrappable {}

@available(*, unavailable, message: "a @Managed property cannot be \"Float?\": as with @NSManaged, an optional number or Boolean has no Objective-C form. Declare it NSNumber? (as Xcode does for an attribute without Use Scalar Type), or Float, which reads 0 while the attribute is nil")
extension Float: ManagedOptionalWrappable {}

@available(*, unavailable, message: "a @Managed property cannot be \"Bool?\": as with @NSManaged, an optional number or Boolean has no Objective-C form. Declare it NSNumber? (as Xcode does for an attribute without Use Scalar Type), or Bool, which reads false while the attribute is nil")
extension Bool: ManagedOptionalWrappable {}
