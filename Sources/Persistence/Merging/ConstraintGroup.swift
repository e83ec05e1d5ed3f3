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
            for (number, constraint) in entity.uniquenessConstraints.enumerated() {
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

    private struct GroupKey: Hashable {
        let owner: ObjectIdentifier
        let number: Int
    }
}
