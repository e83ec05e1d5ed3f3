import Foundation

/// One object per ID per context: the registry, reached through these helpers.
extension ManagedObjectContext {
    /// The registry's store identifier, read from the coordinator once it has a store.
    func syncStoreIdentifier() {
        if registry.storeIdentifier.isEmpty, let identifier = persistentStoreCoordinator?.storeIdentifier {
            registry.storeIdentifier = identifier
        }
    }

    /// The index of `id`'s entity in this context's model.
    func entityIndex(of id: ManagedObjectID) -> Int? {
        model?.entitiesByName[id.entityName]?.index
    }

    /// The index of `object`'s entity, when the entity belongs to this context's model.
    func entityIndex(of object: ManagedObject) -> Int? {
        guard let model, object.entity.managedObjectModel === model else { return nil }
        return object.entity.index
    }

    /// The object registered for `id`, when something besides the registry holds it: one only the registry holds
    /// is let go of first (unless ``retainsRegisteredObjects``), as Core Data would have freed it.
    func registeredObject(forID id: ManagedObjectID) -> ManagedObject? {
        syncStoreIdentifier()
        let index = entityIndex(of: id)
        if !retainsRegisteredObjects, letGoIfUnreferenced(id, entityIndex: index) { return nil }
        return registry.object(for: id, entityIndex: index)
    }

    func register(_ object: ManagedObject) {
        if !object.objectID.isTemporaryID { syncStoreIdentifier() }
        registry.insert(object, for: object.objectID, entityIndex: entityIndex(of: object))
        scheduleMainQueueSweep()
    }

    // MARK: - Letting go of objects nobody holds

    /// Lets go of the object registered for `id` when only the registry holds it — and then of every object that
    /// this leaves held by the registry alone. `true` when the object for `id` went.
    @discardableResult
    func letGoIfUnreferenced(_ id: ManagedObjectID, entityIndex: Int?) -> Bool {
        var pending: [ManagedObjectID] = []
        do {
            guard let object = registry.removeIfUnreferenced(id, entityIndex: entityIndex) else { return false }
            collectHeldIDs(of: object, into: &pending)
        }
        letGo(&pending)
        return true
    }

    /// Lets go of every registered object that nothing outside the registry holds, to a fixed point (an object
    /// let go of may have been the last holder of another). With `recentOnly`, only the objects registered since
    /// the last sweep are looked at — and whatever letting go of them frees. Returns the places looked at.
    @discardableResult
    func dropUnreferencedObjects(recentOnly: Bool) -> Int {
        guard !retainsRegisteredObjects else { return 0 }
        var pending: [ManagedObjectID] = []
        let visited = registry.dropUnreferenced(recentOnly: recentOnly) { collectHeldIDs(of: $0, into: &pending) }
        letGo(&pending)
        return visited
    }

    /// At a drain point the objects registered since the last sweep that nobody holds are let go of. Drain points:
    /// the end of a `perform` block (where Core Data's autorelease pool drains), the end of a main-queue event,
    /// ``processPendingChanges()``, and the start of a `performAndWait` block — Apple gives that one no pool of its
    /// own, so what one block registered goes no later than the next block. The older objects are looked at in a
    /// full sweep once the sweeps since the last one have looked at as many places as the registry holds objects,
    /// so the cost stays proportional to the work.
    func sweepAtDrainPoint() {
        guard !retainsRegisteredObjects else { return }
        sweepCredit += dropUnreferencedObjects(recentOnly: true) + Self.sweepCreditPerBlock
        if sweepCredit >= registry.count {
            dropUnreferencedObjects(recentOnly: false)
            sweepCredit = 0
        }
    }

    /// What each drain point adds towards the next full sweep, besides the places its own sweep looked at.
    static let sweepCreditPerBlock = 64

    /// A main-queue context used straight from the main thread has no block to end: its sweep runs as the next
    /// main-queue event, as Core Data's does at the end of the current one.
    func scheduleMainQueueSweep() {
        guard concurrencyType == .mainQueueConcurrencyType, !retainsRegisteredObjects, !mainQueueSweepScheduled else {
            return
        }
        mainQueueSweepScheduled = true
        DispatchQueue.main.async { [weak self] in
            guard let self else { return }
            self.mainQueueSweepScheduled = false
            self.sweepAtDrainPoint()
        }
    }

    /// Adds the IDs of the objects of this context that `object` holds.
    private func collectHeldIDs(of object: ManagedObject, into ids: inout [ManagedObjectID]) {
        object.forEachHeldObject { held in
            if held.managedObjectContext === self { ids.append(held.objectID) }
        }
    }

    /// Lets go of the objects for `pending` that only the registry holds, and in turn of those they held.
    private func letGo(_ pending: inout [ManagedObjectID]) {
        while let id = pending.popLast() {
            guard let object = registry.removeIfUnreferenced(id, entityIndex: entityIndex(of: id)) else { continue }
            collectHeldIDs(of: object, into: &pending)
        }
    }

    /// Takes `object` out of the registry, to register it again under another ID (or to detach it by hand).
    func unregister(_ object: ManagedObject) {
        registry.remove(object.objectID, entityIndex: entityIndex(of: object))
    }

    /// Takes `object` out of this context for good: out of the registry, its values and change lists emptied and
    /// its context cleared, so nothing keeps reading or saving it (an object the context no longer knows must not
    /// point at it, since the context cannot reach it on reset or deinit to cut it loose).
    func evict(_ object: ManagedObject) {
        unregister(object)
        object.invalidate()
    }

    /// Detaches every object still held elsewhere (on reset, and when the context goes away): emptying them
    /// breaks reference cycles between related objects and leaves no object pointing at a context that is gone.
    /// Every object the context knows is in the registry (inserted ones under their temporary IDs).
    func invalidateAll() {
        registry.forEachSharedObject { $0.invalidate() }
    }
}
