/// A save between the context and the store: the store writes the plan or answers with conflicts, which the
/// context's ``MergePolicy`` resolves here, in the context, before the store is asked again; after the commit, the
/// objects the policy took over, wrote again or dropped take their new standing in this context.
extension ManagedObjectContext {
    /// Clashes among the new objects of `plan` on uniqueness constraints, handed to `policy` before validation
    /// (as ``ConstraintConflict``s without a database object). Objects the policy inserts, changes or deletes are
    /// saved with the rest, as those of `willSave()` are.
    func resolveDuplicateInsertions(in plan: inout SavePlan, under policy: MergePolicy) throws {
        if policy.isPlain {
            // Its methods would apply these same rules: no conflicts to build (and under .error, validation
            // reports the clashes, 1551).
            ConflictResolver(policy: policy).resolveDuplicateInsertions(in: &plan)
            return
        }
        let constrained = plan.inserted.filter { !$0.entity.uniquenessConstraintKeys.isEmpty }
        guard constrained.count > 1 else { return }
        var conflicts: [ConstraintConflict] = []
        for group in ConstraintGroup.groups(of: constrained) where group.objects.count > 1 {
            for (_, objects) in group.clashes() {
                conflicts.append(ConstraintConflict(constraint: group.constraint, amongNew: objects))
            }
        }
        guard !conflicts.isEmpty else { return }
        let resolution = ConflictResolution(plan: plan)
        let before = (inserted: inserted.count, deleted: deleted.count, deletedMark: deleted.mark, updatedMark: updated.mark)
        defer { plan = resolution.plan }
        try ConflictResolution.$current.withValue(resolution) {
            try policy.resolve(constraintConflicts: conflicts)
        }
        guard inserted.count != before.inserted || deleted.count != before.deleted
                || !updated.objects(since: before.updatedMark).isEmpty else { return }
        // The policy changed the graph (merged duplicates, say): the plan is made again from the context's lists,
        // after the delete rules of what it deleted, leaving out what it discarded.
        let deletions = deleted.objects(since: before.deletedMark)
        if !deletions.isEmpty { propagateDeletes(deletions) }
        let lists = saveLists()
        let dropped = resolution.plan.dropped.filter { $0.insertedFlag && !$0.deletedFlag }
        let droppedIDs = Set(dropped.map(ObjectIdentifier.init))
        resolution.plan = SavePlan(inserted: lists.inserted.filter { !droppedIDs.contains(ObjectIdentifier($0)) },
                                   updated: lists.updated, deleted: lists.deleted)
        resolution.plan.dropped = dropped
    }

