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

    /// Fills, in one query per entity and 500 keys, the faults among `objects` that have no row yet — for work
    /// that is about to fire them all (a child's deletions arriving in its parent). Only a context over the store
    /// reads rows this way; in a child each fault reads through its parent. Rows that are gone leave their objects
    /// faults, which report it when they fire.
    func fillFaults(_ objects: [ManagedObject]) {
        guard parent == nil, persistentStoreCoordinator != nil else { return }
        var byEntity: [ObjectIdentifier: [ManagedObject]] = [:]
        for object in objects where object.faultState == .faultWithoutRow && !object.objectID.isTemporaryID {
            byEntity[ObjectIdentifier(object.entity), default: []].append(object)
        }
        for group in byEntity.values {
            let entity = group[0].entity
            guard let rows = try? withReadStore({ try $0.rows(of: entity, primaryKeys: group.compactMap(\.objectID.primaryKey)) }) else { continue }
            for row in rows {
                guard let object = registry.object(entityIndex: entity.index, primaryKey: row.primaryKey),
                      object.faultState == .faultWithoutRow else { continue }
                object.adopt(row, asFault: true)
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
        return RelatedObjects(keys.map { self.object(forPrimaryKey: $0.primaryKey, exactEntity: $0.entity) })
    }

    /// The registered object (or a new fault) for row `primaryKey` of `entity` or, when `entity` has subentities,
    /// of whichever of them the row belongs to (asked of the store when no object of the row is registered).
    func object(forPrimaryKey primaryKey: Int64, entity: EntityDescription) -> ManagedObject {
        guard entity.hasSubentities else { return object(forPrimaryKey: primaryKey, exactEntity: entity) }
        for member in entity.family {
            if let object = registry.heldObject(entityIndex: member.index, primaryKey: primaryKey,
                                                keepingAll: retainsRegisteredObjects) { return object }
        }
        let found = try? withReadStore { try $0.entities(of: entity, primaryKeys: [primaryKey])[primaryKey] }
        // A row that is gone leaves a fault of `entity` itself, which reports the row missing when touched.
        return object(forPrimaryKey: primaryKey, exactEntity: (found ?? nil) ?? entity)
    }

    /// The registered object (or a new fault) for row `primaryKey`, known to be of `entity` itself.
    func object(forPrimaryKey primaryKey: Int64, exactEntity entity: EntityDescription) -> ManagedObject {
        if let object = registry.heldObject(entityIndex: entity.index, primaryKey: primaryKey,
                                            keepingAll: retainsRegisteredObjects) { return object }
        return object(with: permanentID(of: entity, primaryKey: primaryKey))
    }

    /// The permanent ID of row `primaryKey` of `entity` in this context's store, made by the store's maker of IDs
    /// (taken on first use) rather than looked up by name.
    func permanentID(of entity: EntityDescription, primaryKey: Int64) -> ManagedObjectID {
        if permanentIDs == nil, let ids = try? persistentStoreCoordinator?.permanentIDs() { permanentIDs = ids }
        guard let permanentIDs, permanentIDs.covers(entity) else {
            return ManagedObjectID(scope: entity.idScope(store: "", temporary: false), key: primaryKey)
        }
        return permanentIDs.id(of: entity, primaryKey: primaryKey)
    }

    /// The object for a fetched row: a registered one is reused (one object per ID per context); a new one is made
    /// as a fault holding the row, or fired when `asFault` is false. `ownStore` says the registry's store identifier
    /// is the one of `ids`' store (checked once per fetch, not per row).
    ///
    /// A registered object that is a fault takes the row when it has none yet, and — when `asFault` is false, as
    /// Core Data's `returnsObjectsAsFaults = false` promises objects "pre-populated with their property values" —
    /// also when it holds an older one: it comes back filled (`awakeFromFetch()` runs). A filled object keeps its
    /// values, unsaved changes or not: a fetch does not refresh it.
    func object(for row: StoreRow, entity: EntityDescription, ids: PermanentIDs, asFault: Bool,
                ownStore: Bool) -> ManagedObject {
        if let object = registry.heldObject(entityIndex: entity.index, primaryKey: row.primaryKey,
                                            keepingAll: retainsRegisteredObjects) {
            switch object.faultState {
            case .faultWithoutRow where !object.isInaccessible:
                object.adopt(row, asFault: asFault)
            case .faultWithRow where !asFault && !object.hasChanges:
                object.adopt(row, asFault: false)
            default:
                break
            }
            return object
        }
        let id = ids.id(of: entity, primaryKey: row.primaryKey)
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
