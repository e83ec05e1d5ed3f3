import Foundation

extension ManagedObjectContext {
    /// Writes every insert, change and delete to the store in one transaction: all of it, or — on any error —
    /// none of it, with the context left as it was so you can fix the objects or ``rollback()``.
    ///
    /// Before writing: delete rules run (cascade, nullify), then every inserted and updated object is validated.
    /// - Throws: ``PersistenceError``: 1570 missing value, 1550 a value that does not fit, 1580/1590 a to-many
    ///   count out of range, 1600 a deny rule, 1551 two objects of this save clash on a uniqueness constraint
    ///   (under ``MergePolicy/error``; the other policies settle clashes among new objects, see ``MergePolicy``),
    ///   1560 several of these at once (see `detailedErrors`); 133020 "Could not merge changes." when another
    ///   context saved the same objects first; 133021 a clash with a stored row under a uniqueness constraint;
    ///   or the first mistake made through API that cannot throw (an object related across contexts…).
    public func save() throws {
        checkQueue("save()")
        if let misuse = misuseErrors.first { throw misuse }
        guard hasChanges else { return }
        NotificationCenter.default.post(name: Self.willSaveObjectsNotification, object: self)
        if let parent { return try saveToParent(parent) }
        guard let coordinator = persistentStoreCoordinator else {
            throw PersistenceError(.persistentStoreInvalidType, "This context has no persistent store coordinator to save to.")
        }
        let reportedInserts = processPendingChangesReportingInserts()
        var plan = SavePlan(inserted: inserted.objects,
                            updated: updated.objects.filter { !$0.deletedFlag && !$0.insertedFlag },
                            deleted: deleted.objects)
        let resolver = ConflictResolver(policy: mergePolicy)
        resolver.resolveDuplicateInsertions(in: &plan)
        try validateForSave(inserted: plan.inserted, updated: plan.updated)
        // Separate loops rather than one over a concatenation: a save may hold tens of thousands of objects.
        for object in plan.inserted { object.willSave() }
        for object in plan.updated { object.willSave() }
        for object in plan.deleted { object.willSave() }

        let ids = try write(&plan, resolver: resolver, to: coordinator)
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
        let sameInserts = plan.takeovers.isEmpty && plan.dropped.isEmpty && reportedInserts.count == insertedObjects.count
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
        markNotified()
    }

    // MARK: - Delete rules

    /// Applies delete rules: cascade deletes related objects, nullify removes the deleted object from them.
    func propagateDeletes() {
        var pending = deleted.objects
        var next = 0
        var prefetched = 0
        while next < pending.count {
            if next == prefetched {
                // Each wave of deletions (the context's own, then each round of cascades) reads what its rules
                // need in bulk.
                prefetchRelationshipsForDelete(pending[next...])
                prefetched = pending.count
            }
            let object = pending[next]
            next += 1
            for (index, relationship) in object.entity.relationshipAt.enumerated() {
                guard let relationship else { continue }
                switch relationship.deleteRule {
                case .cascade:
                    for related in relatedObjects(of: object, at: index) where !related.deletedFlag {
                        delete(related)
                        pending.append(related)
                    }
                case .nullify:
                    guard let inverse = relationship.inverseRelationship,
                          let inverseIndex = relationship.destinationEntity.propertyIndexByName[inverse.name] else { continue }
                    for related in relatedObjects(of: object, at: index) where !related.deletedFlag {
                        related.primitiveDetach(object, at: inverseIndex, relationship: inverse)
                    }
                case .deny, .noAction:
                    continue
                }
            }
        }
    }

    func relatedObjects(of object: ManagedObject, at index: Int) -> [ManagedObject] {
        guard let relationship = object.entity.relationshipAt[index] else { return [] }
        if relationship.isToMany { return object.toManyObjects(at: index).objects }
        return object.toOneObject(at: index).map { [$0] } ?? []
    }

    // MARK: - Validation

