/// The objects of one save that one uniqueness constraint compares: those of the entity that declares it and of its
/// subentities (a parent's constraint holds across its whole family, as the store's unique index does).
struct ConstraintGroup {
    /// The entity that declares the constraint.
    let owner: EntityDescription
    let constraint: [String]
    /// The constraint's attributes, as property indexes (the same in every entity of the family).
    let propertyIndexes: [Int]
    var objects: [ManagedObject]

    /// The groups of `objects`, each object in one group per constraint it has, insertion order kept within a group.
    static func groups(of objects: [ManagedObject]) -> [ConstraintGroup] {
        var groups: [ConstraintGroup] = []
        var positions: [GroupKey: Int] = [:]
        for object in objects {
            let entity = object.entity
            for (number, constraint) in entity.uniquenessConstraintKeys.enumerated() {
                let owner = entity.constraintOwner(number)
                let key = GroupKey(owner: ObjectIdentifier(owner), number: number)
                if let position = positions[key] {
                    groups[position].objects.append(object)
                } else {
                    positions[key] = groups.count
                    groups.append(ConstraintGroup(owner: owner, constraint: constraint,
                                                  propertyIndexes: constraint.map { entity.propertyIndexByName[$0]! },
                                                  objects: [object]))
                }
            }
        }
        return groups
    }

    /// The objects that share the constraint's values, a list per set of values with more than one object, in the
    /// order the values first appear, each list in insertion order. Objects `isExcluded` leaves out take no part.
    /// As in SQL, nil never equals nil: an object with a nil among the constraint's values clashes with none.
    func clashes(excluding isExcluded: (ManagedObject) -> Bool = { _ in false }) -> [(values: [PersistentValue], objects: [ManagedObject])] {
        var order: [[PersistentValue]] = []
        var sharing: [[PersistentValue]: [ManagedObject]] = [:]
        for object in objects where !isExcluded(object) {
            let values = propertyIndexes.map { object.attributeValue(at: $0) }
            if values.contains(where: \.isNull) { continue }
            if sharing[values] == nil { order.append(values) }
            sharing[values, default: []].append(object)
        }
        return order.compactMap { values in
            let objects = sharing[values]!
            return objects.count > 1 ? (values, objects) : nil
        }
    }

    private struct GroupKey: Hashable {
        let owner: ObjectIdentifier
        let number: Int
    }
}
