extension ManagedObjectContext {
    /// Forgets every unsaved change: inserted objects leave the context, deleted ones come back, changed ones
    /// return to their last saved values. Also clears a mistake remembered for the next save.
    ///
    /// After a failed save, roll back (or fix the objects): otherwise the same invalid change makes every later
    /// save fail too.
    public func rollback() {
        checkQueue("rollback()")
        // Observers hear what the rollback undid, as changes like any other: the new objects they were told of are
        // deleted, the deletions they were told of are inserted again, the rest set back is updated. (Apple does
        // not document what its rollback posts.)
        let unreportedDeletions = deleted.unreportedObjects()
        var gone = Set<ManagedObject>()
        var back = Set<ManagedObject>()
        var setBack = Set<ManagedObject>()
        for object in inserted.objects {
            if inserted.reportedInsertion(of: object) { gone.insert(object) }
            evict(object)
        }
        // Saved objects set back to their snapshot, told once each after the whole rollback.
        var restored: [ManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        for object in deleted.objects {
            object.deletedFlag = false
            let toldDeleted = !unreportedDeletions.contains(object)
            if object.objectID.isTemporaryID {
                // A new object deleted: observers still show it if they heard of its insertion but not its deletion.
                if !toldDeleted && !noted.isUnreportedDeletion(object) { gone.insert(object) }
                evict(object)
            } else {
                if toldDeleted { back.insert(object) } else { setBack.insert(object) }
                restored.append(object)
                seen.insert(ObjectIdentifier(object))
            }
        }
        for object in updated.objects where object.managedObjectContext === self {
            if seen.insert(ObjectIdentifier(object)).inserted {
                restored.append(object)
                setBack.insert(object)
            }
            if let committed = object.committedSlots { object.slots = committed }
            object.committedSlots = nil
            object.changedIndexes = []
            object.holdsUnfittingValue = false
        }
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        preparedDeletions.removeAll()
        markNotified()
        dropMisuse()
        for object in restored where object.managedObjectContext === self {
            object.awake(fromSnapshotEvents: .rollback)
        }
        postDidChange(inserted: back, updated: setBack, deleted: gone)
    }

    /// Forgets everything: unsaved changes and every registered object. Objects fetched before must not be used
    /// afterwards; fetch again.
    /// Observers get ``didChangeObjectsNotification`` with ``NotificationKey/invalidatedAllObjects`` (Core Data's
    /// `NSInvalidatedAllObjectsKey`) and the forgotten objects' IDs.
    public func reset() {
        checkQueue("reset()")
        // Objects nobody holds are gone already: they are not among the forgotten.
        dropUnreferencedObjects(recentOnly: false)
        let forgotten = registry.objects.map(\.objectID)
        invalidateAll()
        registry.removeAll()
        advanceQueryGeneration()
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        preparedDeletions.removeAll()
        noted.removeAll()
        dropMisuse()
        if !forgotten.isEmpty { postInvalidatedAll(forgotten) }
    }

    /// Re-reads `object` from the store. With `mergeChanges` false, unsaved changes are dropped and the object
    /// becomes a fault; with `true`, its unsaved changes are kept on top of the store's current values (and it
    /// takes the store's version, so its next save does not conflict). For a changed to-many relationship the
    /// change is the objects added and removed here: the store's current objects, plus those, less these.
    ///
    /// Transient attributes follow Core Data: merging keeps their values in memory, changed or not (an object
    /// with transient attributes is then read again at once rather than turned into a fault, which would lose
    /// them); without merging they go back to their default values with everything else.
    ///
    /// Observers hear of it at the next ``processPendingChanges()`` (or save, or merge): the object is under
    /// ``NotificationKey/refreshedObjects`` of ``didChangeObjectsNotification``, as Core Data's
    /// `NSRefreshedObjectsKey`.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        checkQueue("refresh(_:mergeChanges:)")
        guard object.managedObjectContext === self, !object.insertedFlag else { return }
        noted.noteRefreshed(object)
        // Only a fired object can hold transient values that differ from the defaults.
        let keepsTransients = mergeChanges && object.entity.hasTransientAttributes && object.faultState == .fired
            && !object.isInaccessible
        if !mergeChanges || (object.changedIndexes.isEmpty && !keepsTransients) {
            updated.remove(object)
            if object.deletedFlag && !mergeChanges {
                object.deletedFlag = false
                deleted.remove(object)
                preparedDeletions.remove(object)
            }
            object.turnIntoFault()
            return
        }
        if let state = parentState(of: object.objectID), !state.isDeleted {
            let fresh = state.slots.map { $0.slot(in: self) }
            apply(fresh, version: state.version, to: object)
            object.awake(fromSnapshotEvents: .refresh)
            return
        }
        guard let pk = object.objectID.primaryKey,
              let row = try? withReadStore({ try $0.row(of: object.entity, primaryKey: pk) })
        else {
            object.markInaccessible()
            updated.remove(object)
            return
        }
        apply(row.slots, version: row.version, to: object)
        object.awake(fromSnapshotEvents: .refresh)
    }

