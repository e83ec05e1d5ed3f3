/// Declares a property of a ``ManagedObject`` subclass that reads and writes the entity's property of the same name.
///
/// ```swift
/// final class Item: ManagedObject {
///     @Managed var title: String          // non-optional attribute
///     @Managed var due: Date?             // optional attribute
///     @Managed var priority: Int          // number: reads 0 while nil
///     @Managed var rating: NSNumber?      // optional number (Double? does not compile, as with @NSManaged)
///     @Managed var group: Group?          // to-one relationship
///     @Managed var owner: Person          // to-one read as non-optional: reading it while nil stops
///     @Managed var colors: [String]       // transformable attribute, through its value transformer
///     @Managed private var primitiveDue: Date?   // primitive accessor of `due`: no change notifications
/// }
/// final class Group: ManagedObject {
///     @Managed var items: NSOrderedSet    // ordered to-many (read items.array as! [Item])
///     @Managed var tags: Set<Tag>         // unordered to-many
/// }
/// ```
///
/// The property's name is the key: `title` reads the `title` attribute. When the model is made, every `@Managed`
/// property is checked against the entity (name and type), so a typo is an error at start-up, not a wrong value.
///
/// A to-one relationship may be declared non-optional, as Core Data accepts `@NSManaged var owner: Person`: it
/// sets as `Person?` does, over a relationship optional in the model or not, and reading it while the relationship
/// is nil is a programming error that stops the program, naming the class, the property and the object
/// (`NilRead`; Core Data's accessor hands Swift a nil reference there, which crashes in practice).
///
/// A transformable attribute is declared as its Swift type: an array or a dictionary of values Objective-C can
/// represent (others are refused when the model is made, as `@NSManaged` does not compile them), or a class of your
/// own that conforms to ``ManagedTransformable`` (the one line `@NSManaged` does without). Values go through the
/// attribute's value transformer, as key-value coding's do.
///
/// A property named `primitive` and a key with its first letter capitalised (`primitiveDue` for `due`) is that
/// property's primitive accessor, as Core Data generates one for every modelled property: it reads and writes as
/// ``ManagedObject/primitiveValue(forKey:)`` and ``ManagedObject/setPrimitiveValue(_:forKey:)`` do, without the
/// change notifications, so a set alone records no change. One whose key the entity lacks is refused by name when
/// the model is made (Apple: such an accessor "will instead operate upon a random modeled property").
@propertyWrapper
public struct Managed<Value: ManagedPropertyValue>: AnyManagedProperty {
    /// This property's place among the object's `@Managed` properties (see ``ManagedPropertyOrdinal``).
    @usableFromInline let ordinal: UInt8

    /// Declares the property; its name is the entity property's key.
    public init() {
        ordinal = ManagedPropertyOrdinal.next()
    }

    static var valueKind: ManagedValueKind { Value.managedValueKind }

    @available(*, unavailable, message: "@Managed is only for properties of ManagedObject subclasses")
    public var wrappedValue: Value {
        get { fatalError("unreachable") }
        // swiftlint:disable:next unused_setter_value
        set { fatalError("unreachable") }
    }

    // Inlinable so that, inlined into the subclass's accessor, the storage key path is a literal the optimiser turns
    // into a plain field load: an access then costs one call, not a key-path walk.
    @inlinable
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Managed<Value>>
    ) -> Value {
        get {
            let ordinal = object[keyPath: storageKeyPath].ordinal
            // Straight from a packed row when nothing else has to happen (see ManagedObject+PackedAccess).
            if let value = Value._packedValue(in: object, ordinal: ordinal) { return value }
            if object._isRecordingKeyPaths {
                return Value.fromManagedStorage(object._recordKeyPathRead(ordinal: ordinal, kind: Value.managedValueKind))
            }
            // Attributes skip the ManagedStorage wrapper; the check folds away once specialised for `Value`.
            if Value.isManagedAttribute {
                return Value._fromManagedStorage(.value(object._attributeValue(ordinal: ordinal)), of: object,
                                                 ordinal: ordinal)
            }
            return Value._fromManagedStorage(object._managedStorage(ordinal: ordinal), of: object, ordinal: ordinal)
        }
        set {
            // One call into the library and nothing else: with a second use of `object` here (a fast way and a
            // general one), the compiler retains and releases the object around every set.
            Value._store(newValue, in: object, ordinal: object[keyPath: storageKeyPath].ordinal)
        }
    }
}

/// Lets the model check a class's `@Managed` properties without knowing their value types.
protocol AnyManagedProperty {
    static var valueKind: ManagedValueKind { get }
    var ordinal: UInt8 { get }
}

extension ManagedObject {
    /// The value of the `@Managed` property with `ordinal` (nil for an object whose class does not match its entity).
    @usableFromInline
    final func _managedStorage(ordinal: UInt8) -> ManagedStorage {
        guard let index = entity.propertyIndex(ordinal: ordinal) else { return primitiveStorage(ordinal: ordinal) }
        checkQueue(entity.properties[index].name)
        return storage(at: index)
    }

