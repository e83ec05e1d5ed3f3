/// A save between the context and the store: the store writes the plan or answers with conflicts, which the
/// ``ConflictResolver`` settles here, in the context, before the store is asked again; after the commit, the
/// objects the policy took over, wrote again or dropped take their new standing in this context.
extension ManagedObjectContext {
    /// Has the store write `plan`, settling the conflicts it reports under `resolver`'s policy until it is
    /// written; returns the store's maker of IDs. The policy runs outside the coordinator's lock, and each request
    /// is checked again in the transaction that writes it. On failure, what resolution changed is put back.
    func write(_ plan: inout SavePlan, resolver: ConflictResolver, to coordinator: PersistentStoreCoordinator) throws -> PermanentIDs {
        let probing = resolver.policy.type != .error
        do {
            while true {
                let request = plan.storeRequest(probingConstraints: probing)
                let (outcome, ids) = try coordinator.withStore { store in (try store.execute(request), store.permanentIDs) }
                switch outcome {
                case .written(let receipt):
                    plan.savingKeys = receipt.newRowKeys
                    plan.allocatedKeyCounts = receipt.allocatedKeyCounts
                    return ids
                case .conflicts(let versions, let clashes):
                    let found = ConflictResolver.conflicts(versions, clashes, in: plan)
                    try resolver.resolveVersionConflicts(found.versions, in: &plan)
                    try resolver.resolveConstraintConflicts(found.clashes, in: &plan)
                }
            }
        } catch let failure as StoreRowWriteFailure {
            // Reported with the values that were being written, before resolution's changes are put back.
            let reported: any Error
            do {
                reported = try constraintConflictError(failure, in: plan, coordinator: coordinator)
            } catch {
                reported = error
            }
            plan.restoreBackups()
            throw reported
        } catch {
            plan.restoreBackups()
            throw error
        }
    }

    /// Core Data's constraint conflict (133021) for a row SQLite refused: the stored objects it clashes with, by
    /// constraint.
    private func constraintConflictError(_ failure: StoreRowWriteFailure, in plan: SavePlan,
                                         coordinator: PersistentStoreCoordinator) throws -> PersistenceError {
        let object = plan.object(for: failure.item)
        let entity = object.entity
        var conflicts: [MergeConflict] = []
        for (number, constraint) in entity.uniquenessConstraints.enumerated() {
            let stored = object.constraintValues(number).stored
            let clashing = try coordinator.withStore {
                try $0.objectIDsClashing(with: entity, constraint: number, values: stored, excluding: failure.primaryKey)
            }
            guard !clashing.isEmpty else { continue }
            conflicts.append(MergeConflict(
                sourceObject: object, objectID: object.objectID, oldVersion: object.version, newVersion: 0,
                objectSnapshot: MergeConflict.attributeSnapshot(object.slots, entity: entity), cachedSnapshot: [:],
                persistedSnapshot: [:], constraint: constraint, conflictingObjectIDs: clashing))
        }
        let described = conflicts.first.map { "(\($0.constraint.joined(separator: ", ")))" } ?? "a uniqueness constraint"
        return PersistenceError(.managedObjectConstraintMerge,
                                "\(entity.name) \(object.objectID) clashes with a stored object on \(described), which must be unique.",
                                object: object, conflicts: conflicts, sql: failure.error.sql, sqliteCode: failure.error.code)
    }

    /// After the commit: objects the policy took over, wrote again or dropped get their new standing.
    func finishResolution(_ plan: SavePlan, ids: PermanentIDs) {
        for object in plan.dropped { releaseRelatedObjects(of: object) }
        for object in plan.dropped {
            evict(object)
        }
        for object in plan.reinserted {
            object.version = 1
            object.committedSlots = nil
            object.changedIndexes = []
        }
        for object in plan.takeovers {
            let id = ids.id(of: object.entity, primaryKey: plan.savingPrimaryKey(of: object))
            unregister(object)
            // The object this context had for the row gives way to the one that took it over.
            if let previous = registeredObject(forID: id), previous !== object {
                evict(previous)
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