    /// Puts `fresh` values (the store's or the parent's) under `object`'s unsaved changes and its transient values.
    private func apply(_ fresh: [PropertySlot], version: Int64, to object: ManagedObject) {
        let transients = object.entity.transientIndexes
        var fresh = fresh
        var merged = fresh
        for index in object.changedIndexes where index < merged.count {
            if let (objects, reapplied) = reappliedToMany(of: object, at: index, over: fresh[index]) {
                fresh[index] = .toMany(objects)
                merged[index] = .toMany(reapplied)
            } else {
                merged[index] = object.slots[index]
            }
        }
        for index in transients where index < merged.count { merged[index] = object.slots[index] }
        if object.changedIndexes.isEmpty {
            object.committedSlots = nil
        } else {
            // Rollback restores the fresh values, and for transient attributes the last ones committed in memory.
            var committed = fresh
            let previous = object.committedSlots ?? object.slots
            for index in transients where index < committed.count { committed[index] = previous[index] }
            object.committedSlots = committed
        }
        object.slots = merged
        object.version = version
    }

    /// For a changed to-many relationship: the objects `fresh` relates (read from the store when the row leaves
    /// them out), and those objects with the context's change re-applied — the objects it added since the list was
    /// last read, less those it removed. Core Data re-applies "any changes" over the newer values; a to-many's
    /// change is what was added and removed, so the store's new members stay (objc.io's Moody relies on it). Nil
    /// when the relationship is no to-many, or its list before the change was never read (nothing to tell the
    /// change by): the context's list then stays whole, as before.
    private func reappliedToMany(of object: ManagedObject, at index: Int,
                                 over fresh: PropertySlot) -> (RelatedObjects, RelatedObjects)? {
        guard let relationship = object.entity.relationshipAt[index], relationship.isToMany,
              case .toMany(let mine?) = object.slots[index],
              case .toMany(let before?)? = object.committedSlots?[index] else { return nil }
        let objects: RelatedObjects
        if case .toMany(let listed?) = fresh { objects = listed } else { objects = loadToMany(relationship, of: object) }
        var reapplied = objects
        for removed in before.objects where !mine.contains(removed) { reapplied.remove(removed) }
        for added in mine.objects where !before.contains(added) { reapplied.append(added) }
        return (objects, reapplied)
    }

    /// Refreshes every registered object, keeping unsaved changes (unchanged objects become faults, unless they
    /// hold transient attributes: see ``refresh(_:mergeChanges:)``).
    public func refreshAllObjects() {
        dropUnreferencedObjects(recentOnly: false)
        for object in registry.objects where !object.insertedFlag {
            refresh(object, mergeChanges: true)
        }
    }
}
