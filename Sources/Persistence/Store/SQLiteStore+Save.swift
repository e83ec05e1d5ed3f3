import Foundation

/// A context's save, executed by the store: the context hands over a ``StoreSaveRequest`` of plain values and gets
/// a ``StoreSaveOutcome`` back — or an error, with nothing written. The data flows one way: the store reads no
/// object of a context and calls nothing back.
extension SQLiteStore {
    /// Writes one save in one transaction. First it looks for conflicts (rows changed or deleted since the context
    /// read them, stored rows that new rows clash with): if there are any, nothing is written and they come back for
    /// the merge policy to settle; the context then hands over a new request, checked again the same way. Otherwise
    /// new rows get their keys and every row is written. Detection and writing share the transaction, which holds
    /// SQLite's write lock, so the store cannot change between them. Any failure rolls the transaction back.
    func execute(_ request: StoreSaveRequest) throws -> StoreSaveOutcome {
        try beginWrite()
        do {
            let versions = try versionConflicts(in: request)
            let clashes = try constraintClashes(in: request)
            if !versions.isEmpty || !clashes.isEmpty {
                rollbackWrite()
                return .conflicts(versions: versions, clashes: clashes)
            }
            var keys = request.newRowKeys
            var freshKeys: [(root: EntityDescription, keys: ClosedRange<Int64>)] = []
            let counts = try allocateKeys(for: request.inserts, into: &keys, fresh: &freshKeys)

            for deletes in request.deletes {
                let table = schema[deletes.entity]
                for (offset, primaryKey) in deletes.primaryKeys.enumerated() {
                    _ = try deleteRow(table, primaryKey: primaryKey, expectedVersion: deletes.expectedVersion(at: offset))
                }
            }
            try insertRows(request.inserts, item: StoreSaveRequest.Item.insert, keys: keys)
            try insertRows(request.reinserts, item: StoreSaveRequest.Item.reinsert, keys: keys)
            if recordsHistory { try recordInsertions(of: request, keys: keys, fresh: freshKeys) }
            try updateRows(request.takeovers, item: StoreSaveRequest.Item.takeover, keys: keys)
            try updateRows(request.updates, item: StoreSaveRequest.Item.update, keys: keys)
            for write in request.toManyWrites { try writeToMany(write, keys: keys) }
            try commitWrite()
            return .written(.init(newRowKeys: keys, allocatedKeyCounts: counts))
        } catch {
            rollbackWrite()
            throw error
        }
    }

    /// Rows being updated or deleted whose version is no longer the one the request expects, with the rows as
    /// stored now. Entities are checked in the order they first appear, updates before deletions. (The lists are
    /// walked once per entity rather than grouped first: a save may delete a hundred thousand rows.)
    func versionConflicts(in request: StoreSaveRequest) throws -> [StoreSaveOutcome.VersionConflict] {
        var entities: [EntityDescription] = []
        func note(_ entity: EntityDescription) {
            if entities.last !== entity && !entities.contains(where: { $0 === entity }) { entities.append(entity) }
        }
        for update in request.updates { note(update.entity) }
        for deletes in request.deletes { note(deletes.entity) }
        var found: [StoreSaveOutcome.VersionConflict] = []
        for entity in entities {
            var keys: [Int64] = []
            for update in request.updates where update.entity === entity { keys.append(update.primaryKey) }
            for deletes in request.deletes where deletes.entity === entity { keys += deletes.primaryKeys }
            let current = try versions(of: entity, primaryKeys: keys)
            func check(_ item: StoreSaveRequest.Item, key: Int64, expected: Int64) throws {
                let version = current[key] ?? 0
                guard version != expected else { return }
                found.append(.init(item: item, version: version, row: try row(of: entity, primaryKey: key, isFault: false)))
            }
            for (place, update) in request.updates.enumerated() where update.entity === entity {
                try check(.update(place), key: update.primaryKey, expected: update.expectedVersion ?? 0)
            }
            var place = 0
            for deletes in request.deletes {
                defer { place += deletes.primaryKeys.count }
                guard deletes.entity === entity else { continue }
                for (offset, primaryKey) in deletes.primaryKeys.enumerated() {
                    try check(.delete(place + offset), key: primaryKey, expected: deletes.expectedVersion(at: offset))
                }
            }
        }
        return found
    }

