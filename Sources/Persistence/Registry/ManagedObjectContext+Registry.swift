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

    func registeredObject(forID id: ManagedObjectID) -> ManagedObject? {
        syncStoreIdentifier()
        return registry.object(for: id, entityIndex: entityIndex(of: id))
    }

    func register(_ object: ManagedObject) {
        if !object.objectID.isTemporaryID { syncStoreIdentifier() }
        registry.insert(object, for: object.objectID, entityIndex: entityIndex(of: object))
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
