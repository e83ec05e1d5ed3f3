import Foundation

/// A context's save, executed by the store: the context hands over a validated ``SavePlan`` and a
/// ``ConflictResolver`` and gets the plan back resolved and written — or an error, with nothing written. The data
/// flows one way: nothing here calls back into the context.
extension SQLiteStore {
    /// Writes one save in one transaction. Inside it the resolver settles version and constraint conflicts in
    /// `plan` (the write lock is held, so the store cannot change between resolving and writing); then inserted
    /// objects get their new keys (kept in the plan) and every row is written. Any failure rolls the transaction
    /// back and puts back what resolution changed, so the store and the objects are exactly as before.
    func execute(_ plan: inout SavePlan, resolver: ConflictResolver) throws {
        try beginWrite()
        do {
            try resolver.resolveVersionConflicts(in: &plan, store: self)
            try resolver.resolveConstraintConflicts(in: &plan, store: self)
            try allocateKeys(for: &plan)
            // Dropped objects are never written: whatever points at them is written as pointing at nothing.
            for object in plan.dropped { plan.setSavingPrimaryKey(0, of: object) }
            let savingKeys = plan.savingKeys
            func key(of object: ManagedObject) -> Int64? {
                let saving = SavePlan.savingPrimaryKey(of: object, in: savingKeys)
                return saving != 0 ? saving : object.objectID.primaryKey
            }

            for object in plan.deleted {
                guard let pk = object.objectID.primaryKey else { continue }
                _ = try deleteRow(schema[object.entity], primaryKey: pk, expectedVersion: object.version)
            }
            try insertRows(of: plan.inserted, key: key)
            try insertRows(of: plan.reinserted, key: key)
            for object in plan.takeovers {
                let table = schema[object.entity]
                let changes = table.columnProperties.map { (column: table.columns[$0]!, value: columnValue(of: object, at: $0, key: key)) }
                try writingRow(of: object, table: table, key: key) {
                    _ = try updateRow(table, primaryKey: SavePlan.savingPrimaryKey(of: object, in: savingKeys), expectedVersion: nil, changes: changes)
                }
            }
            // Transient changes alone leave the row as it is (see `changesOnlyTransientAttributes`).
            for object in plan.updated where !object.changesOnlyTransientAttributes {
                let table = schema[object.entity]
                let changes = object.changedIndexes.sorted().compactMap { index -> (column: String, value: SQLiteValue)? in
                    guard let column = table.columns[index] else { return nil }
                    return (column, columnValue(of: object, at: index, key: key))
                }
                try writingRow(of: object, table: table, key: key) {
                    _ = try updateRow(table, primaryKey: object.objectID.primaryKey!, expectedVersion: object.version, changes: changes)
                }
            }
            for objects in [plan.inserted, plan.reinserted, plan.takeovers, plan.updated] {
                for object in objects where !object.entity.toManyIndexes.isEmpty {
                    try writeToManyRelationships(of: object, key: key)
                }
            }
            try commitWrite()
        } catch {
            rollbackWrite()
            plan.removeSavingPrimaryKeys()
            plan.allocatedKeyCounts = []
            plan.restoreBackups()
            throw error
        }
    }

    /// Gives each inserted object with a temporary ID its primary key (see ``SavePlan/savingPrimaryKey(of:)``),
    /// and counts them per entity in `plan.allocatedKeyCounts`.
    private func allocateKeys(for plan: inout SavePlan) throws {
        var counts = Array(repeating: 0, count: model.entities.count)
        for object in plan.inserted where object.objectID.isTemporaryID { counts[object.entity.index] += 1 }
        // Keys are counted per root: the entities of a hierarchy draw from one range.
        var rootCounts = Array(repeating: 0, count: counts.count)
        for (index, count) in counts.enumerated() where count > 0 {
            rootCounts[model.entities[index].rootEntity.index] += count
        }
        var next = Array(repeating: Int64(0), count: counts.count)
        for (index, count) in rootCounts.enumerated() where count > 0 {
            next[index] = try allocatePrimaryKeys(for: model.entities[index], count: count)
        }
        // The objects are in the order of the context's list, so the last one's place sizes the keys at once.
        if let last = plan.inserted.last { plan.reserveSavingPrimaryKeys(through: last) }
        for object in plan.inserted where object.objectID.isTemporaryID {
            let root = object.entity.superentity == nil ? object.entity.index : object.entity.rootEntity.index
            plan.setSavingPrimaryKey(next[root], of: object)
            next[root] += 1
        }
        plan.allocatedKeyCounts = counts
    }