    /// Has the store write `plan`, handing the conflicts it reports to `policy` until it is written; returns the
    /// store's maker of IDs. The policy runs on this context's queue, outside the coordinator's lock, and each
    /// request is checked again in the transaction that writes it. On failure, what resolution changed is put back.
    func write(_ plan: inout SavePlan, policy: MergePolicy, to coordinator: PersistentStoreCoordinator) throws -> PermanentIDs {
        // The shared error policy lets the store's unique index report a clash while writing (133021); any other
        // policy, a subclass of error type too, is handed the clashes first.
        let probing = policy.mergeType != .error || !policy.isPlain
        var handed = Set<HandedConflict>()
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
                    try checkResolved(found, handed: &handed, ids: ids)
                    try resolve(found, ids: ids, under: policy, in: &plan)
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

    /// A conflict the store reported, as handed to the policy: the object, and the row version (or stored key and
    /// constraint) it conflicted with.
    private struct HandedConflict: Hashable {
        let object: ObjectIdentifier
        let row: Int64
        let constraint: Int
    }

    /// Fails the save with the conflicts the store reports again after the policy was handed them: the policy
    /// left them unresolved (an override that did not call `super`), and asking again would go on for ever.
    /// Apple does not document what Core Data does then; Persistence fails as the error policy would.
    private func checkResolved(_ found: (versions: [ConflictResolver.VersionConflict], clashes: [ConflictResolver.ConstraintClash]),
                               handed: inout Set<HandedConflict>, ids: PermanentIDs) throws {
        let versions = found.versions.filter {
            !handed.insert(HandedConflict(object: ObjectIdentifier($0.object), row: $0.version, constraint: -1)).inserted
        }
        if !versions.isEmpty {
            let conflicts = ConflictResolver.mergeConflicts(versions)
            throw PersistenceError(.managedObjectMerge, "Could not merge changes.", objectID: conflicts[0].objectID,
                                   conflicts: conflicts)
        }
        for clash in found.clashes
        where !handed.insert(HandedConflict(object: ObjectIdentifier(clash.object), row: clash.stored.primaryKey,
                                            constraint: clash.constraint)).inserted {
            let stored = object(with: ids.id(of: clash.stored.entity, primaryKey: clash.stored.primaryKey))
            throw ConstraintConflict(constraint: clash.object.entity.uniquenessConstraintKeys[clash.constraint],
                                     database: stored, databaseSnapshot: nil, conflicting: [clash.object],
                                     conflictingSnapshots: []).storeClashError()
        }
    }

    /// Hands the store's conflicts to `policy`: the optimistic-locking ones, then the clashes with stored rows.
    /// The objects in conflict are backed up first, so whatever the policy does to them is put back if the save
    /// fails; what it changes in them, or in other stored objects, is saved with the plan.
    private func resolve(_ found: (versions: [ConflictResolver.VersionConflict], clashes: [ConflictResolver.ConstraintClash]),
                         ids: PermanentIDs, under policy: MergePolicy, in plan: inout SavePlan) throws {
        let resolution = ConflictResolution(plan: plan, versions: found.versions)
        defer { plan = resolution.plan }
        for conflict in found.versions { resolution.plan.backUp(conflict.object) }
        for clash in found.clashes { resolution.plan.backUp(clash.object) }
        let mergeConflicts = ConflictResolver.mergeConflicts(found.versions)
        let constraintConflicts = storeConstraintConflicts(found.clashes, ids: ids)
        let before = (inserted: inserted.count, deleted: deleted.count, updatedMark: updated.mark)
        try ConflictResolution.$current.withValue(resolution) {
            if !mergeConflicts.isEmpty { try policy.resolve(optimisticLockingConflicts: mergeConflicts) }
            if !constraintConflicts.isEmpty { try policy.resolve(constraintConflicts: constraintConflicts) }
        }
        guard inserted.count == before.inserted && deleted.count == before.deleted else {
            throw PersistenceError(.coreData,
                                   "\(policy) inserted or deleted objects while resolving conflicts with the store. A merge policy may change the objects it is handed (and other stored objects) there, not insert or delete any: the store has already checked this save's objects. Delete or merge duplicate new objects in resolve(constraintConflicts:) for conflicts among new objects (no databaseObject), or before saving.")
        }
        var changed = found.versions.map(\.object)
        changed += constraintConflicts.compactMap(\.databaseObject)
        changed += updated.objects(since: before.updatedMark)
        resolution.includeChanged(changed)
    }

    /// Core Data's constraint conflicts for the store's `clashes`: one per stored row and constraint, with the new
    /// objects that clash with it.
    private func storeConstraintConflicts(_ clashes: [ConflictResolver.ConstraintClash], ids: PermanentIDs) -> [ConstraintConflict] {
        struct StoredRow: Hashable {
            let owner: ObjectIdentifier
            let constraint: Int
            let primaryKey: Int64
        }
        var order: [StoredRow] = []
        var byRow: [StoredRow: [ConflictResolver.ConstraintClash]] = [:]
        for clash in clashes {
            let owner = clash.object.entity.constraintOwner(clash.constraint)
            let row = StoredRow(owner: ObjectIdentifier(owner), constraint: clash.constraint, primaryKey: clash.stored.primaryKey)
            if byRow[row] == nil { order.append(row) }
            byRow[row, default: []].append(clash)
        }
        return order.map { row in
            let clashes = byRow[row]!
            let first = clashes[0]
            return ConstraintConflict(constraint: first.object.entity.uniquenessConstraintKeys[first.constraint],
                                      database: object(with: ids.id(of: first.stored.entity, primaryKey: first.stored.primaryKey)),
                                      clashes: clashes)
        }
    }

    /// Core Data's constraint conflict (133021) for a row SQLite refused: the stored objects it clashes with, by
    /// constraint.
    private func constraintConflictError(_ failure: StoreRowWriteFailure, in plan: SavePlan,
                                         coordinator: PersistentStoreCoordinator) throws -> PersistenceError {
        let object = plan.object(for: failure.item)
        let entity = object.entity
        var conflicts: [MergeConflict] = []
        for (number, constraint) in entity.uniquenessConstraintKeys.enumerated() {
            let stored = object.constraintValues(number).stored
            let clashing = try coordinator.withStore {
                try $0.objectIDsClashing(with: entity, constraint: number, values: stored, excluding: failure.primaryKey)
            }
            guard !clashing.isEmpty else { continue }
            conflicts.append(MergeConflict(
                sourceObject: object, objectID: object.objectID, oldVersion: object.version, newVersion: 0,
                objectSnapshot: object.conflictSnapshot(), cachedSnapshot: nil, persistedSnapshot: nil,
                constraint: constraint, conflictingObjectIDs: clashing))
        }
        let described = conflicts.first.map { "(\($0.constraint.joined(separator: ", ")))" } ?? "a uniqueness constraint"
        return PersistenceError(.managedObjectConstraintMerge,
                                "\(entity.entityName) \(object.objectID) clashes with a stored object on \(described), which must be unique.",
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
