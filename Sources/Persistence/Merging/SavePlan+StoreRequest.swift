/// The plan in the store's terms: plain values read from the objects, and the way back from the store's answer
/// (which names rows by list and place) to the objects.
extension SavePlan {
    /// The request the store writes. `probingConstraints` asks the store to look up new rows' uniqueness
    /// constraints among the stored rows first (a policy other than ``MergePolicy/error`` settles those clashes).
    func storeRequest(probingConstraints: Bool) -> StoreSaveRequest {
        var request = StoreSaveRequest()
        request.newRowKeys = savingKeys
        for object in inserted {
            let insert = Self.insert(of: object)
            if let last = request.inserts.last, last.isFollowed(by: insert) {
                request.inserts[request.inserts.count - 1].count += 1
            } else {
                request.inserts.append(insert)
            }
        }
        request.reinserts = reinserted.map(Self.insert(of:))
        request.takeovers = takeovers.map { object in
            let changes = object.entity.properties.indices.map { ($0, Self.columnValue(of: object, at: $0)) }
            return StoreSaveRequest.Update(entity: object.entity, primaryKey: savingPrimaryKey(of: object),
                                           expectedVersion: nil, changes: changes)
        }
        // (Filtered as they are read, not through `writtenUpdates` and `writtenDeletes`: a save may delete a
        // hundred thousand objects, and a filtered copy of the list would be memory for nothing.)
        for object in updated where !object.changesOnlyTransientAttributes {
            let changes = object.changedIndexes.sorted().map { ($0, Self.columnValue(of: object, at: $0)) }
            request.updates.append(.init(entity: object.entity, primaryKey: object.objectID.primaryKey!,
                                         expectedVersion: object.version, changes: changes))
        }
        for object in deleted {
            guard let primaryKey = object.objectID.primaryKey else { continue }
            if let last = request.deletes.last, last.entity === object.entity {
                request.deletes[request.deletes.count - 1].append(primaryKey: primaryKey, version: object.version)
            } else {
                request.deletes.append(.init(entity: object.entity, primaryKey: primaryKey, version: object.version))
            }
        }
        for objects in [inserted, reinserted, takeovers, updated] {
            for object in objects where !object.entity.toManyIndexes.isEmpty {
                Self.appendToManyWrites(of: object, to: &request.toManyWrites)
            }
        }
        if probingConstraints {
            for (place, object) in inserted.enumerated() where !object.entity.uniquenessConstraintKeys.isEmpty {
                let values = object.entity.uniquenessConstraintKeys.indices.map { number -> [SQLiteValue]? in
                    let values = object.constraintValues(number)
                    return values.hasNil ? nil : values.stored
                }
                request.probes.append(.init(insert: place, entity: object.entity, values: values))
            }
        }
        return request
    }

    /// The updated objects whose rows are written: transient changes alone leave the row as it is (see
    /// `changesOnlyTransientAttributes`), so they have nothing to write or to check.
    var writtenUpdates: [ManagedObject] { updated.filter { !$0.changesOnlyTransientAttributes } }

    /// The deleted objects with rows (a new object deleted again was never written).
    var writtenDeletes: [ManagedObject] { deleted.filter { !$0.objectID.isTemporaryID } }

    /// The object a row of ``storeRequest(probingConstraints:)`` was made from.
    func object(for item: StoreSaveRequest.Item) -> ManagedObject {
        objects(for: [item])[0]
    }

    /// The objects the rows `items` of ``storeRequest(probingConstraints:)`` were made from, in order. The written
    /// updates and deletes are filtered once for all the items, not once each.
    func objects(for items: [StoreSaveRequest.Item]) -> [ManagedObject] {
        lazy var updates = writtenUpdates
        lazy var deletes = writtenDeletes
        return items.map { item in
            switch item {
            case .insert(let place): inserted[place]
            case .reinsert(let place): reinserted[place]
            case .takeover(let place): takeovers[place]
            case .update(let place): updates[place]
            case .delete(let place): deletes[place]
            }
        }
    }

