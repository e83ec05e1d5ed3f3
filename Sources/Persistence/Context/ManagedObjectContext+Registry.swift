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

    func unregister(_ object: ManagedObject) {
        registry.remove(object.objectID, entityIndex: entityIndex(of: object))
    }

    /// Detaches every object still held elsewhere (on reset, and when the context goes away): emptying them
    /// breaks reference cycles between related objects and leaves no object pointing at a context that is gone.
    /// Every object the context knows is in the registry (inserted ones under their temporary IDs).
    func invalidateAll() {
        registry.forEachSharedObject { $0.invalidate() }
    }
}
