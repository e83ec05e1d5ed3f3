import Foundation

/// A class of your own stored in a *Transformable* attribute and declared as itself: `@Managed var palette:
/// Palette` (or `Palette?`), as Core Data accepts `@NSManaged var palette: Palette`.
///
/// Conform with no code, `extension Palette: ManagedTransformable {}`: `@Managed` has no other way to know a type
/// of yours. As with `@NSManaged`, whose property must be representable in Objective-C, the type must be a class
/// that inherits from `NSObject`; a Swift structure or enumeration does not compile (box it in such a class). Swift
/// arrays and dictionaries need no conformance: `@Managed var colors: [String]`.
///
/// Reads and writes go through the attribute's value transformer, as ``ManagedObject/value(forKey:)`` and
/// ``ManagedObject/setValue(_:forKey:)`` do (its named transformer, or Core Data's default). The model check
/// takes the property only over a transformable attribute. A non-optional property read while the attribute is
/// nil, or while it holds a value of another type (stored through key-value coding), is a programming error
/// (`NilRead`), which stops the program: a class of yours has no neutral value to read instead. The optional
/// form reads nil for nil, and a value of another type is reported all the same.
public protocol ManagedTransformable: NSObject, ManagedPropertyValue, ManagedOptionalWrappable {}

extension ManagedTransformable {
    public static var managedValueKind: ManagedValueKind { .transformable(String(describing: Self.self)) }
    public static var isManagedAttribute: Bool { false }
    public static var nilManagedStorage: ManagedStorage { .value(.null) }
    /// Not used: a transformable value is stored through its transformer (see ``_store(_:in:ordinal:)``).
    public var managedStorage: ManagedStorage { .value(.null) }

    /// Reached only while a key path is recorded (`\Sketch.palette`), where a value of yours cannot be made.
    public static func fromManagedStorage(_ storage: ManagedStorage) -> Self {
        fatalError("A key path through \(Self.self), a transformable @Managed property, names no value to record: write the key as a string.")
    }

    public static func wrappedFromManagedStorage(_ storage: ManagedStorage) -> Self? { nil }

    public static func _packedValue(in object: ManagedObject, ordinal: UInt8) -> Self? {
        if object._isRecordingKeyPaths { return nil }
        return object._transformableValue(ordinal: ordinal, as: Self.self, placeholder: nil)
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
