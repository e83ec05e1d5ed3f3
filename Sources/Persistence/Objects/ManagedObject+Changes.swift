import Foundation

/// What changed in an object since it was last saved or read: `changedValues()` and `committedValues(forKeys:)`.
extension ManagedObject {
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
