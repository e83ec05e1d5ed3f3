/// Relationship changes keep both sides in step: setting `item.group = g` also adds `item` to `g.items` and
/// removes it from its old group's `items`, as Core Data does. A primitive set (``setPrimitiveValue(_:forKey:)``, a
/// `primitive…` accessor) changes this side only: Apple leaves the inverse to the caller ("you are also responsible
/// for maintaining the inverse relationship (irrespective of change notifications)").
extension ManagedObject {
    /// Makes relationship `index` hold exactly `objects` (in that order for an ordered to-many), updating inverses
    /// unless this object is writing primitively.
    func setRelationship(_ relationship: RelationshipDescription, at index: Int, to objects: [ManagedObject]) throws {
        for object in objects { try checkRelatable(object, through: relationship) }
        let maintainsInverse = managedObjectContext?.primitiveWriter !== self
        if relationship.isToMany {
            let current = toManyObjects(at: index)
            let wanted = RelatedObjects(objects)
            for old in current.objects where !wanted.contains(old) {
                unlink(relationship, at: index, from: old, maintainsInverse: maintainsInverse)
            }
            for new in wanted.objects where !current.contains(new) {
                link(relationship, at: index, to: new, maintainsInverse: maintainsInverse)
            }
            if relationship.isOrdered, !toManyObjects(at: index).sameObjects(as: wanted, ordered: true) {
                willChange(at: index)
                slots[index] = .toMany(wanted)
            }
        } else {
            guard objects.count <= 1 else {
                throw PersistenceError(.managedObjectValidation, "\(entity.entityName).\(relationship.name) is to-one; it cannot hold \(objects.count) objects.", object: self, key: relationship.name)
            }
            let current = toOneObject(at: index)
            let target = objects.first
            if current === target { return }
            if let current { unlink(relationship, at: index, from: current, maintainsInverse: maintainsInverse) }
            if let target { link(relationship, at: index, to: target, maintainsInverse: maintainsInverse) }
        }
    }

    private func checkRelatable(_ object: ManagedObject, through relationship: RelationshipDescription) throws {
        guard object.entity.isKindOf(entity: relationship.destinationEntity) else {
            throw PersistenceError(.managedObjectValidation,
                                   "\(entity.entityName).\(relationship.name) relates to \(relationship.destinationEntityName) objects, not \(object.entity.entityName).",
                                   object: self, key: relationship.name)
        }
        guard object.managedObjectContext === managedObjectContext else {
            throw PersistenceError(.coreData,
                                   "Illegal attempt to relate objects of different contexts through \(entity.entityName).\(relationship.name): \(object.objectID) belongs to another context. Pass the objectID and fetch the object in this context with object(with:).",
                                   object: self, key: relationship.name)
        }
    }

    /// Adds `target` to this side and, when maintaining inverses, `self` to the inverse side.
    private func link(_ relationship: RelationshipDescription, at index: Int, to target: ManagedObject,
                      maintainsInverse: Bool) {
        if relationship.isToMany { primitiveAdd(target, at: index) } else { primitiveSetToOne(target, at: index) }
        guard maintainsInverse, let inverse = relationship.inverseRelationship,
              let inverseIndex = target.entity.propertyIndexByName[inverse.name] else { return }
        if inverse.isToMany {
            target.primitiveAdd(self, at: inverseIndex)
        } else {
            // The target's previous partner loses the target.
            if let previous = target.toOneObject(at: inverseIndex), previous !== self {
                previous.primitiveDetach(target, at: index, relationship: relationship)
            }
            target.primitiveSetToOne(self, at: inverseIndex)
        }
    }

    /// Removes `target` from this side and, when maintaining inverses, `self` from the inverse side.
    private func unlink(_ relationship: RelationshipDescription, at index: Int, from target: ManagedObject,
                        maintainsInverse: Bool) {
        primitiveDetach(target, at: index, relationship: relationship)
        guard maintainsInverse, let inverse = relationship.inverseRelationship,
              let inverseIndex = target.entity.propertyIndexByName[inverse.name] else { return }
        target.primitiveDetach(self, at: inverseIndex, relationship: inverse)
    }

    /// Removes `object` from relationship `index` on this side only.
    func primitiveDetach(_ object: ManagedObject, at index: Int, relationship: RelationshipDescription) {
        if relationship.isToMany {
            var related = toManyObjects(at: index)
            guard related.contains(object) else { return }
            willChange(at: index)
            related.remove(object)
            slots[index] = .toMany(related)
        } else if toOneObject(at: index) === object {
            primitiveSetToOne(nil, at: index)
        }
    }

    private func primitiveSetToOne(_ object: ManagedObject?, at index: Int) {
        willChange(at: index)
        slots[index] = .toOne(object)
    }

    private func primitiveAdd(_ object: ManagedObject, at index: Int) {
        var related = toManyObjects(at: index)
        guard !related.contains(object) else { return }
        willChange(at: index)
        related.append(object)
        slots[index] = .toMany(related)
    }
}
