/// The rules of one ``MergePolicy/mergeType`` applied to a save's conflicts: a value of its own, so the rules can be
/// read (and tested) apart from the context that saves, the store that writes and the policy object that calls them
/// (its default implementations do, through ``ConflictResolution``).
///
/// It changes the objects of a ``SavePlan`` and the plan's lists, backing up every object it touches so a failed
/// save can put them back. It runs in the context, after the store has answered a save with the conflicts it found
/// (``StoreSaveOutcome``), and outside the coordinator's lock; the context then hands the store the plan as
/// resolved, which the store checks again in the transaction that writes it. The context applies the outcome
/// afterwards (``ManagedObjectContext/finishResolution(_:ids:)``).
struct ConflictResolver {
    let policy: MergePolicy

    /// An object being updated or deleted whose row changed since this context read it: the row's version now
    /// (0: gone) and the row as stored, if it still is.
    typealias VersionConflict = (object: ManagedObject, version: Int64, row: StoreRow?)

    /// A new object clashing with a stored row on uniqueness constraint `constraint` (its number).
    typealias ConstraintClash = (object: ManagedObject, constraint: Int, stored: StoreKey, version: Int64)

    /// The store's conflicts in terms of the objects of `plan` (the plan the store's request was made from).
    static func conflicts(_ versions: [StoreSaveOutcome.VersionConflict], _ clashes: [StoreSaveOutcome.ConstraintClash],
                          in plan: SavePlan) -> (versions: [VersionConflict], clashes: [ConstraintClash]) {
        (zip(plan.objects(for: versions.map(\.item)), versions).map { ($0, $1.version, $1.row) },
         clashes.map { (plan.inserted[$0.insert], $0.constraint, $0.stored, $0.version) })
    }

    /// Core Data's conflicts for `found`, as a merge policy is handed them and the 133020 error lists them: the
    /// object's values, the ones it last read, and the row's now.
    static func mergeConflicts(_ found: [VersionConflict]) -> [MergeConflict] {
        found.map { conflict in
            let object = conflict.object
            return MergeConflict(
                sourceObject: conflict.object, objectID: conflict.object.objectID,
                oldVersion: conflict.object.version, newVersion: conflict.version,
                objectSnapshot: object.conflictSnapshot(),
                cachedSnapshot: object.conflictSnapshot(of: object.committedSlots ?? object.slots),
                persistedSnapshot: conflict.row.map { object.conflictSnapshot(of: $0.slots) })
        }
    }

    /// Optimistic locking: fails (``MergePolicy/error``) or resolves in `plan` the objects `found` whose row
    /// changed since this context read it.
    func resolveVersionConflicts(_ found: [VersionConflict], in plan: inout SavePlan) throws {
        guard !found.isEmpty else { return }
        if policy.mergeType == .error {
            let conflicts = Self.mergeConflicts(found)
            throw PersistenceError(.managedObjectMerge, "Could not merge changes.", objectID: conflicts[0].objectID,
                                   conflicts: conflicts)
        }
        for (object, version, row) in found {
            plan.backUp(object)
            if object.deletedFlag {
                // A deletion goes ahead under every policy but .error (see MergePolicy): its delete rules have
                // already changed the related objects, so cancelling it would leave the graph half-changed.
                object.version = version
                continue
            }
            guard let row else {
                plan.removeUpdated(object)
                if policy.objectWins {
                    object.changedIndexes = Set(object.entity.properties.indices)
                    plan.reinserted.append(object)
                } else {
                    plan.dropped.append(object)
                }
                continue
            }
            if merge(object, with: row) {
                // Apple's `.mergePolicy` event: "a change due to conflict resolution during a save operation".
                // Which objects get it is undocumented; here, each whose values the policy took from the store.
                object.awake(fromSnapshotEvents: .mergePolicy)
            }
            if object.changedIndexes.isEmpty { plan.removeUpdated(object) }
        }
    }

