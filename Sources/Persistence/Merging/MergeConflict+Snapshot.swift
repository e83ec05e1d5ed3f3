/// Snapshots for ``MergeConflict``: an object's attributes by name, as Core Data's conflict dictionaries hold them.
extension MergeConflict {
    /// The attribute values among `slots` (an object's or a row's), keyed by attribute name.
    static func attributeSnapshot(_ slots: [PropertySlot], entity: EntityDescription) -> [String: PersistentValue] {
        var snapshot: [String: PersistentValue] = [:]
        for (index, attribute) in entity.attributeAt.enumerated() {
            guard let attribute, index < slots.count, case .value(let value) = slots[index] else { continue }
            snapshot[attribute.name] = value
        }
        return snapshot
    }
}
