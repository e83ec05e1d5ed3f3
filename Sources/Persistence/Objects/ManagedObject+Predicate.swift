/// Managed objects can be tested against a predicate in memory (fetches use this for unsaved changes) and can be
/// passed to one as an argument (`"director == %@", director`).
extension ManagedObject: PredicateEvaluable {
    var predicateObjectID: ManagedObjectID? { objectID }

    func predicateValue(forKey key: String) throws -> PredicateValue {
        let index = try entity.propertyIndex(forKey: key)
        guard let relationship = entity.relationshipAt[index] else { return .value(attributeValue(at: index)) }
        if relationship.isToMany { return .objects(toManyObjects(at: index).objects) }
        return toOneObject(at: index).map { .object($0) } ?? .null
    }

    /// The value at a key path through to-one relationships, for sorting; `.null` where the path meets nil.
    func sortValue(forKeyPath keyPath: [String]) -> PersistentValue {
        var object: ManagedObject = self
        for (position, key) in keyPath.enumerated() {
            guard let index = object.entity.propertyIndexByName[key] else { return .null }
            if position == keyPath.count - 1 { return object.attributeValue(at: index) }
            guard let next = object.toOneObject(at: index) else { return .null }
            object = next
        }
        return .null
    }
}
