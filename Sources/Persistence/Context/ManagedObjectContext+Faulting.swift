extension ManagedObjectContext {
    /// Fills a fault without a row by reading its row; a missing row makes it inaccessible.
    func fulfillFault(_ object: ManagedObject) {
        if let state = parentState(of: object.objectID) {
            if state.isDeleted {
                object.markInaccessible()
            } else {
                object.slots = state.slots.map { $0.slot(in: self) }
                object.committedSlots = nil
                object.changedIndexes = []
                object.version = state.version
                object.faultState = .fired
                object.awakeFromFetch()
            }
            return
        }
        guard let pk = object.objectID.primaryKey, persistentStoreCoordinator != nil else {
            object.markInaccessible()
            return
        }
        let row = try? withReadStore { try $0.row(of: object.entity, primaryKey: pk) }
        if let row {
            object.adopt(row, asFault: false)
        } else {
            object.markInaccessible()
            if !shouldDeleteInaccessibleFaults {
                // Core Data raises here; a property getter cannot throw, so the next save reports it.
                recordMisuse(PersistenceError(.managedObjectReferentialIntegrity,
                                              "CoreData could not fulfill a fault for \(object.objectID): its row is gone from the store (and shouldDeleteInaccessibleFaults is false).",
                                              object: object))
            }
        }
    }

    /// The objects of to-many `relationship` of `object`, as the store holds them.
    func loadToMany(_ relationship: RelationshipDescription, of object: ManagedObject) -> RelatedObjects {
        if let ids = ancestorToMany(relationship, of: object.objectID) {
            return RelatedObjects(ids.map { self.object(with: $0) })
        }
        guard let pk = object.objectID.primaryKey, persistentStoreCoordinator != nil else { return RelatedObjects() }
        let keys = (try? withReadStore { try $0.relatedKeys(relationship, of: object.entity, primaryKey: pk) }) ?? []
        let destination = relationship.destinationEntity!
        return RelatedObjects(keys.map { self.object(forPrimaryKey: $0, entity: destination) })
    }

    /// The registered object (or a new fault) for row `primaryKey` of `entity`.
    func object(forPrimaryKey primaryKey: Int64, entity: EntityDescription) -> ManagedObject {
        if let object = registry.object(entityIndex: entity.index, primaryKey: primaryKey) { return object }
        return object(with: permanentID(of: entity, primaryKey: primaryKey))
    }

    /// The permanent ID of row `primaryKey` of `entity` in this context's store, made from the store's ID scopes
    /// (copied on first use) rather than looked up by name.
    func permanentID(of entity: EntityDescription, primaryKey: Int64) -> ManagedObjectID {
        if idScopes.isEmpty, let scopes = try? persistentStoreCoordinator?.withStore({ $0.idScopes }) { idScopes = scopes }
        guard entity.index < idScopes.count else {
            return .permanent(entityName: entity.name, storeIdentifier: "", primaryKey: primaryKey)
        }
        return ManagedObjectID(scope: idScopes[entity.index], storage: .permanent(primaryKey))
    }

    /// The object for a fetched row: a registered one is reused (one object per ID per context) and, if it is a
    /// fault without values, takes the row; a new one is made as a fault holding the row, or fired when `asFault`
    /// is false. `ownStore` says the registry's store identifier is `store`'s (checked once per fetch, not per row).
    func object(for row: StoreRow, entity: EntityDescription, in store: SQLiteStore, asFault: Bool,
                ownStore: Bool) -> ManagedObject {
        if let object = registry.object(entityIndex: entity.index, primaryKey: row.primaryKey) {
            if object.faultState == .faultWithoutRow && !object.isInaccessible { object.adopt(row, asFault: asFault) }
            return object
        }
        let id = store.objectID(of: entity, primaryKey: row.primaryKey)
        let object = entity.managedObjectClass.init(fetchedEntity: entity, objectID: id, context: self)
        object.adopt(row, asFault: asFault)
        if ownStore {
            registry.insertPermanent(object, primaryKey: row.primaryKey, entityIndex: entity.index)
        } else {
            registry.insert(object, for: id, entityIndex: entity.index)
        }
        return object
    }
}