    /// New rows that clash with a stored row on a uniqueness constraint (the first such constraint of each).
    func constraintClashes(in request: StoreSaveRequest) throws -> [StoreSaveOutcome.ConstraintClash] {
        var found: [StoreSaveOutcome.ConstraintClash] = []
        for probe in request.probes {
            let entity = probe.entity
            let table = schema[entity]
            for (number, constraint) in entity.uniquenessConstraintKeys.enumerated() {
                guard let values = probe.values[number] else { continue }
                guard let stored = try rowsMatching(schema[entity.constraintOwner(number)],
                                                    columns: constraint.map { table.column(forKey: $0)! },
                                                    values: values, excluding: nil).first else { continue }
                let version = try versions(of: stored.entity, primaryKeys: [stored.primaryKey])[stored.primaryKey] ?? 1
                found.append(.init(insert: probe.insert, constraint: number, stored: stored, version: version))
                break
            }
        }
        return found
    }

    /// The IDs of stored rows other than `excluding` that hold `values` for uniqueness constraint `number` of
    /// `entity` (for the report of a clash SQLite refused).
    func objectIDsClashing(with entity: EntityDescription, constraint number: Int, values: [SQLiteValue],
                           excluding: Int64?) throws -> [ManagedObjectID] {
        let table = schema[entity]
        let constraint = entity.uniquenessConstraintKeys[number]
        return try rowsMatching(schema[entity.constraintOwner(number)], columns: constraint.map { table.column(forKey: $0)! },
                                values: values, excluding: excluding)
            .map { objectID(of: $0.entity, primaryKey: $0.primaryKey) }
    }

    /// Gives each new row without a key its key (in `keys`, by number); returns how many, by entity index. When the
    /// write is recorded in history, `fresh` gets the range of keys given in each table.
    private func allocateKeys(for inserts: [StoreSaveRequest.Insert], into keys: inout [Int64],
                              fresh: inout [(root: EntityDescription, keys: ClosedRange<Int64>)]) throws -> [Int] {
        var counts = Array(repeating: 0, count: model.entities.count)
        for insert in inserts where insert.key == 0 { counts[insert.entity.index] += Int(insert.count) }
        // Keys are counted per root: the entities of a hierarchy draw from one range.
        var rootCounts = Array(repeating: 0, count: counts.count)
        for (index, count) in counts.enumerated() where count > 0 {
            rootCounts[model.entities[index].rootEntity.index] += count
        }
        var next = Array(repeating: Int64(0), count: counts.count)
        for (index, count) in rootCounts.enumerated() where count > 0 {
            next[index] = try allocatePrimaryKeys(for: model.entities[index], count: count)
            if recordsHistory { fresh.append((model.entities[index], next[index]...(next[index] + Int64(count) - 1))) }
        }
        // The rows are in the order of the context's list, so the last one's number sizes the keys at once.
        if let last = inserts.last, Int(last.number + last.count) > keys.count {
            keys.append(contentsOf: repeatElement(0, count: Int(last.number + last.count) - keys.count))
        }
        for insert in inserts where insert.key == 0 && insert.number >= 0 {
            let entity = insert.entity
            let root = entity.superentity == nil ? entity.index : entity.rootEntity.index
            for offset in 0..<Int(insert.count) {
                keys[Int(insert.number) + offset] = next[root]
                next[root] += 1
            }
        }
        return counts
    }

    /// Records the save's new rows in history: the fresh keys of each table in one statement, the rows that came
    /// with a key of their own (reserved earlier, or written again under their old key) one by one.
    private func recordInsertions(of request: StoreSaveRequest, keys: [Int64],
                                  fresh: [(root: EntityDescription, keys: ClosedRange<Int64>)]) throws {
        for (root, range) in fresh { try recordInsertions(in: schema[root], keys: range) }
        for insert in request.inserts where insert.key != 0 {
            for offset in 0..<Int(insert.count) {
                if let key = insert.row(offset).resolved(in: keys) { try recordInsertion(of: insert.entity, primaryKey: key) }
            }
        }
        for insert in request.reinserts {
            if let key = insert.row(0).resolved(in: keys) { try recordInsertion(of: insert.entity, primaryKey: key) }
        }
    }

