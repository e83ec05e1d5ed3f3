/// Child contexts: a context whose ``ManagedObjectContext/parent`` is another context saves into that context
/// instead of the store, and reads through it, so it sees the parent's unsaved changes.
///
/// Objects never cross between contexts: what travels is IDs and values (``SlotSnapshot``), on each context's own
/// queue. A child's inserted objects keep their temporary IDs after the parent saves, as in Core Data; call
/// ``ManagedObjectContext/obtainPermanentIDs(for:)`` in the child before saving it when the IDs must outlive that.
extension ManagedObjectContext {
    /// Pushes this child's changes into its parent (one level up). Runs on this context's queue.
    ///
    /// As a save to the store does, and as Core Data does for any save (`willSave()` is sent before an object's
    /// context saves, whatever its parent store), it runs the rounds of `willSave()` first and validates after
    /// them; the parent's objects get their own `willSave()` when the parent saves.
    func saveToParent(_ parent: ManagedObjectContext) throws {
        processPendingChanges()
        var lists = try runWillSave()
        if lists == nil {
            postChangeNotification()
            lists = saveLists()
        }
        if let misuse = misuseToThrow() { throw misuse }
        let (insertedObjects, updatedObjects, deletedObjects) = lists!
        try validateForSave(inserted: insertedObjects, updated: updatedObjects)

        // What the parent needs, as IDs and values.
        let inserts = insertedObjects.map { (id: $0.objectID, entity: $0.entity, slots: $0.slots.map(SlotSnapshot.init)) }
        let updates = updatedObjects.map { object in
            (id: object.objectID, entity: object.entity,
             changes: object.changedIndexes.map { (index: $0, slot: SlotSnapshot(object.slots[$0])) })
        }
        // An object inserted and deleted in the child never reaches the parent; one whose ID the parent may know
        // (saved, or pushed by an earlier save of this child) is deleted there.
        let deletions = deletedObjects.map(\.objectID)

        try parent.performAndWait {
            try parent.absorb(inserts: inserts, updates: updates, deletions: deletions)
        }

        for object in deletedObjects {
            evict(object)
        }
        markSaved(insertedObjects, updatedObjects)
        for object in insertedObjects + updatedObjects { object.didSave() }
        postSaveNotifications(inserted: insertedObjects, updated: updatedObjects, deleted: [], deletedIDs: deletions)
    }

    /// Takes a child's save: new objects under the child's IDs, changed values, deletions. Runs on this context's
    /// queue; the changes become this context's unsaved changes.
    private func absorb(inserts: [(id: ManagedObjectID, entity: EntityDescription, slots: [SlotSnapshot])],
                        updates: [(id: ManagedObjectID, entity: EntityDescription, changes: [(index: Int, slot: SlotSnapshot)])],
                        deletions: [ManagedObjectID]) throws {
        // Shells first, so relationships among new objects resolve.
        var created: [(ManagedObject, [SlotSnapshot])] = []
        for insert in inserts {
            if let existing = registeredObject(forID: insert.id) {
                created.append((existing, insert.slots))
                continue
            }
            let object = insert.entity.managedObjectClass.init(entity: insert.entity, insertInto: nil)
            object.objectID = insert.id
            object.managedObjectContext = self
            object.insertedFlag = true
            register(object)
            inserted.append(object)
            created.append((object, insert.slots))
        }
        for (object, slots) in created {
            object.slots = slots.map { $0.slot(in: self) }
        }
        for update in updates {
            let object = self.object(with: update.id)
            if object.faultState != .fired { object.fireFault() }
            guard !object.isInaccessible else {
                throw PersistenceError(.managedObjectReferentialIntegrity,
                                       "The child context changed \(update.id), which its parent can no longer find (deleted, or saved to the store since the child read it under a temporary ID).",
                                       objectID: update.id)
            }
            for change in update.changes where change.index < object.slots.count {
                object.willChange(at: change.index)
                object.slots[change.index] = change.slot.slot(in: self)
            }
        }
        // A temporary ID the parent never saw was inserted and deleted in the child alone.
        let doomed = deletions.compactMap { id in
            id.isTemporaryID && registeredObject(forID: id) == nil ? nil : self.object(with: id)
        }
        // Deleting fires each fault; read their rows together first.
        fillFaults(doomed)
        for object in doomed where !object.isInaccessible { delete(object) }
    }

    /// The state the parent chain holds for `id`, when some ancestor has the object in memory.
    func parentState(of id: ManagedObjectID) -> ParentObjectState? {
        guard let parent else { return nil }
        return parent.performAndWait { () -> ParentObjectState? in
            if let object = parent.registeredObject(forID: id), object.faultState != .faultWithoutRow {
                if object.faultState == .faultWithRow { object.fireFault() }
                return ParentObjectState(slots: object.slots.map(SlotSnapshot.init), version: object.version,
                                         isDeleted: object.deletedFlag || object.isInaccessible)
            }
            return parent.parentState(of: id)
        }
    }

    /// The unsaved changes of every ancestor, for `entity`, as IDs.
    func ancestorPendingChanges(for entity: EntityDescription) -> PendingChanges {
        guard let parent else { return PendingChanges() }
        return parent.performAndWait {
            var changes = parent.ancestorPendingChanges(for: entity)
            for object in parent.inserted.objects where object.entity.matches(entity, includingSubentities: true) {
                changes.inserted.insert(object.objectID)
            }
            for object in parent.updated.objects where object.entity.matches(entity, includingSubentities: true) && !object.deletedFlag {
                changes.changed.insert(object.objectID)
            }
            for object in parent.deleted.objects where object.entity.matches(entity, includingSubentities: true) {
                changes.deleted.insert(object.objectID)
                changes.inserted.remove(object.objectID)
            }
            return changes
        }
    }

    /// The related IDs of a to-many as the nearest ancestor that has the list in memory holds it.
    func ancestorToMany(_ relationship: RelationshipDescription, of id: ManagedObjectID) -> [ManagedObjectID]? {
        guard let state = parentState(of: id), let owner = model?.entitiesByName[id.entityName],
              let position = owner.propertyIndexByName[relationship.name],
              position < state.slots.count, case .toMany(let ids?) = state.slots[position] else { return nil }
        return ids
    }
}
