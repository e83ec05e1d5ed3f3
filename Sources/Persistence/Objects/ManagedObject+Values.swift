import Foundation

extension ManagedObject {
    // MARK: - Reading

    /// The current slot of property `index`, firing the fault first.
    func slot(at index: Int) -> PropertySlot {
        if faultState != .fired { fireFault() }
        if let packedRow { return packedRow.slot(at: index) }
        return storedSlots[index]
    }

    /// Fills a fault: from the row it was fetched with, or from the store.
    func fireFault() {
        switch faultState {
        case .fired:
            return
        case .faultWithRow:
            faultState = .fired
            awakeFromFetch()
        case .faultWithoutRow:
            guard let context = managedObjectContext else {
                // A fault whose context is gone cannot load anything: it reads as empty.
                slots = Self.emptySlots(of: entity)
                faultState = .fired
                return
            }
            if let batch {
                self.batch = nil
                context.fulfill(batch)
                if faultState == .faultWithRow {
                    faultState = .fired
                    awakeFromFetch()
                    return
                }
            }
            context.checkQueue("\(entity.name) fault")
            context.fulfillFault(self)
        }
    }

    static func emptySlots(of entity: EntityDescription) -> [PropertySlot] {
        entity.properties.map { property in
            switch property {
            case .attribute: .value(.null)
            case .relationship(let r): r.isToMany ? .toMany(RelatedObjects()) : .toOne(nil)
            }
        }
    }