    /// Applies the policy to one object in conflict with the store's `row`; `true` when it took any of the
    /// store's values that differ from the object's.
    private func merge(_ object: ManagedObject, with row: StoreRow) -> Bool {
        let entity = object.entity
        let cached = object.committedSlots ?? object.slots
        let stored = row.slots
        var changed = object.changedIndexes
        var tookStoreValues = false
        for index in entity.properties.indices {
            // The row has no value for a transient attribute to compare with: the object's own always stays.
            if entity.isTransient(at: index) { continue }
            // To-many lists are not in the row: they keep the object's version unless the policy is rollback.
            if entity.kinds[index] == .toMany {
                if policy.mergeType == .rollback && changed.contains(index) {
                    object.slots[index] = .toMany(nil)
                    changed.remove(index)
                    tookStoreValues = true
                }
                continue
            }
            let storeChanged = !ManagedObject.same(stored[index], cached[index], ordered: true)
            let objectChanged = changed.contains(index)
            let takeStore: Bool
            switch policy.mergeType {
            case .mergeByPropertyStoreTrump: takeStore = !objectChanged || storeChanged
            case .mergeByPropertyObjectTrump: takeStore = !objectChanged
            case .overwrite: takeStore = false
            case .rollback: takeStore = true
            case .error: takeStore = false
            }
            if takeStore {
                if !ManagedObject.same(object.slots[index], stored[index], ordered: true) { tookStoreValues = true }
                refaultInverse(of: object, at: index)
                object.slots[index] = stored[index]
                changed.remove(index)
            } else if policy.mergeType == .overwrite {
                changed.insert(index)
            }
        }
        object.changedIndexes = changed
        if changed.isEmpty {
            object.committedSlots = nil
        } else {
            // Rollback restores the store's values, and for transient attributes the ones committed in memory.
            var committed = stored
            for index in entity.transientIndexes { committed[index] = cached[index] }
            // The row leaves to-many lists out: the list last read stays what the object's change is told from, so a
            // later refresh re-applies that change (its additions and removals) over the store's current objects.
            for index in entity.toManyIndexes where changed.contains(index) { committed[index] = cached[index] }
            object.committedSlots = committed
        }
        object.version = row.version
        return tookStoreValues
    }

    /// Before a to-one takes the store's value, the in-memory inverse lists of the old and new destination are
    /// re-read from the store on next use (unless they have unsaved changes of their own).
    private func refaultInverse(of object: ManagedObject, at index: Int) {
        guard let relationship = object.entity.relationshipAt[index], !relationship.isToMany,
              let inverse = relationship.inverseRelationship, inverse.isToMany,
              let inverseIndex = relationship.destinationEntity.propertyIndexByName[inverse.name],
              let old = object.toOneObject(at: index), !old.changedIndexes.contains(inverseIndex),
              old.faultState == .fired else { return }
        old.slots[inverseIndex] = .toMany(nil)
    }

    /// Uniqueness constraints among the new objects of one save: under a policy other than ``MergePolicy/error``,
    /// new objects sharing the values of a constraint are settled by the rule for a clash with a stored row, the
    /// earliest inserted playing the stored row: the object-trumping policies keep the last one inserted, the
    /// store-trumping ones (and ``MergePolicy/rollback``) the first. The others leave the plan for `plan.dropped`.
    /// Runs before validation, so the duplicates left out are not reported as clashing (1551).
    func resolveDuplicateInsertions(in plan: inout SavePlan) {
        guard policy.mergeType != .error else { return }
        let constrained = plan.inserted.filter { !$0.entity.uniquenessConstraintKeys.isEmpty }
        guard constrained.count > 1 else { return }
        var losers = Set<ObjectIdentifier>()
        for group in ConstraintGroup.groups(of: constrained) where group.objects.count > 1 {
            // Insertion order is kept: each clash's first and last are the earliest and latest inserted.
            for (_, objects) in group.clashes(excluding: { losers.contains(ObjectIdentifier($0)) }) {
                let survivor = policy.objectWins ? objects.last! : objects.first!
                for object in objects where object !== survivor { losers.insert(ObjectIdentifier(object)) }
            }
        }
        guard !losers.isEmpty else { return }
        plan.dropped += plan.inserted.filter { losers.contains(ObjectIdentifier($0)) }
        plan.inserted.removeAll { losers.contains(ObjectIdentifier($0)) }
    }

    /// Uniqueness constraints: under a policy other than ``MergePolicy/error``, new objects that clash with a
    /// stored row (`clashes`, as the store found them) either take it over or are dropped (see ``MergePolicy``).
    /// Under `.error` the store's unique index reports the clash while writing (code 133021).
    func resolveConstraintConflicts(_ clashes: [ConstraintClash], in plan: inout SavePlan) throws {
        guard policy.mergeType != .error else { return }
        for (object, number, found, version) in clashes {
            let entity = object.entity
            let constraint = entity.uniquenessConstraintKeys[number]
            if policy.objectWins && found.entity !== entity {
                // Taking the row over would turn a stored object into another entity's.
                throw PersistenceError(.managedObjectConstraintMerge,
                                       "\(entity.entityName) \(object.objectID) clashes on (\(constraint.joined(separator: ", "))) with a stored \(found.entity.entityName), an object of another entity of its hierarchy; a new object can take over only a stored object of its own entity. Change the values, or delete the stored object first.",
                                       object: object)
            }
            plan.backUp(object)
            plan.removeInserted(object)
            if policy.objectWins {
                plan.setSavingPrimaryKey(found.primaryKey, of: object)
                object.version = version
                plan.takeovers.append(object)
            } else {
                plan.dropped.append(object)
            }
        }
    }
}
