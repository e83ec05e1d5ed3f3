/// Snapshots for ``MergeConflict``: an object's attributes by name, as Core Data's conflict dictionaries hold them.
extension MergeConflict {
    /// The stored attribute values among `slots` (an object's or a row's), keyed by attribute name. Transient
    /// attributes are left out: a row has none, and a conflict is about what the store holds.
    static func attributeSnapshot(_ slots: [PropertySlot], entity: EntityDescription) -> [String: PersistentValue] {
        var snapshot: [String: PersistentValue] = [:]
        for (index, attribute) in entity.attributeAt.enumerated() {
            guard let attribute, !attribute.isTransient, index < slots.count,
                  case .value(let value) = slots[index] else { continue }
            snapshot[attribute.name] = value
        }
        return snapshot
    }
}
