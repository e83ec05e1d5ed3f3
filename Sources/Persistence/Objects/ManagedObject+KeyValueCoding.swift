import Foundation

/// Key-value access, as Core Data's `value(forKey:)` and `setValue(_:forKey:)`: every property of the entity by
/// name, attributes as Swift values, transformable attributes through their `ValueTransformer`.
extension ManagedObject {
    /// The value of `key`: attributes as Swift values (`String`, `Int` for every integer type, `Double`, `Float`,
    /// `Bool`, `Date`, `UUID`, `URL`, `Data`, `Decimal`), a to-one as its object, a to-many as a
    /// `Set<ManagedObject>` (an ordered one as `[ManagedObject]`); `nil` for nil. A key that names none of the
    /// entity's properties is handed to ``value(forUndefinedKey:)``, which a subclass overrides to answer keys it
    /// computes; its default answers nil and fails the next save (where Core Data raises `NSUnknownKeyException`).
    public func value(forKey key: String) -> Any? {
        checkQueue(key)
        guard let index = entity.propertyIndexByName[key] else { return value(forUndefinedKey: key) }
        return anyValue(at: index)
    }

    /// What the object answers for `key`, which names none of its entity's properties: `answered` is false when the
    /// answer came from the default implementation of ``value(forUndefinedKey:)`` — no class along the way knew
    /// the key — which Core Data raises for.
    func answer(forUndefinedKey key: String) -> (answered: Bool, value: Any?) {
        // A class that does not override the method has nothing to say: no need to ask.
        guard ManagedObjectOverrides.overridesValueForUndefinedKey(type(of: self)) else { return (false, nil) }
        let lookup = UndefinedKeyLookup()
        let answer: Any? = UndefinedKeyLookup.$current.withValue(lookup) { () -> Any? in
            self.value(forUndefinedKey: key)
        }
        return (!lookup.reachedDefault, answer)
    }

    func anyValue(at index: Int) -> Any? {
        if let relationship = entity.relationshipAt[index] {
            if !relationship.isToMany { return toOneObject(at: index) }
            let objects = toManyObjects(at: index).objects
            return relationship.isOrdered ? objects as Any : Set(objects) as Any
        }
        let attribute = entity.attributeAt[index]!
        if attribute.attributeType == .transformable { return reverseTransformed(attributeValue(at: index), attribute: attribute) }
        return Self.swiftValue(attributeValue(at: index), type: attribute.attributeType)
    }

    /// A transformable attribute's stored `Data`, turned back by its transformer into the value it was set to.
    /// An unregistered transformer reads as nil and fails the next save, naming it.
    func reverseTransformed(_ value: PersistentValue, attribute: AttributeDescription) -> Any? {
        guard case .data(let data) = value else { return nil }
        do {
            return try transformer(of: attribute).reverseTransformedValue(data)
        } catch let error as PersistenceError {
            managedObjectContext?.recordMisuse(error)
        } catch {}
        return nil
    }

    /// The transformer a transformable attribute names, or an error saying how to register it.
    private func transformer(of attribute: AttributeDescription) throws -> ValueTransformer {
        let name = attribute.valueTransformerName ?? ""
        guard let transformer = registeredValueTransformer(named: name) else {
            throw PersistenceError(.managedObjectValidation,
                                   "\(entity.entityName).\(attribute.name) is transformable with the value transformer '\(name)', which is not registered. Register it before the attribute is used: ValueTransformer.setValueTransformer(YourTransformer(), forName: NSValueTransformerName(\"\(name)\")).",
                                   object: self, key: attribute.name)
        }
        return transformer
    }

    /// Refuses a value that the secure unarchiving transformer (Core Data's default) cannot store, before
    /// Foundation is asked to: Apple's raises `NSInvalidArgumentException` ("Object of class … is not among allowed
    /// top level class list") during the save, and Linux's archiver stops the process.
    private func checkSecurelyArchivable(_ value: Any, by transformer: NSSecureUnarchiveFromDataTransformer,
                                         attribute: AttributeDescription) throws {
        let allowed = type(of: transformer).allowedTopLevelClasses
        do {
            try SecureArchive.check(value, allowed: allowed)
        } catch let failure as SecureArchive.Failure {
            let named = attribute.valueTransformerName.flatMap { $0.isEmpty ? nil : "the value transformer '\($0)'" }
                ?? "Core Data's default value transformer, NSSecureUnarchiveFromData (the attribute names none)"
            throw PersistenceError(.managedObjectValidation,
                                   "\(entity.entityName).\(attribute.name) is transformable with \(named), which stores only values of \(SecureArchive.names(of: allowed)) and their Swift counterparts: \(failure). Store the value as one of those, or name a ValueTransformer of your own in the attribute's valueTransformerName.",
                                   object: self, key: attribute.name)
        }
    }

