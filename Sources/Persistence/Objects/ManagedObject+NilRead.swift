import Synchronization

/// A read of nil through a non-optional `@Managed` property whose type is not a Swift number or a Boolean — a
/// `Date`, `String`, `UUID`, `URL`, `Data`, `Decimal` or `NSNumber` property over an attribute that holds no value
/// (or a value of another type) — or through a to-one relationship declared non-optional (`var country: Country`)
/// while the relationship is nil.
///
/// Core Data documents nothing for this read. On Apple platforms the Swift bridge decides, by type: a
/// non-optional `Date` over nil is reported to crash the app, a `String` to read as empty, and the other types are
/// not documented either way; Persistence takes the stricter reading for all of them, so code that would stop a
/// device never passes here. Swift's numbers and Booleans (`Int`, `Double`, `Bool`…) read 0 and `false`, as Core
/// Data's scalar accessors do; an `NSNumber` is an object, whose nil is reported like a `Date`'s. Core Data accepts
/// `@NSManaged var country: Country` and documents nothing for its read of a nil relationship either: the accessor
/// hands Swift a nil reference it promised was an object, which crashes in practice; Persistence stops there too.
@_spi(TestHarness) public struct NilRead: Error, Sendable, CustomStringConvertible {
    /// The entity of the object read.
    public let entityName: String
    /// The property read.
    public let key: String
    /// The Swift type the property is declared with.
    public let typeName: String
    /// The class that declares the property.
    public let className: String
    /// The object read, as its object ID's URI.
    public let object: String
    /// `true` for a to-one relationship declared non-optional (`@Managed var country: Country`).
    public let isToOne: Bool
    /// The type of the value found instead, for a transformable attribute that holds a value of another type
    /// (stored through key-value coding); nil when the value is nil.
    public let foundTypeName: String?

    public var description: String {
        if isToOne {
            return "\(className).\(key) is declared \(typeName), a non-optional to-one relationship, but the "
                + "relationship of \(object) (entity \(entityName)) is nil. Core Data's accessor would hand a nil "
                + "reference to a Swift property that promised an object: undocumented, and a crash in practice. "
                + "Declare the property \(typeName)? (as Xcode generates it), or set the relationship before reading it."
        }
        if let foundTypeName {
            return "\(className).\(key) is declared \(typeName), but the transformable attribute of \(object) "
                + "(entity \(entityName)) holds a value of another type, \(foundTypeName) (set through key-value coding, "
                + "or by another transformer). Persistence stops rather than read a default: store a \(typeName) "
                + "there, or read the attribute with value(forKey:)."
        }
        return "\(entityName).\(key) is declared \(typeName), not optional, but its value is nil. Core Data documents no "
            + "value for this read, and on Apple platforms a non-optional Date read as nil is reported to stop the "
            + "app; Persistence stops for every type but Swift's numbers and Booleans. Declare the property \(typeName)? "
            + "(as Xcode generates it), or set it — or give the attribute a default value — before reading it."
    }
}

/// What a ``NilRead`` does: stop the program (the default, as the device would), or be reported — for a test
/// harness, which turns it into a failed test rather than a dead process; the read then gives the type's neutral
/// value (`""`, the reference date, a zero UUID). Not for apps: Core Data has no such mode.
@_spi(TestHarness) public enum NilReadHandling: Sendable {
    /// Stop the program with the read's message. The default.
    case stop
    /// Hand the read to `report` and go on with the type's neutral value.
    case report(@Sendable (NilRead) -> Void)
}

extension ManagedObject {
    private static let nilReads = Mutex<NilReadHandling>(.stop)

    /// What a read of nil through a non-optional `@Managed` property does, for the whole process (see ``NilRead``).
    @_spi(TestHarness) public static var nilReadHandling: NilReadHandling {
        get { nilReads.withLock { $0 } }
        set { nilReads.withLock { $0 = newValue } }
    }

    /// The types whose nil reads as 0 or `false`, as Core Data's scalar accessors give it.
    private static let scalarTypes: Set<ObjectIdentifier> = [
        ObjectIdentifier(Int.self), ObjectIdentifier(Int16.self), ObjectIdentifier(Int32.self),
        ObjectIdentifier(Int64.self), ObjectIdentifier(Double.self), ObjectIdentifier(Float.self),
        ObjectIdentifier(Bool.self),
    ]

    /// Called by a non-optional `@Managed` attribute that found nil (or a value its type cannot hold) where it
    /// reads its placeholder: a ``NilRead`` unless `type` is a scalar, or the object is a stored one cut loose
    /// from its context (deleted and saved, or emptied on reset — what it reads then is not its value), or a
    /// fault whose row is gone under `shouldDeleteInaccessibleFaults = false` (Core Data raises on the fault
    /// itself, which the next save reports). A fault deleted silently does read nil: Core Data documents that its
    /// attributes are nil or 0, so the Swift property meets a nil as any other.
    @usableFromInline
    final func _readNilThroughNonOptional(ordinal: UInt8, as type: Any.Type) {
        guard !Self.scalarTypes.contains(ObjectIdentifier(type)) else { return }
        reportNilRead(ordinal: ordinal, as: type, toOne: false)
    }

    /// Called by a non-optional `@Managed` to-one (`var country: Country`) that found no object: a ``NilRead``, with
    /// the same exceptions as for an attribute (see ``_readNilThroughNonOptional(ordinal:as:)``).
    final func _readNilThroughNonOptionalToOne(ordinal: UInt8, as type: ManagedObject.Type) {
        reportNilRead(ordinal: ordinal, as: type, toOne: true)
    }

    /// Reports a nil read (or, with `found`, a read of a value of another type) as ``nilReadHandling`` says, and
    /// returns it; nil when it is no mistake (see ``_readNilThroughNonOptional(ordinal:as:)``).
    @discardableResult
    func reportNilRead(ordinal: UInt8, as type: Any.Type, toOne: Bool, found: Any.Type? = nil) -> NilRead? {
        guard managedObjectContext != nil || objectID.isTemporaryID,
              !inaccessible || managedObjectContext?.shouldDeleteInaccessibleFaults != false,
              let index = entity.propertyIndex(ordinal: ordinal) ?? entity.primitivePropertyIndex(ordinal: ordinal) else { return nil }
        let read = NilRead(entityName: entity.entityName, key: entity.properties[index].name,
                           typeName: String(describing: type), className: String(describing: Swift.type(of: self)),
                           object: objectID.uriRepresentation().absoluteString, isToOne: toOne,
                           foundTypeName: found.map { String(describing: $0) })
        switch Self.nilReadHandling {
        case .stop: fatalError("\(read)")
        case .report(let report): report(read)
        }
        return read
    }
}