    /// How the store refers to `object`'s row: by its place among the new rows, else by its own key.
    @inline(__always)
    static func reference(to object: ManagedObject) -> StoreSaveRequest.RowReference {
        .init(number: object.insertedPosition, key: object.objectID.primaryKey ?? 0)
    }

    /// A new row: straight from the object's packed row while it has one (the store binds its cells), else a
    /// value per property.
    @inline(__always)
    private static func insert(of object: ManagedObject) -> StoreSaveRequest.Insert {
        if let block = object.packedBlock {
            return .init(entity: object.entity, row: reference(to: object), packedRow: Int(object.packedRowIndex),
                         values: .packed(block))
        }
        // One read of the slots per row, not one per column.
        let slots = object.slots
        let entity = object.entity
        return .init(entity: entity, row: reference(to: object),
                     values: .values(slots.indices.map { columnValue(slots[$0], entity: entity, at: $0) }))
    }

    @inline(__always)
    private static func columnValue(of object: ManagedObject, at index: Int) -> StoreSaveRequest.ColumnValue {
        columnValue(object.slots[index], entity: object.entity, at: index)
    }

    /// The column value of `slot`, the slot of property `index`: a related object is referred to by its row.
    @inline(__always)
    private static func columnValue(_ slot: PropertySlot, entity: EntityDescription, at index: Int) -> StoreSaveRequest.ColumnValue {
        switch slot {
        case .value(.integer(let value)):
            return .value(.integer(value))
        case .value(let value):
            guard case .attribute(let type) = entity.kinds[index] else { return .value(.null) }
            return .value(type.sqliteValue(value))
        case .toOne(let related?):
            return .reference(reference(to: related))
        case .toOneKey(let pk):
            return .value(.integer(pk))
        case .toOne(nil), .toMany:
            return .value(.null)
        }
    }

    /// The to-many lists of `object` to write: each loaded list it changed (every loaded one of a new object). A
    /// takeover's lists are read again from the row after the save; its own are written only if it set them.
    private static func appendToManyWrites(of object: ManagedObject, to writes: inout [StoreSaveRequest.ToManyWrite]) {
        let entity = object.entity
        for index in entity.toManyIndexes {
            guard let relationship = entity.relationshipAt[index] else { continue }
            guard object.insertedFlag || object.changedIndexes.contains(index) else { continue }
            guard case .toMany(let related?) = object.slot(at: index) else { continue }
            let members = related.objects.filter { !$0.deletedFlag }
            var otherPositions: [(member: StoreSaveRequest.RowReference, position: Int)] = []
            if let inverse = relationship.inverseRelationship, inverse.isOrdered,
               let inverseIndex = relationship.destinationEntity.propertyIndexByName[inverse.name] {
                for member in members {
                    guard case .toMany(let theirs?) = member.slots[inverseIndex],
                          let position = theirs.objects.firstIndex(where: { $0 === object }) else { continue }
                    otherPositions.append((reference(to: member), position))
                }
            }
            writes.append(.init(entity: entity, index: index, owner: reference(to: object),
                                members: members.map(reference(to:)), otherPositions: otherPositions))
        }
    }
}

extension ManagedObject {
    /// The values of uniqueness constraint `number` of the object's entity as the store keeps them, and whether any
    /// is nil (as in SQL, a nil never clashes).
    func constraintValues(_ number: Int) -> (stored: [SQLiteValue], hasNil: Bool) {
        let constraint = entity.uniquenessConstraintKeys[number]
        let values = constraint.map { attributeValue(at: entity.propertyIndexByName[$0]!) }
        let stored = zip(constraint, values).map { entity.attributesByName[$0]!.attributeType.sqliteValue($1) }
        return (stored, values.contains(where: \.isNull))
    }
}