    /// Validates a save of `inserted` and `updated` (the context's change lists, deletions excluded) and the
    /// context's deletions.
    func validateForSave(inserted: [ManagedObject], updated: [ManagedObject]) throws {
        var errors: [PersistenceError] = []
        for object in deleted.objects {
            for (index, relationship) in object.entity.relationshipAt.enumerated() where relationship?.deleteRule == .deny {
                let blocking = relatedObjects(of: object, at: index).filter { !$0.deletedFlag }
                guard !blocking.isEmpty else { continue }
                errors.append(PersistenceError(
                    .validationRelationshipDeniedDelete,
                    "\(object.entity.name) \(object.objectID) cannot be deleted: its relationship '\(relationship!.name)' still holds \(blocking.count) object(s) and its delete rule is deny.",
                    object: object, key: relationship!.name))
            }
        }
        for object in inserted { validate(object, into: &errors) }
        for object in updated { validate(object, into: &errors) }
        let constrained = inserted.filter { !$0.entity.uniquenessConstraints.isEmpty }
            + updated.filter { !$0.entity.uniquenessConstraints.isEmpty }
        errors += uniquenessErrors(among: constrained)
        if errors.count == 1 { throw errors[0] }
        if errors.count > 1 {
            throw PersistenceError(.validationMultipleErrors,
                                   "Multiple validation errors occurred (\(errors.count)): " + errors.map(\.message).joined(separator: " "),
                                   detailedErrors: errors)
        }
    }

    private func validate(_ object: ManagedObject, into errors: inout [PersistenceError]) {
        let entity = object.entity
        let name = entity.name
        if object.faultState != .fired { object.fireFault() }
        for index in entity.mandatoryAttributeIndexes {
            guard object.attributeIsNil(at: index), let attribute = entity.attributeAt[index] else { continue }
            errors.append(PersistenceError(.validationMissingMandatoryProperty, "\(name).\(attribute.name) is required but is nil.",
                                           object: object, key: attribute.name, value: .null))
        }
        if object.holdsUnfittingValue {
            for (index, attribute) in entity.attributeAt.enumerated() {
                guard let attribute, case let value = object.attributeValue(at: index), !value.isNull,
                      attribute.attributeType.coerce(value) == nil else { continue }
                errors.append(PersistenceError(.managedObjectValidation,
                                               "\(name).\(attribute.name) holds \(attribute.attributeType.rawValue) values; \(value) (\(value.kindName)) does not fit.",
                                               object: object, key: attribute.name, value: value))
            }
        }
        for index in entity.checkedRelationshipIndexes {
            guard let relationship = entity.relationshipAt[index] else { continue }
            if !relationship.isToMany {
                if !relationship.isOptional, object.toOneObject(at: index) == nil {
                    errors.append(PersistenceError(.validationMissingMandatoryProperty,
                                                   "\(name).\(relationship.name) is required but points at no \(relationship.destinationEntityName).",
                                                   object: object, key: relationship.name))
                }
            } else {
                // Only a loaded relationship can have changed; an unloaded one was valid when saved.
                guard case .toMany(let related?) = object.slot(at: index) else { continue }
                let minimum = max(relationship.minCount, relationship.isOptional ? 0 : 1)
                if related.count < minimum {
                    errors.append(PersistenceError(.validationRelationshipLacksMinimumCount,
                                                   "\(name).\(relationship.name) needs at least \(minimum) object(s) but holds \(related.count).",
                                                   object: object, key: relationship.name))
                } else if relationship.maxCount > 0, related.count > relationship.maxCount {
                    errors.append(PersistenceError(.validationRelationshipExceedsMaximumCount,
                                                   "\(name).\(relationship.name) may hold at most \(relationship.maxCount) object(s) but holds \(related.count).",
                                                   object: object, key: relationship.name))
                }
            }
        }
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
                    "\(clashing.count) \(entity.name) objects in this save share \(described), but (\(constraint.joined(separator: ", "))) must be unique.",
                    object: clashing[0], key: constraint.joined(separator: ","),
                    conflicts: [MergeConflict(sourceObject: clashing[0], objectID: clashing[0].objectID,
                                              oldVersion: 0, newVersion: 0,
                                              objectSnapshot: [:], cachedSnapshot: [:], persistedSnapshot: [:],
                                              constraint: constraint, conflictingObjectIDs: clashing.map(\.objectID))]))
            }
        }
        return errors
    }
}