    /// The attribute value of property `index`.
    func attributeValue(at index: Int) -> PersistentValue {
        if faultState != .fired { fireFault() }
        // Read without a retain of the row: this object holds it for the whole call.
        if packedBlock != nil {
            let row = Int(packedRowIndex)
            return packedBlock.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.value(row: row, at: index) }
        }
        // Matched where it lies: copying the whole slot first costs a copy and a destroy of the enum per read.
        return storedSlots.withUnsafeBufferPointer { slots in
            if case .value(let value) = slots[index] { return value }
            return .null
        }
    }

    /// `true` when attribute `index` is nil: a bit test for a packed row, where reading the value would build it
    /// (validation asks this of every required attribute of every object it saves).
    func attributeIsNil(at index: Int) -> Bool {
        if faultState != .fired { fireFault() }
        if packedBlock != nil {
            let row = Int(packedRowIndex)
            return packedBlock.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.isNull(row: row, at: index) }
        }
        return attributeValue(at: index).isNull
    }

    /// The related object of to-one property `index`, resolving a stored key to an object.
    func toOneObject(at index: Int) -> ManagedObject? {
        switch slot(at: index) {
        case .toOne(let object):
            return object
        case .toOneKey(let pk):
            guard let context = managedObjectContext, let relationship = entity.relationshipAt[index] else { return nil }
            let object = context.object(forPrimaryKey: pk, entity: relationship.destinationEntity)
            slots[index] = .toOne(object)
            return object
        default:
            return nil
        }
    }

    /// The related objects of to-many property `index`, loading them from the store the first time.
    func toManyObjects(at index: Int) -> RelatedObjects {
        if case .toMany(let related?) = slot(at: index) { return related }
        guard let context = managedObjectContext, let relationship = entity.relationshipAt[index] else {
            return RelatedObjects()
        }
        let related = context.loadToMany(relationship, of: self)
        adoptLoadedToMany(related, at: index)
        return related
    }

    /// Property `index` as the typed `@Managed` wrappers and `value(forKey:)` see it.
    func storage(at index: Int) -> ManagedStorage {
        switch entity.kinds[index] {
        case .attribute: return .value(attributeValue(at: index))
        case .toOne: return .objects(toOneObject(at: index).map { [$0] } ?? [])
        case .toMany: return .objects(toManyObjects(at: index).objects)
        }
    }

    // MARK: - Writing

    /// Records that property `index` is about to change (for rollback and `changedValues()`).
    @inline(__always)
    func willChange(at index: Int) {
        // A new object has nothing to record: the common case of a bulk insert costs one test.
        if insertedFlag && faultState == .fired { return }
        recordChange(at: index)
    }

    private func recordChange(at index: Int) {
        if faultState != .fired { fireFault() }
        guard !insertedFlag, let context = managedObjectContext else { return }
        if committedSlots == nil { committedSlots = slots }
        if changedIndexes.insert(index).inserted, changedIndexes.count == 1 {
            context.objectDidChange(self)
        }
    }

    /// Sets attribute `index`. A value that does not fit the attribute is kept as given and reported when the
    /// context saves (the typed setters cannot throw).
    @inline(__always)
    func setAttributeValue(_ value: PersistentValue, at index: Int) {
        willChange(at: index)
        guard case .attribute(let type) = entity.kinds[index] else { return }
        let fitted: PersistentValue
        if type.accepts(value) {
            fitted = value
        } else if let coerced = type.coerce(value) {
            fitted = coerced
        } else {
            slots[index] = .value(value)
            holdsUnfittingValue = true
            return
        }
        // Still packed after willChange: no committed values to keep (a new object), so the row changes in place.
        if hasWritablePackedRow {
            let row = Int(packedRowIndex)
            let replaced = packedBlock.unsafelyUnwrapped._withUnsafeGuaranteedRef { block in
                block.replace(fitted, row: row, at: index)
            }
            if replaced { return }
        }
        slots[index] = .value(fitted)
    }

    /// Sets property `index` from the typed wrappers' storage form.
    func setStorage(_ storage: ManagedStorage, at index: Int) {
        switch storage {
        case .value(let value):
            setAttributeValue(value, at: index)
        case .objects(let objects):
            guard let relationship = entity.relationshipAt[index] else { return }
            do {
                try setRelationship(relationship, at: index, to: objects)
            } catch let error as PersistenceError {
                managedObjectContext?.recordMisuse(error)
            } catch {}
        }
    }

    // MARK: - Key-value access

    /// The value of `key`: attributes as Swift values (`String`, `Int` for every integer type, `Double`, `Float`,
    /// `Bool`, `Date`, `UUID`, `URL`, `Data`, `Decimal`), a to-one as its object, a to-many as a
    /// `Set<ManagedObject>` (an ordered one as `[ManagedObject]`); `nil` for nil or an unknown key (where Core Data
    /// raises `NSUnknownKeyException`).
    public func value(forKey key: String) -> Any? {
        checkQueue(key)
        guard let index = entity.propertyIndexByName[key] else { return nil }
        return anyValue(at: index)
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
                                   "\(entity.name).\(attribute.name) is transformable with the value transformer '\(name)', which is not registered. Register it before the attribute is used: ValueTransformer.setValueTransformer(YourTransformer(), forName: NSValueTransformerName(\"\(name)\")).",
                                   object: self, key: attribute.name)
        }
        return transformer
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

    private func setCheckedValue(_ value: Any?, forKey key: String) throws {
        guard let index = entity.propertyIndexByName[key] else {
            throw PersistenceError(.persistentStoreIncompatibleSchema,
                                   "setValue(_:forKey:): the entity \(entity.name) has no property named '\(key)' (Core Data raises NSUnknownKeyException here). Its properties: \(entity.properties.map(\.name).joined(separator: ", ")).",
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
                                       "\(entity.name).\(key) is a \(relationship.isToMany ? "to-many" : "to-one") relationship to \(relationship.destinationEntityName); \(type(of: value!)) does not fit.",
                                       object: self, key: key)
            }
            try setRelationship(relationship, at: index, to: objects)
            return
        }
        if let attribute = entity.attributeAt[index], attribute.attributeType == .transformable {
            guard let value, !(value is NSNull) else { return setAttributeValue(.null, at: index) }
            let transformed = try transformer(of: attribute).transformedValue(value)
            guard let data = transformed as? Data else {
                throw PersistenceError(.managedObjectValidation,
                                       "\(entity.name).\(key) is transformable: its value transformer '\(attribute.valueTransformerName ?? "")' must turn \(type(of: value)) into Data, but gave \(transformed.map { "\(type(of: $0))" } ?? "nil").",
                                       object: self, key: key)
            }
            return setAttributeValue(.data(data), at: index)
        }
        guard let stored = PersistentValue(any: value) else {
            let attribute = entity.attributeAt[index]!
            throw PersistenceError(.managedObjectValidation,
                                   "\(entity.name).\(key) holds \(attribute.attributeType.rawValue) values; \(type(of: value!)) has no stored form.",
                                   object: self, key: key)
        }
        // A value that does not fit is kept and reported by validation, as the typed setters do.
        setAttributeValue(stored, at: index)
    }

    // MARK: - Changes

    /// The properties changed since the last save, by name, with their new values (`NSNull()` for nil).
    /// For an inserted object: every property that holds a value.
    public func changedValues() -> [String: Any] {
        var result: [String: Any] = [:]
        let indexes = insertedFlag ? Set(entity.properties.indices) : changedIndexes
        for index in indexes {
            let value = anyValue(at: index)
            if insertedFlag {
                if value == nil { continue }
                if let many = value as? Set<ManagedObject>, many.isEmpty { continue }
                if let many = value as? [ManagedObject], many.isEmpty { continue }
            }
            result[entity.properties[index].name] = value ?? NSNull()
        }
        return result
    }

    /// The values the store held when this context last read or saved the object (`NSNull()` for nil);
    /// `keys` nil means every attribute and to-one relationship.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        guard !insertedFlag else { return [:] }
        if faultState != .fired { fireFault() }
        let snapshot = committedSlots ?? slots
        var result: [String: Any] = [:]
        for (index, property) in entity.properties.enumerated() {
            if let keys, !keys.contains(property.name) { continue }
            switch snapshot[index] {
            case .value(let v):
                let attribute = entity.attributeAt[index]!
                let value = attribute.attributeType == .transformable
                    ? reverseTransformed(v, attribute: attribute) : Self.swiftValue(v, type: attribute.attributeType)
                result[property.name] = value ?? NSNull()
            case .toOne(let o): result[property.name] = o ?? NSNull()
            case .toOneKey(let pk):
                let destination = entity.relationshipAt[index]!.destinationEntity!
                result[property.name] = managedObjectContext?.object(forPrimaryKey: pk, entity: destination) ?? NSNull()
            case .toMany(let related?) where keys != nil:
                result[property.name] = entity.relationshipAt[index]!.isOrdered ? related.objects as Any : Set(related.objects) as Any
            case .toMany: continue
            }
        }
        return result
    }

    /// `true` when two slots hold the same value (relationships compared by object identity).
    static func same(_ a: PropertySlot, _ b: PropertySlot, ordered: Bool) -> Bool {
        switch (a, b) {
        case (.value(let x), .value(let y)): return x == y
        case (.toOne(let x), .toOne(let y)): return x === y
        case (.toOneKey(let x), .toOneKey(let y)): return x == y
        case (.toOne(let x), .toOneKey(let pk)), (.toOneKey(let pk), .toOne(let x)): return x?.objectID.primaryKey == pk
        case (.toMany(let x?), .toMany(let y?)): return x.sameObjects(as: y, ordered: ordered)
        case (.toMany(nil), .toMany(nil)): return true
        default: return false
        }
    }
}

/// How a `@Managed` property's value travels between the object and its Swift type.
public enum ManagedStorage {
    /// An attribute value.
    case value(PersistentValue)
    /// Related objects: zero or one for a to-one, any number (in order) for a to-many.
    case objects([ManagedObject])
}