    /// The value of the `@Managed` attribute with `ordinal`.
    @usableFromInline
    final func _attributeValue(ordinal: UInt8) -> PersistentValue {
        guard let index = entity.propertyIndex(ordinal: ordinal) else {
            guard case .value(let value) = primitiveStorage(ordinal: ordinal) else { return .null }
            return value
        }
        checkQueue(entity.properties[index].name)
        return attributeValue(at: index)
    }

    @usableFromInline
    final func _setAttributeValue(_ value: PersistentValue, ordinal: UInt8) {
        guard let index = entity.propertyIndex(ordinal: ordinal) else {
            _setManagedStorage(.value(value), ordinal: ordinal)
            return
        }
        checkQueue(entity.properties[index].name)
        setAttributeValue(value, at: index)
    }

    @usableFromInline
    final func _setManagedStorage(_ storage: ManagedStorage, ordinal: UInt8) {
        guard let index = entity.propertyIndex(ordinal: ordinal) else {
            if let index = entity.primitivePropertyIndex(ordinal: ordinal) { return setPrimitiveStorage(storage, at: index) }
            managedObjectContext?.recordMisuse(PersistenceError(
                .persistentStoreIncompatibleSchema,
                "\(type(of: self)) is not the class of entity \(entity.entityName); its @Managed property #\(ordinal) has nowhere to go.",
                object: self))
            return
        }
        checkQueue(entity.properties[index].name)
        setStorage(storage, at: index)
    }

    /// The value of primitive accessor `ordinal` (`primitiveDate` for `date`), read as the property's own: the
    /// typed accessors call no access notifications either. `.value(.null)` when `ordinal` is no primitive accessor
    /// (an object whose class does not match its entity).
    private func primitiveStorage(ordinal: UInt8) -> ManagedStorage {
        guard let index = entity.primitivePropertyIndex(ordinal: ordinal) else { return .value(.null) }
        checkQueue(entity.properties[index].name)
        return storage(at: index)
    }

    /// Sets property `index` through its primitive accessor, as ``setPrimitiveValue(_:forKey:)`` does: without
    /// the change notifications, so the object records no change of its own.
    private func setPrimitiveStorage(_ storage: ManagedStorage, at index: Int) {
        checkQueue(entity.properties[index].name)
        let context = managedObjectContext
        let outer = context?.primitiveWriter
        context?.primitiveWriter = self
        defer { context?.primitiveWriter = outer }
        setStorage(storage, at: index)
    }

    @usableFromInline
    final var _isRecordingKeyPaths: Bool { keyPathRecorder != nil }

    @usableFromInline
    final func _recordKeyPathRead(ordinal: UInt8, kind: ManagedValueKind) -> ManagedStorage {
        keyPathRecorder?.record(self, ordinal: ordinal, kind: kind) ?? .value(.null)
    }
}

extension EntityDescription {
    /// The property of a `@Managed` wrapper, by ordinal.
    @inline(__always)
    func propertyIndex(ordinal: UInt8) -> Int? {
        let position = Int(ordinal)
        guard position >= 0 && position < ordinalIndexes.count else { return nil }
        let index = ordinalIndexes[position]
        return index >= 0 ? index : nil
    }

    /// The property of a `@Managed` primitive accessor (`primitiveDate` for `date`), by ordinal. Kept apart from
    /// ``propertyIndex(ordinal:)`` (as `-2 - index` in the same table), so that the accessors look for it only
    /// where they find no plain property: the other properties pay nothing for it.
    func primitivePropertyIndex(ordinal: UInt8) -> Int? {
        let position = Int(ordinal)
        guard position < ordinalIndexes.count, ordinalIndexes[position] <= -2 else { return nil }
        return -2 - ordinalIndexes[position]
    }

    /// What follows "primitive" in a primitive accessor's name (`Date` for `primitiveDate`: the key with its first
    /// letter capitalised); nil for any other name.
    private static func primitiveAccessorSuffix(_ name: String) -> Substring? {
        guard name.hasPrefix("primitive"), name.count > "primitive".count else { return nil }
        return name.dropFirst("primitive".count)
    }

    /// The property `name` is Core Data's primitive accessor of — `date` for `primitiveDate` — or nil.
    private func primitiveAccessorKey(_ name: String) -> String? {
        guard let rest = Self.primitiveAccessorSuffix(name) else { return nil }
        return properties.map(\.name).first { key in
            key.prefix(1).uppercased() + key.dropFirst() == rest
        }
    }

