import Foundation

extension ManagedObjectContext {
    /// Writes every insert, change and delete to the store in one transaction: all of it, or — on any error —
    /// none of it, with the context left as it was so you can fix the objects or ``rollback()``.
    ///
    /// Before writing: delete rules run (cascade, nullify); every object to be saved gets ``ManagedObject/willSave()``,
    /// round after round while those calls insert, change or delete objects (see ``ManagedObject/willSave()``);
    /// then every inserted and updated object is validated. What `willSave()` changed stays changed if the save
    /// fails.
    /// - Throws: 1570 missing value, 1550 a value that does not fit, 1580/1590 a to-many
    ///   count out of range, 1600 a deny rule, 1551 two objects of this save clash on a uniqueness constraint
    ///   (under ``MergePolicy/error``; the other policies settle clashes among new objects, see ``MergePolicy``),
    ///   1560 several of these at once (see `detailedErrors`); 133020 "Could not merge changes." when another
    ///   context saved the same objects first; 133021 a clash with a stored row under a uniqueness constraint;
    ///   134060 when `willSave()` keeps changing objects round after round (a loop: see
    ///   ``ManagedObject/willSave()``), or when `save()` is called from `willSave()`; or the first mistake made
    ///   through API that cannot throw (an object related across contexts…).
    public func save() throws {
        checkQueue("save()")
        try checkNotInWillSave()
        if let misuse = misuseToThrow() { throw misuse }
        guard hasUnsavedObjects else { return }
        NotificationCenter.default.post(name: Self.willSaveObjectsNotification, object: self)
        if let parent { return try saveToParent(parent) }
        guard let coordinator = persistentStoreCoordinator else {
            throw PersistenceError(.persistentStoreInvalidType, "This context has no persistent store coordinator to save to.")
        }
        var reportedInserts: Set<ManagedObject>? = processPendingChangesReportingInserts()
        let lists: SaveLists
        if let unchanged = try runWillSave() {
            lists = unchanged
        } else {
            // Observers hear of what willSave() changed as of any other change; the did-save notification's set of
            // inserted objects is then made anew.
            postChangeNotification()
            reportedInserts = nil
            lists = saveLists()
        }
        if let misuse = misuseToThrow() { throw misuse }
        if let refused = refusedMergePolicy {
            throw PersistenceError(.coreData, "mergePolicy was set to a value of type \(refused), which is not a merge "
                + "policy: set a MergePolicy (NSMergePolicy on Apple platforms), such as "
                + "MergePolicy.mergeByPropertyObjectTrump, or one of Core Data's constants such as "
                + "NSMergeByPropertyObjectTrumpMergePolicy.")
        }
        var plan = SavePlan(inserted: lists.inserted, updated: lists.updated, deleted: lists.deleted)
        let policy = resolvedMergePolicy
        try resolveDuplicateInsertions(in: &plan, under: policy)
        try validateForSave(inserted: plan.inserted, updated: plan.updated)

        // The transaction's history names this context as its author (see ManagedObjectContext+History.swift).
        let ids = try withHistoryOrigin { try write(&plan, policy: policy, to: coordinator) }
        let insertedObjects = plan.inserted
        let updatedObjects = plan.updated
        var deletedIDs: [ManagedObjectID] = []
        for object in plan.deleted + plan.dropped where !object.objectID.isTemporaryID { deletedIDs.append(object.objectID) }

        for object in plan.deleted {
            evict(object)
        }
        finishResolution(plan, ids: ids)
        finishSavedInserts(insertedObjects, of: plan, ids: ids)
        // The store bumped the version of every row it wrote; an object with transient changes only kept its row.
        for object in updatedObjects where !object.changesOnlyTransientAttributes { object.version += 1 }
        markSaved(updatedObjects)
        advanceQueryGeneration()
        for objects in [insertedObjects, updatedObjects, plan.reinserted, plan.takeovers] {
            for object in objects { object.didSave() }
        }
        // The inserted objects reported before the save are the ones saved when the policy moved none of them.
        let sameInserts = plan.takeovers.isEmpty && plan.dropped.isEmpty && reportedInserts?.count == insertedObjects.count
        // (Concatenating an empty array still copies the other: a save may hold tens of thousands of objects.)
        postSaveNotifications(inserted: plan.takeovers.isEmpty ? insertedObjects : insertedObjects + plan.takeovers,
                              updated: plan.reinserted.isEmpty ? updatedObjects : updatedObjects + plan.reinserted,
                              deleted: plan.deleted.filter { !$0.objectID.isTemporaryID }, deletedIDs: deletedIDs,
                              insertedSet: sameInserts ? reportedInserts : nil)
    }