    /// Inserts the rows of `inserts`; the table is looked up once per run. `item` names a row by its place.
    private func insertRows(_ inserts: [StoreSaveRequest.Insert], item: (Int) -> StoreSaveRequest.Item,
                            keys: [Int64]) throws {
        var place = 0
        for insert in inserts {
            let table = schema[insert.entity]
            switch insert.values {
            case .packed(let block):
                let kinds = insert.entity.kinds
                try block._withUnsafeGuaranteedRef { block in
                    for offset in 0..<Int(insert.count) {
                        let row = Int(insert.packedRow) + offset
                        let primaryKey = insert.row(offset).resolved(in: keys)!
                        try writingRow(item(place), primaryKey: primaryKey) {
                            try insertRow(table, primaryKey: primaryKey, packed: PackedRow(block: block, row: row)) { index in
                                // The columns whose cells are not bound directly: data, UUIDs, URLs, decimals.
                                guard case .attribute(let type) = kinds[index] else { return .null }
                                return type.sqliteValue(block.value(row: row, at: index))
                            }
                        }
                        place += 1
                    }
                }
            case .values(let values):
                let primaryKey = insert.row(0).resolved(in: keys)!
                try writingRow(item(place), primaryKey: primaryKey) {
                    try insertRow(table, primaryKey: primaryKey) { Self.sqliteValue(values[$0], keys: keys) }
                }
                place += 1
            }
        }
    }

    private func updateRows(_ updates: [StoreSaveRequest.Update], item: (Int) -> StoreSaveRequest.Item,
                            keys: [Int64]) throws {
        for (place, update) in updates.enumerated() {
            let table = schema[update.entity]
            let changes = update.changes.compactMap { change -> (column: String, value: SQLiteValue)? in
                guard let column = table.columns[change.index] else { return nil }
                return (column, Self.sqliteValue(change.value, keys: keys))
            }
            try writingRow(item(place), primaryKey: update.primaryKey) {
                _ = try updateRow(table, primaryKey: update.primaryKey, expectedVersion: update.expectedVersion, changes: changes)
            }
            // The trigger sees the row's columns; the to-many lists the save changed have none (see StoreHistorySchema).
            if recordsHistory, changes.count < update.changes.count {
                try recordToManyChanges(of: update.entity, primaryKey: update.primaryKey,
                                        properties: update.changes.lazy.filter { table.columns[$0.index] == nil }.map(\.index))
            }
        }
    }

    @inline(__always)
    private static func sqliteValue(_ value: StoreSaveRequest.ColumnValue, keys: [Int64]) -> SQLiteValue {
        switch value {
        case .value(let value): return value
        case .reference(let row): return row.resolved(in: keys).map(SQLiteValue.integer) ?? .null
        }
    }

    /// Runs one row write; a uniqueness violation becomes a ``StoreRowWriteFailure`` naming the row.
    @inline(__always)
    private func writingRow(_ item: StoreSaveRequest.Item, primaryKey: Int64?, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SQLiteError where error.isConstraintViolation {
            throw StoreRowWriteFailure(item: item, primaryKey: primaryKey, error: error)
        }
    }

    /// Ordered children get their positions; join tables get the owner's current list.
    private func writeToMany(_ write: StoreSaveRequest.ToManyWrite, keys: [Int64]) throws {
        let entity = write.entity
        guard let relationship = entity.relationshipAt[write.index], let pk = write.owner.resolved(in: keys) else { return }
        let table = schema[entity]
        if let join = table.joinTables[write.index] {
            var otherPositions: [Int64: Int] = [:]
            for other in write.otherPositions {
                guard let memberKey = other.member.resolved(in: keys) else { continue }
                otherPositions[memberKey] = other.position
            }
            try replaceJoinRows(join, primaryKey: pk, targets: write.members.compactMap { $0.resolved(in: keys) },
                                ordered: relationship.isOrdered, otherPositions: otherPositions)
        } else if relationship.isOrdered, let inverse = relationship.inverseRelationship {
            let childTable = schema[relationship.destinationEntity]
            let inverseIndex = relationship.destinationEntity.propertyIndexByName[inverse.name]!
            guard let orderColumn = childTable.orderColumns[inverseIndex] else { return }
            for (position, member) in write.members.enumerated() {
                guard let memberKey = member.resolved(in: keys) else { continue }
                try setOrder(orderColumn, of: childTable, primaryKey: memberKey, position: position)
            }
        }
    }
}
