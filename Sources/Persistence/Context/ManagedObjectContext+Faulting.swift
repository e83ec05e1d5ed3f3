extension ManagedObjectContext {
    /// Fills a fault without a row by reading its row; a missing row makes it inaccessible.
    func fulfillFault(_ object: ManagedObject) {
        guard let pk = object.objectID.primaryKey, let coordinator = persistentStoreCoordinator else {
            object.markInaccessible()
            return
        }
        let row = try? coordinator.withStore { try $0.row(of: object.entity, primaryKey: pk) }
        if let row {
            object.adopt(row, asFault: false)
        } else {
            object.markInaccessible()
        }
    }

    /// The objects of to-many `relationship` of `object`, as the store holds them.
    func loadToMany(_ relationship: RelationshipDescription, of object: ManagedObject) -> RelatedObjects {
        guard let pk = object.objectID.primaryKey, let coordinator = persistentStoreCoordinator else { return RelatedObjects() }
        let keys = (try? coordinator.withStore { try $0.relatedKeys(relationship, of: object.entity, primaryKey: pk) }) ?? []
        let destination = relationship.destinationEntity!
        return RelatedObjects(keys.map { self.object(forPrimaryKey: $0, entity: destination) })
    }

    /// The registered object (or a new fault) for row `primaryKey` of `entity`.
    func object(forPrimaryKey primaryKey: Int64, entity: EntityDescription) -> ManagedObject {
        object(with: .permanent(entityName: entity.name, storeIdentifier: persistentStoreCoordinator?.storeIdentifier ?? "", primaryKey: primaryKey))
    }

    /// Objects for fetched rows: registered ones are reused (one object per ID per context) and a fault without
    /// values takes the row; new ones are made as faults holding the row, or fired when `asFaults` is false.
    func objects(for rows: [StoreRow], entity: EntityDescription, storeIdentifier: String, asFaults: Bool) -> [ManagedObject] {
        var result: [ManagedObject] = []
        result.reserveCapacity(rows.count)
        let type = entity.managedObjectClass
        for row in rows {
            let id = ManagedObjectID.permanent(entityName: entity.name, storeIdentifier: storeIdentifier, primaryKey: row.primaryKey)
            if let object = registry[id] {
                if object.faultState == .faultWithoutRow && !object.isInaccessible { object.adopt(row, asFault: asFaults) }
                result.append(object)
                continue
            }
            let object = type.init(fetchedEntity: entity, objectID: id, context: self)
            object.adopt(row, asFault: asFaults)
            registry[id] = object
            result.append(object)
        }
        return result
    }
}
