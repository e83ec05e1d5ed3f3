extension ManagedObjectContext {
    /// Forgets every unsaved change: inserted objects leave the context, deleted ones come back, changed ones
    /// return to their last saved values. Also clears a mistake remembered for the next save.
    ///
    /// After a failed save, roll back (or fix the objects): otherwise the same invalid change makes every later
    /// save fail too.
    public func rollback() {
        checkQueue("rollback()")
        for object in inserted.objects {
            unregister(object)
            object.invalidate()
        }
        for object in deleted.objects {
            object.deletedFlag = false
            if object.objectID.isTemporaryID {
                unregister(object)
                object.invalidate()
            }
        }
        for object in updated.objects where object.managedObjectContext === self {
            if let committed = object.committedSlots { object.slots = committed }
            object.committedSlots = nil
            object.changedIndexes = []
            object.holdsUnfittingValue = false
        }
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        markNotified()
        misuseErrors.removeAll()
    }

    /// Forgets everything: unsaved changes and every registered object. Objects fetched before must not be used
    /// afterwards; fetch again.
    public func reset() {
        checkQueue("reset()")
        invalidateAll()
        registry.removeAll()
        advanceQueryGeneration()
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        misuseErrors.removeAll()
    }

    /// Re-reads `object` from the store. With `mergeChanges` false, unsaved changes are dropped and the object
    /// becomes a fault; with `true`, its unsaved changes are kept on top of the store's current values (and it
    /// takes the store's version, so its next save does not conflict).
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) {
        checkQueue("refresh(_:mergeChanges:)")
        guard object.managedObjectContext === self, !object.insertedFlag else { return }
        if !mergeChanges || object.changedIndexes.isEmpty {
            updated.remove(object)
            if object.deletedFlag && !mergeChanges {
                object.deletedFlag = false
                deleted.remove(object)
            }
            object.turnIntoFault()
            return
        }
        if let state = parentState(of: object.objectID), !state.isDeleted {
            var merged = state.slots.map { $0.slot(in: self) }
            for index in object.changedIndexes where index < merged.count { merged[index] = object.slots[index] }
            object.committedSlots = state.slots.map { $0.slot(in: self) }
            object.slots = merged
            object.version = state.version
            return
        }
        guard let pk = object.objectID.primaryKey,
              let row = try? withReadStore({ try $0.row(of: object.entity, primaryKey: pk) })
        else {
            object.markInaccessible()
            updated.remove(object)
            return
        }
        let stored = row.slots
        var merged = stored
        for index in object.changedIndexes { merged[index] = object.slots[index] }
        object.slots = merged
        object.committedSlots = stored
        object.version = row.version
    }

    /// Refreshes every registered object, keeping unsaved changes (unchanged objects become faults).
    public func refreshAllObjects() {
        for object in registry.objects where !object.insertedFlag {
            refresh(object, mergeChanges: true)
        }
    }
}
