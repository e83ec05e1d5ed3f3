import Foundation

/// Snapshots for ``MergeConflict`` and ``ConstraintConflict``, in the form Core Data's conflict dictionaries hold.
extension ManagedObject {
    /// This object's values in `slots` (its own when nil, the ones it last read, or a stored row of it) keyed by property
    /// name: every stored attribute (`NSNull()` for nil) and to-one relationship (the related object's ID), as
    /// Apple documents `NSMergeConflict`'s snapshots; no to-many relationship, no transient attribute (a row has
    /// none, and a conflict is about what the store holds).
    func conflictSnapshot(of slots: [PropertySlot]? = nil) -> [String: Any] {
        if slots == nil, faultState != .fired { fireFault() }
        let slots = slots ?? self.slots
        var snapshot: [String: Any] = [:]
        for (index, property) in entity.properties.enumerated() where index < slots.count {
            switch slots[index] {
            case .value(let value):
                guard let attribute = entity.attributeAt[index], !attribute.isTransient else { continue }
                let converted = attribute.attributeType == .transformable
                    ? reverseTransformed(value, attribute: attribute) : Self.swiftValue(value, type: attribute.attributeType)
                snapshot[property.name] = converted ?? NSNull()
            case .toOne(let object):
                snapshot[property.name] = object?.objectID ?? NSNull()
            case .toOneKey(let key):
                let destination = entity.relationshipAt[index]!.destinationEntity!
                snapshot[property.name] = managedObjectContext?.object(forPrimaryKey: key, entity: destination).objectID
                    ?? NSNull()
            case .toMany:
                continue
            }
        }
        return snapshot
    }
}