    /// Inserts the rows of `objects`; the table is looked up once per run of one entity.
    private func insertRows(of objects: [ManagedObject], key: (ManagedObject) -> Int64?) throws {
        var current: EntityTable?
        for object in objects {
            if current?.entity !== object.entity { current = schema[object.entity] }
            let table = current!
            if let packed = object.packedRow {
                try writingRow(of: object, table: table, key: key) {
                    let kinds = object.entity.kinds
                    try insertRow(table, primaryKey: key(object)!, packed: packed) { index in
                        // The columns whose cells are not bound directly: data, UUIDs, URLs, decimals.
                        guard case .attribute(let type) = kinds[index] else {
                            return columnValue(packed.slot(at: index), of: object, at: index, key: key)
                        }
                        return type.sqliteValue(packed.block.value(row: packed.row, at: index))
                    }
                }
                continue
            }
            // One read of the slots per row, not one per column.
            let slots = object.slots
            try writingRow(of: object, table: table, key: key) {
                try insertRow(table, primaryKey: key(object)!) { columnValue(slots[$0], of: object, at: $0, key: key) }
            }
        }
    }

    @inline(__always)
    private func columnValue(of object: ManagedObject, at index: Int, key: (ManagedObject) -> Int64?) -> SQLiteValue {
        columnValue(object.slots[index], of: object, at: index, key: key)
    }

    /// The column value of `slot`, the slot of property `index` of `object`.
    @inline(__always)
    private func columnValue(_ slot: PropertySlot, of object: ManagedObject, at index: Int,
                             key: (ManagedObject) -> Int64?) -> SQLiteValue {
        switch slot {
        case .value(.integer(let value)):
            return .integer(value)
        case .value(let value):
            guard case .attribute(let type) = object.entity.kinds[index] else { return .null }
            return type.sqliteValue(value)
        case .toOne(let related?):
            return key(related).map(SQLiteValue.integer) ?? .null
        case .toOneKey(let pk):
            return .integer(pk)
        case .toOne(nil), .toMany:
            return .null
        }
    }

    /// Runs one row write; a uniqueness violation becomes Core Data's constraint conflict (133021).
    private func writingRow(of object: ManagedObject, table: EntityTable,
                            key: (ManagedObject) -> Int64?, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SQLiteError where error.isConstraintViolation {
            let entity = object.entity
            var conflicts: [MergeConflict] = []
            for (number, constraint) in entity.uniquenessConstraints.enumerated() {
                let values = constraint.map { object.attributeValue(at: entity.propertyIndexByName[$0]!) }
                let stored = zip(constraint, values).map { entity.attributesByName[$0]!.attributeType.sqliteValue($1) }
                let clashing = try rowsMatching(schema[entity.constraintOwner(number)], columns: constraint.map { table.column(forKey: $0)! },
                                                values: stored, excluding: key(object))
                guard !clashing.isEmpty else { continue }
                conflicts.append(MergeConflict(
                    sourceObject: object, objectID: object.objectID, oldVersion: object.version, newVersion: 0,
                    objectSnapshot: MergeConflict.attributeSnapshot(object.slots, entity: entity), cachedSnapshot: [:],
                    persistedSnapshot: [:], constraint: constraint,
                    conflictingObjectIDs: clashing.map { objectID(of: $0.entity, primaryKey: $0.primaryKey) }))
            }
            let described = conflicts.first.map { "(\($0.constraint.joined(separator: ", ")))" } ?? "a uniqueness constraint"
            throw PersistenceError(.managedObjectConstraintMerge,
                                   "\(entity.name) \(object.objectID) clashes with a stored object on \(described), which must be unique.",
                                   object: object, conflicts: conflicts, sql: error.sql, sqliteCode: error.code)
        }
    }

    /// Ordered children get their positions; join tables get this object's current list.
    private func writeToManyRelationships(of object: ManagedObject, key: (ManagedObject) -> Int64?) throws {
        let entity = object.entity
        guard !entity.toManyIndexes.isEmpty else { return }
        let table = schema[entity]
        for index in entity.toManyIndexes {
            guard let relationship = entity.relationshipAt[index] else { continue }
            guard object.insertedFlag || object.changedIndexes.contains(index) else { continue }
            // A takeover's lists are read again from the row after the save; its own are written only if it set them.
            guard case .toMany(let related?) = object.slot(at: index), let pk = key(object) else { continue }
            let members = related.objects.filter { !$0.deletedFlag }
            if let join = table.joinTables[index] {
                var otherPositions: [Int64: Int] = [:]
                if let inverse = relationship.inverseRelationship, inverse.isOrdered,
                   let inverseIndex = relationship.destinationEntity.propertyIndexByName[inverse.name] {
                    for member in members {
                        guard case .toMany(let theirs?) = member.slots[inverseIndex], let memberKey = key(member),
                              let position = theirs.objects.firstIndex(where: { $0 === object }) else { continue }
                        otherPositions[memberKey] = position
                    }
                }
                try replaceJoinRows(join, primaryKey: pk, targets: members.compactMap(key),
                                          ordered: relationship.isOrdered, otherPositions: otherPositions)
            } else if relationship.isOrdered, let inverse = relationship.inverseRelationship {
                let childTable = schema[relationship.destinationEntity]
                let inverseIndex = relationship.destinationEntity.propertyIndexByName[inverse.name]!
                guard let orderColumn = childTable.orderColumns[inverseIndex] else { continue }
                for (position, member) in members.enumerated() {
                    guard let memberKey = key(member) else { continue }
                    try setOrder(orderColumn, of: childTable, primaryKey: memberKey, position: position)
                }
            }
        }
    }
}
