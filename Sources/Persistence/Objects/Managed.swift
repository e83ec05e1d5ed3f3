/// Declares a property of a ``ManagedObject`` subclass that reads and writes the entity's property of the same name.
///
/// ```swift
/// final class Item: ManagedObject {
///     @Managed var title: String          // non-optional attribute
///     @Managed var due: Date?             // optional attribute
///     @Managed var group: Group?          // to-one relationship
/// }
/// final class Group: ManagedObject {
///     @Managed var items: [Item]          // ordered to-many
///     @Managed var tags: Set<Tag>         // unordered to-many
/// }
/// ```
///
/// The property's name is the key: `title` reads the `title` attribute. When the model is made, every `@Managed`
/// property is checked against the entity (name and type), so a typo is an error at start-up, not a wrong value.
@propertyWrapper
public struct Managed<Value: ManagedPropertyValue>: AnyManagedProperty {
    // Not read: it gives every wrapper its own storage offset. Zero-sized stored properties share one offset,
    // and on Linux key paths to them then compare equal and print the first one's name.
    private let storageMarker: UInt8 = 0

    public init() {}

    static var valueKind: ManagedValueKind { Value.managedValueKind }

    @available(*, unavailable, message: "@Managed is only for properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unreachable") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("unreachable") }
    }

    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Managed<Value>>
    ) -> Value {
        get {
            if let recorder = object.keyPathRecorder {
                return Value.fromManagedStorage(recorder.record(storageKeyPath, kind: Value.managedValueKind))
            }
            guard let index = object.entity.propertyIndex(forStorageKeyPath: storageKeyPath) else {
                return Value.fromManagedStorage(.value(.null))
            }
            return Value.fromManagedStorage(object.storage(at: index))
        }
        set {
            guard let index = object.entity.propertyIndex(forStorageKeyPath: storageKeyPath) else {
                object.managedObjectContext?.recordMisuse(PersistenceError(
                    .persistentStoreIncompatibleSchema,
                    "\(type(of: object)) declares \(storageKeyPath) but entity \(object.entity.name) has no such property.",
                    objectID: object.objectID))
                return
            }
            object.setStorage(newValue.managedStorage, at: index)
        }
    }
}

/// Lets the model check a class's `@Managed` properties without knowing their value types.
protocol AnyManagedProperty {
    static var valueKind: ManagedValueKind { get }
}

extension EntityDescription {
    /// The property a `@Managed` storage key path (`\Movie._title`) stands for; cached per key path.
    func propertyIndex(forStorageKeyPath keyPath: AnyKeyPath) -> Int? {
        if let index = keyPathIndexCache[keyPath] { return index }
        // The key path prints as `\Movie._title`: the property name follows the last "._".
        let text = String(describing: keyPath)
        guard let range = text.range(of: "._", options: .backwards) else { return nil }
        let name = String(text[range.upperBound...])
        guard let index = propertyIndexByName[name] else { return nil }
        keyPathIndexCache[keyPath] = index
        return index
    }

    /// Checks every `@Managed` property of ``managedObjectClass`` against this entity.
    func checkManagedObjectClass() throws {
        guard managedObjectClass != ManagedObject.self else { return }
        let sample = managedObjectClass.init(entity: self, insertInto: nil)
        var mirror: Mirror? = Mirror(reflecting: sample)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label, label.hasPrefix("_"),
                      let kind = (type(of: child.value) as? AnyManagedProperty.Type)?.valueKind else { continue }
                let name = String(label.dropFirst())
                let where_ = "\(managedObjectClass).\(name)"
                guard let property = propertiesByName[name] else {
                    throw PersistenceError(.coreData, "Invalid model: \(where_) is @Managed but entity \(self.name) has no property '\(name)'. Its properties: \(properties.map(\.name).joined(separator: ", ")).", entityName: self.name, key: name)
                }
                switch (kind, property) {
                case (.attribute(let types), .attribute(let attribute)) where types.contains(attribute.attributeType):
                    continue
                case (.toOne(let type), .relationship(let r)) where !r.isToMany && r.destinationEntity.managedObjectClass == type:
                    continue
                case (.toMany(let type, let ordered), .relationship(let r)) where r.isToMany && r.isOrdered == ordered && r.destinationEntity.managedObjectClass == type:
                    continue
                default:
                    throw PersistenceError(.coreData, "Invalid model: \(where_) is declared as \(kind) but the model says \(property.kindDescription).", entityName: self.name, key: name)
                }
            }
            mirror = current.superclassMirror
        }
    }
}

extension PropertyDescription {
    var kindDescription: String {
        switch self {
        case .attribute(let a): return "attribute of type \(a.attributeType.rawValue)"
        case .relationship(let r):
            return r.isToMany ? "\(r.isOrdered ? "ordered " : "")to-many relationship to \(r.destinationEntityName) (\(r.isOrdered ? "[T]" : "Set<T>"))"
                : "to-one relationship to \(r.destinationEntityName) (T?)"
        }
    }
}