    /// After the write, in one pass over the inserted objects: each takes the permanent ID its row was written under
    /// (its key in `plan`), version 1 and a clean state.
    private func finishSavedInserts(_ objects: [ManagedObject], of plan: SavePlan, ids: PermanentIDs) {
        let renamedCount = plan.allocatedKeyCounts.reduce(0, +)
        // When they are all the temporary IDs there are (the usual case), the temporary table is dropped in one
        // step instead of one removal per object.
        let dropAllTemporary = renamedCount > 0 && renamedCount == registry.temporaryCount
        syncStoreIdentifier()
        let sameStore = registry.storeIdentifier == ids.storeIdentifier
        if dropAllTemporary { registry.removeAllTemporary() }
        let savingKeys = plan.savingKeys
        for object in objects {
            let primaryKey = SavePlan.savingPrimaryKey(of: object, in: savingKeys)
            if primaryKey != 0 {
                if !dropAllTemporary { unregister(object) }
                object.objectID = ids.id(of: object.entity, primaryKey: primaryKey)
                if sameStore {
                    registry.insertPermanent(object, primaryKey: primaryKey, entityIndex: object.entity.index)
                } else {
                    register(object)
                }
            }
            object.version = 1
            object.markClean()
        }
    }

    /// After a save: the saved objects now match what they were saved to, and the change lists start afresh.
    func markSaved(_ groups: [ManagedObject]...) {
        for objects in groups {
            for object in objects { object.markClean() }
        }
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        preparedDeletions.removeAll()
        markNotified()
    }

    // MARK: - willSave()

    /// How many rounds of ``ManagedObject/willSave()`` a save runs at most. A round calls it on the objects the
    /// round before dirtied; one object changing another's value, which changes a third's, takes a round a link, so
    /// a hundred leaves room for any chain a model has and stops a loop (an object changed in every round, or new
    /// objects made in every round) long before it costs much.
    static let willSaveRoundLimit = 100