    static func swiftValue(_ value: PersistentValue, type: AttributeType) -> Any? {
        switch (value, type) {
        case (.integer(let v), _): return Int(v)
        case (.double(let v), .float): return Float(v)
        default: return value.anyValue
        }
    }

    /// Sets `key` to `value`, as Core Data's `setValue(_:forKey:)` does: it never throws, and what is wrong is
    /// reported by the next ``ManagedObjectContext/save()``, as for the typed ``Managed`` properties.
    ///
    /// - A value of the wrong type, or out of the attribute's range, is kept as given; the save fails with 1550
    ///   naming the object, key and value (`NSValidationObjectErrorKey`, `NSValidationKeyErrorKey`,
    ///   `NSValidationValueErrorKey`). A value with no stored form at all, or a related object of the wrong entity,
    ///   changes nothing and fails the save with 1550 too.
    /// - An object from another context changes nothing and fails the save (Core Data raises an exception).
    /// - An unknown key is a programmer error. Core Data raises `NSUnknownKeyException` at once; here it changes
    ///   nothing and the next save fails with 134020, naming the entity, the key and the entity's properties, so
    ///   that a test observes the mistake instead of the process ending.
    ///
    /// ``ManagedObjectContext/rollback()`` forgets these mistakes with the changes. (An object in no context has no
    /// save to report them: there the mistake changes nothing.)
    public func setValue(_ value: Any?, forKey key: String) {
        checkQueue(key)
        do {
            try setCheckedValue(value, forKey: key)
        } catch let error as PersistenceError {
            managedObjectContext?.recordMisuse(error)
        } catch {}
    }

    func setCheckedValue(_ value: Any?, forKey key: String) throws {
        guard let index = entity.propertyIndexByName[key] else {
            throw PersistenceError(.persistentStoreIncompatibleSchema,
                                   "setValue(_:forKey:): the entity \(entity.entityName) has no property named '\(key)' (Core Data raises NSUnknownKeyException here). Its properties: \(entity.properties.map(\.name).joined(separator: ", ")).",
                                   object: self, key: key)
        }
        if let relationship = entity.relationshipAt[index] {
            let objects: [ManagedObject]
            switch value {
            case nil, is NSNull: objects = []
            case let object as ManagedObject where !relationship.isToMany: objects = [object]
            case let many as [ManagedObject] where relationship.isToMany: objects = many
            case let many as Set<ManagedObject> where relationship.isToMany: objects = Array(many)
            default:
                throw PersistenceError(.managedObjectValidation,
                                       "\(entity.entityName).\(key) is a \(relationship.isToMany ? "to-many" : "to-one") relationship to \(relationship.destinationEntityName); \(type(of: value!)) does not fit.",
                                       object: self, key: key)
            }
            try setRelationship(relationship, at: index, to: objects)
            return
        }
        if let attribute = entity.attributeAt[index], attribute.attributeType == .transformable {
            guard let value, !(value is NSNull) else { return setAttributeValue(.null, at: index) }
            let transformer = try transformer(of: attribute)
            if let secure = transformer as? NSSecureUnarchiveFromDataTransformer {
                try checkSecurelyArchivable(value, by: secure, attribute: attribute)
            }
            let transformed = transformer.transformedValue(value)
            guard let data = transformed as? Data else {
                throw PersistenceError(.managedObjectValidation,
                                       "\(entity.entityName).\(key) is transformable: its value transformer '\(attribute.valueTransformerName ?? "")' must turn \(type(of: value)) into Data, but gave \(transformed.map { "\(type(of: $0))" } ?? "nil").",
                                       object: self, key: key)
            }
            return setAttributeValue(.data(data), at: index)
        }
        guard let stored = PersistentValue(any: value) else {
            let attribute = entity.attributeAt[index]!
            throw PersistenceError(.managedObjectValidation,
                                   "\(entity.entityName).\(key) holds \(attribute.attributeType.rawValue) values; \(type(of: value!)) has no stored form.",
                                   object: self, key: key)
        }
        // A value that does not fit is kept and reported by validation, as the typed setters do.
        setAttributeValue(stored, at: index)
    }
}
