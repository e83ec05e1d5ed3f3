/// What the context does after a save's transaction commits: the objects the ``ConflictResolver`` took over,
/// wrote again or dropped take their new standing in this context.
extension ManagedObjectContext {
    /// After the commit: objects the policy took over, wrote again or dropped get their new standing.
    func finishResolution(_ plan: SavePlan, in store: SQLiteStore) {
        for object in plan.dropped { releaseRelatedObjects(of: object) }
        for object in plan.dropped {
            unregister(object)
            object.invalidate()
        }
        for object in plan.reinserted {
            object.version = 1
            object.committedSlots = nil
            object.changedIndexes = []
        }
        for object in plan.takeovers {
            let id = store.objectID(of: object.entity, primaryKey: plan.savingPrimaryKey(of: object))
            unregister(object)
            // The object this context had for the row gives way to the one that took it over.
            if let previous = registeredObject(forID: id), previous !== object {
                unregister(previous)
                previous.invalidate()
            }
            object.objectID = id
            object.insertedFlag = false
            object.version += 1
            object.committedSlots = nil
            object.changedIndexes = []
            // The row keeps the relationships it had; read them again rather than trust the new object's lists.
            for index in object.entity.toManyIndexes { object.slots[index] = .toMany(nil) }
            register(object)
        }
    }

    /// The objects related to a dropped object let go of it in memory, as the store already has (nothing pointing
    /// at it was written): they must not keep an object that has left the context. Their saved state matches the
    /// store, so they are not marked changed.
    private func releaseRelatedObjects(of object: ManagedObject) {
        guard !object.slots.isEmpty else { return }
        for (index, relationship) in object.entity.relationshipAt.enumerated() {
            guard let relationship, let inverse = relationship.inverseRelationship,
                  let inverseIndex = relationship.destinationEntity.propertyIndexByName[inverse.name] else { continue }
            let related: [ManagedObject]
            switch object.slots[index] {
            case .toOne(let target?): related = [target]
            case .toMany(let list?): related = list.objects
            default: continue
            }
            for other in related where other.managedObjectContext === self {
                if inverseIndex < other.slots.count { Self.release(object, from: &other.slots[inverseIndex]) }
                if other.committedSlots != nil, inverseIndex < other.committedSlots!.count {
                    Self.release(object, from: &other.committedSlots![inverseIndex])
                }
            }
        }
    }

    private static func release(_ object: ManagedObject, from slot: inout PropertySlot) {
        switch slot {
        case .toOne(let target) where target === object:
            slot = .toOne(nil)
        case .toMany(var list?) where list.contains(object):
            _ = list.remove(object)
            slot = .toMany(list)
        default:
            break
        }
    }
}