    /// The objects a save writes: the context's inserted, updated (deletions apart) and deleted objects.
    typealias SaveLists = (inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject])

    /// The context's objects to save, as they stand.
    func saveLists() -> SaveLists {
        (inserted.objects, updated.objects.filter { !$0.deletedFlag && !$0.insertedFlag }, deleted.objects)
    }

    /// Calls ``ManagedObject/willSave()`` on every object this save writes (inserted, then updated, then deleted),
    /// then, round after round, on every object inserted, changed or deleted during the round before — the delete
    /// rules of that round's deletions applied first, so what they cascade to or nullify counts too — until a round
    /// dirties nothing. An object changed in another's `willSave()` is so saved with the rest and gets its own
    /// call; one changed again after its call gets another, as in Core Data. Runs no code under the coordinator's
    /// lock. Returns the objects of the first round when the calls dirtied nothing (they are then still the
    /// save's), nil when they dirtied something.
    /// - Throws: 134060 naming the object dirtied in most rounds when objects are still dirtied after
    ///   ``willSaveRoundLimit`` rounds (Core Data would go on calling `willSave()` until the program crashed).
    func runWillSave() throws -> SaveLists? {
        let changes = WillSaveChanges()
        willSaveChanges = changes
        defer { willSaveChanges = nil }
        var deletionsPropagated = deleted.mark
        // The first round's objects are taken before any call: an object a call deletes or inserts is the next
        // round's. (Separate lists rather than one concatenation: a save may hold tens of thousands of objects.)
        let first = saveLists()
        let counts = (inserted.count, updated.count, deleted.count)
        for object in first.inserted { object.willSave() }
        for object in first.updated { object.willSave() }
        for object in first.deleted { object.willSave() }
        var rounds = 1
        var dirtiedRounds: [ObjectIdentifier: Int] = [:]
        while true {
            let deletions = deleted.objects(since: deletionsPropagated)
            if !deletions.isEmpty { propagateDeletes(deletions) }
            deletionsPropagated = deleted.mark
            var due: (inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) = ([], [], [])
            for object in changes.take() where object.managedObjectContext === self {
                if object.isInList(.deleted) {
                    due.deleted.append(object)
                } else if object.isInList(.inserted) {
                    due.inserted.append(object)
                } else if object.isInList(.updated) {
                    due.updated.append(object)
                }
            }
            let dirtied = due.inserted + due.updated + due.deleted
            guard !dirtied.isEmpty else {
                // Only what was noted changes the lists; their sizes are checked all the same.
                let unchanged = rounds == 1 && (inserted.count, updated.count, deleted.count) == counts
                return unchanged ? first : nil
            }
            for object in dirtied { dirtiedRounds[ObjectIdentifier(object), default: 0] += 1 }
            guard rounds < Self.willSaveRoundLimit else { throw willSaveLoopError(dirtied, dirtiedRounds: dirtiedRounds) }
            rounds += 1
            for object in dirtied { object.willSave() }
        }
    }

    /// The error for `willSave()` calls that keep dirtying `objects` (the last round's), naming the one dirtied
    /// in most rounds.
    private func willSaveLoopError(_ objects: [ManagedObject], dirtiedRounds: [ObjectIdentifier: Int]) -> PersistenceError {
        var culprit = objects[0]
        var most = 0
        for object in objects {
            let count = dirtiedRounds[ObjectIdentifier(object)] ?? 0
            if count > most { (culprit, most) = (object, count) }
        }
        return PersistenceError(
            .coreData,
            "willSave() never stops changing objects: after \(Self.willSaveRoundLimit) rounds of willSave() in this save, \(culprit.entity.entityName) \(culprit.objectID) was still being changed (it was changed, inserted or deleted during \(most) of the \(Self.willSaveRoundLimit) rounds; \(objects.count - 1) other object(s) were during the last). Each change made in willSave() calls willSave() again (Core Data would go on until the program crashed): in willSave(), set a value only when it differs from the one the object holds, and insert or delete only when not done yet. Nothing was saved.",
            object: culprit)
    }

    /// Refuses a save started from `willSave()` of this context's own save, which would save half-prepared objects.
    func checkNotInWillSave() throws {
        guard willSaveChanges != nil else { return }
        throw PersistenceError(.coreData,
                               "save() was called from willSave() while this context was saving: willSave() may change objects, which this save then writes, but not start another save.")
    }

    // MARK: - Delete rules

    /// Applies delete rules: cascade deletes related objects, nullify removes the deleted object from them.
    func propagateDeletes() {
        propagateDeletes(deleted.objects)
    }

    /// Applies the delete rules of `deletions` (deleted objects of this context), and of what they cascade to, each
    /// object's ``ManagedObject/prepareForDeletion()`` first (once per deletion), as Core Data does when it
    /// propagates deletions. Objects that `prepareForDeletion()` deletes are propagated too.
    func propagateDeletes(_ deletions: [ManagedObject]) {
        if deleted.isEmpty { preparedDeletions.removeAll() }
        var pending = deletions
        var next = 0
        var prefetched = 0
        let start = deleted.mark
        var prepareCalls = 0
        while true {
            if next == pending.count {
                // Deletions made by prepareForDeletion() (or anything it called) are not in `pending` yet.
                guard prepareCalls > 0 else { break }
                prepareCalls = 0
                let more = deleted.objects(since: start).filter { $0.deletedFlag && !preparedDeletions.contains($0) }
                guard !more.isEmpty else { break }
                pending += more
            }
            if next == prefetched {
                // Each wave of deletions (the context's own, then each round of cascades) reads what its rules
                // need in bulk.
                prefetchRelationshipsForDelete(pending[next...])
                prefetched = pending.count
            }
            let object = pending[next]
            next += 1
            guard object.deletedFlag, object.managedObjectContext === self else { continue }
            if preparedDeletions.insert(object).inserted {
                prepareCalls += 1
                object.prepareForDeletion()
            }
            for (index, relationship) in object.entity.relationshipAt.enumerated() {
                guard let relationship else { continue }
                switch relationship.deleteRule {
                case .cascadeDeleteRule:
                    for related in relatedObjects(of: object, at: index) where !related.deletedFlag {
                        delete(related)
                        pending.append(related)
                    }
                case .nullifyDeleteRule:
                    guard let inverse = relationship.inverseRelationship,
                          let inverseIndex = relationship.destinationEntity.propertyIndexByName[inverse.name] else { continue }
                    for related in relatedObjects(of: object, at: index) where !related.deletedFlag {
                        related.primitiveDetach(object, at: inverseIndex, relationship: inverse)
                    }
                case .denyDeleteRule, .noActionDeleteRule:
                    continue
                }
            }
        }
    }

    func relatedObjects(of object: ManagedObject, at index: Int) -> [ManagedObject] {
        object.relatedObjects(at: index)
    }

    // MARK: - Validation

    /// Validates a save of `inserted` and `updated` (the context's change lists, deletions excluded) and the
    /// context's deletions: each object's ``ManagedObject/validateForDelete()``,
    /// ``ManagedObject/validateForInsert()`` or ``ManagedObject/validateForUpdate()`` (their default
    /// implementations apply the model's rules; overrides add the app's), then the uniqueness constraints. One
    /// error is thrown as it is; several as 1560 listing them all.
    func validateForSave(inserted: [ManagedObject], updated: [ManagedObject]) throws {
        var errors: [any Error] = []
        func collect(_ validation: () throws -> Void) {
            do { try validation() } catch { errors.append(error) }
        }
        for object in deleted.objects { collect(object.validateForDelete) }
        for object in inserted { collect(object.validateForInsert) }
        for object in updated { collect(object.validateForUpdate) }
        let constrained = inserted.filter { !$0.entity.uniquenessConstraintKeys.isEmpty }
            + updated.filter { !$0.entity.uniquenessConstraintKeys.isEmpty }
        errors += uniquenessErrors(among: constrained) as [any Error]
        try ManagedObject.throwCombined(errors)
    }

    /// Objects of one save (of entities with uniqueness constraints) that share the values of a constraint (1551).
    private func uniquenessErrors(among objects: [ManagedObject]) -> [PersistenceError] {
        var errors: [PersistenceError] = []
        for group in ConstraintGroup.groups(of: objects) {
            let entity = group.owner
            let constraint = group.constraint
            for (values, clashing) in group.clashes() {
                let described = zip(constraint, values).map { "\($0) = \($1)" }.joined(separator: ", ")
                errors.append(PersistenceError(
                    .managedObjectConstraintValidation,
                    "\(clashing.count) \(entity.entityName) objects in this save share \(described), but (\(constraint.joined(separator: ", "))) must be unique.",
                    object: clashing[0], key: constraint.joined(separator: ","),
                    conflicts: [MergeConflict(sourceObject: clashing[0], objectID: clashing[0].objectID,
                                              oldVersion: 0, newVersion: 0,
                                              objectSnapshot: clashing[0].conflictSnapshot(),
                                              cachedSnapshot: nil, persistedSnapshot: nil,
                                              constraint: constraint, conflictingObjectIDs: clashing.map(\.objectID))]))
            }
        }
        return errors
    }
}

/// The objects inserted, changed or deleted while a context runs `willSave()` for a save, each once, in the order
/// they were first dirtied since the last ``take()`` (see `ManagedObjectContext.runWillSave()`).
final class WillSaveChanges {
    private var objects: [ManagedObject] = []
    private var noted = Set<ObjectIdentifier>()

    /// Notes that `object` was dirtied. (The list holds the object, so its identifier is not reused meanwhile.)
    func note(_ object: ManagedObject) {
        if noted.insert(ObjectIdentifier(object)).inserted { objects.append(object) }
    }

    /// The objects noted since the last call; the next call starts afresh.
    func take() -> [ManagedObject] {
        defer {
            objects = []
            noted = []
        }
        return objects
    }
}