    /// Checks every `@Managed` property of ``managedObjectClass`` against this entity and maps ordinals to properties.
    func checkManagedObjectClass() throws {
        guard managedObjectClass != ManagedObject.self else { return }
        let layout = try ManagedClassLayout.of(managedObjectClass)
        var table: [Int] = []
        for declared in layout.properties {
            let where_ = "\(managedObjectClass).\(declared.name)"
            // A name the entity does not have may be a primitive accessor (`primitiveDate` for `date`).
            let primitiveKey = propertyIndexByName[declared.name] == nil ? primitiveAccessorKey(declared.name) : nil
            guard let index = propertyIndexByName[primitiveKey ?? declared.name] else {
                let primitive = Self.primitiveAccessorSuffix(declared.name).map {
                    ", nor a property '\($0.prefix(1).lowercased() + $0.dropFirst())' for it to be the primitive accessor of"
                } ?? ""
                throw PersistenceError(.coreData, "Invalid model: \(where_) is @Managed but entity \(entityName) has no property '\(declared.name)'\(primitive). Its properties: \(properties.map(\.name).joined(separator: ", ")).", entityName: entityName, key: declared.name)
            }
            let property = properties[index]
            switch (declared.kind, property.role) {
            case (.attribute(let types), .attribute(let attribute)) where types.contains(attribute.attributeType):
                break
            case (.toOne(let type), .relationship(let r)) where !r.isToMany && Self.holds(r, as: type):
                try Self.checkClasses(of: r, declaredAs: type, at: where_, entity: entityName)
            case (.toMany(let type, let ordered), .relationship(let r)) where r.isToMany && r.isOrdered == ordered && Self.holds(r, as: type):
                try Self.checkClasses(of: r, declaredAs: type, at: where_, entity: entityName)
            case (.transformable, .attribute(let attribute)) where attribute.attributeType == .transformable:
                break
            case (.unrepresentable(let type), _):
                throw PersistenceError(.coreData, "Invalid model: \(where_) is declared as \(type), which Objective-C cannot represent, so Core Data's @NSManaged does not compile it (a structure, an enumeration or an optional element is not representable). Box the value in a class that inherits from NSObject and conforms to ManagedTransformable.", entityName: entityName, key: declared.name)
            case (.array(let type), _):
                throw PersistenceError(.coreData, "Invalid model: \(where_) is declared as [\(type)], a Swift array. Core Data hands a to-many relationship over as an NSOrderedSet (ordered) or an NSSet, and what an @NSManaged property typed [\(type)] does with that on Apple platforms is undocumented: declare it NSOrderedSet for an ordered relationship (read it with .array), or Set<\(type)> for an unordered one.", entityName: entityName, key: declared.name)
            default:
                throw PersistenceError(.coreData, "Invalid model: \(where_) is declared as \(declared.kind) but the model says \(property.kindDescription).", entityName: entityName, key: declared.name)
            }
            table.append(primitiveKey == nil ? index : -2 - index)
        }
        ordinalIndexes = table
        setOrdinalCells(table.map { code in
            PackedOrdinalCell(entity: self, propertyIndex: code >= 0 ? code : -2 - code, primitive: code < 0)
        })
    }

    /// `true` when a `@Managed` relationship declared with `type` can stand for `relationship`: its destination's
    /// class is `type` or a subclass of it (`ManagedObject` fits every relationship).
    private static func holds(_ relationship: RelationshipDescription, as type: ManagedObject.Type) -> Bool {
        ClassAncestry.isClass(relationship.destinationEntity.managedObjectClass, subclassOf: type)
    }

    /// Refuses a `@Managed` relationship declared with `type` when a subentity of its destination has a class that
    /// is not `type`: its objects could be related but never read back through the property. (In Core Data the
    /// Objective-C accessor would hand such an object over typed as `type`, undocumented and unsound in Swift.)
    private static func checkClasses(of relationship: RelationshipDescription, declaredAs type: ManagedObject.Type,
                                     at where_: String, entity: String) throws {
        let destination = relationship.destinationEntity!
        guard let stranger = destination.firstMember(notOf: type) else { return }
        throw PersistenceError(.coreData, "Invalid model: \(where_) is declared with \(type), but its destination \(destination.entityName) has the subentity \(stranger.entityName), whose class \(stranger.managedObjectClass) is not \(type): such an object could be related but not read back. Declare it with ManagedObject (or a class every object of \(destination.entityName) and its subentities is), or make \(stranger.managedObjectClass) a subclass of \(type).",
                               entityName: entity, key: relationship.name)
    }
}

extension PropertyDescription {
    var kindDescription: String {
        switch role {
        case .attribute(let a): return "attribute of type \(a.attributeType.rawValue)"
        case .relationship(let r):
            return r.isToMany ? "\(r.isOrdered ? "ordered " : "")to-many relationship to \(r.destinationEntityName) (\(r.isOrdered ? "NSOrderedSet" : "Set<T>"))"
                : "to-one relationship to \(r.destinationEntityName) (T? or T)"
        }
    }
}
