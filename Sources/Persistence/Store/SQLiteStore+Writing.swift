import Foundation

/// Row writes. Each runs inside ``beginWrite()`` … ``commitWrite()``; a failure anywhere leads to
/// ``rollbackWrite()``, so a save is applied whole or not at all.
extension SQLiteStore {
    func beginWrite() throws {
        try checkWritable()
        try connection.execute("BEGIN IMMEDIATE")
        do {
            try beginHistoryTransaction()
        } catch {
            rollbackWrite()
            throw error
        }
    }

    func commitWrite() throws {
        // Metadata the app set goes to disk with the next save, as in Core Data.
        if metadataChanged { try StoreMetadata.write(metadata, fingerprint: model.versionHash, to: connection) }
        try endHistoryTransaction()
        try connection.execute("COMMIT")
        commitCount &+= 1
        metadataChanged = false
    }

    func rollbackWrite() {
        abandonHistoryTransaction()
        if connection.isInTransaction { try? connection.execute("ROLLBACK") }
    }

    /// Inserts a row with version 1: `value(i)` gives the value of the i-th column (see
    /// ``EntityTable/columnProperties``); order columns start NULL and are set by ``setOrder(_:of:primaryKey:position:)``.
    @inline(__always)
    func insertRow(_ table: EntityTable, primaryKey: Int64, value: (Int) -> SQLiteValue) throws {
        let statement = try insertStatement(for: table)
        try statement.bind(primaryKey, at: 1)
        for position in table.columnProperties.indices {
            try statement.bind(value(table.columnProperties[position]), at: Int32(position + 2))
        }
        while try statement.step() {}
    }

    /// Inserts a new object's packed row with version 1, binding numbers, Booleans, dates, strings, to-one keys and
    /// nils straight from its cells (the values are already the stored forms), and every other column through
    /// `value(i)` as ``insertRow(_:primaryKey:value:)`` does. A save of many new objects binds each of their
    /// columns this way. (Inlined, like the other insert, so that `value` needs no closure context per row.)
    @inline(__always)
    func insertRow(_ table: EntityTable, primaryKey: Int64, packed: PackedRow, value: (Int) -> SQLiteValue) throws {
        let statement = try insertStatement(for: table)
        try statement.bind(primaryKey, at: 1)
        let columnProperties = table.columnProperties
        let layout = packed.block.layout
        try packed.block.withRow(packed.row) { _, bits, cells in
            try layout.cells.withUnsafeBufferPointer { layoutCells in
                let nulls = bits.pointee
                for position in columnProperties.indices {
                    let index = columnProperties[position]
                    let column = Int32(truncatingIfNeeded: position &+ 2)
                    let cell = layoutCells[index]
                    let word = (cells + Int(cell.word)).pointee
                    let isNull = nulls & (1 &<< UInt64(index)) != 0
                    switch cell.kind {
                    case .integer, .bool, .toOneKey:
                        try statement.bind(isNull ? .null : .integer(Int64(bitPattern: word)), at: column)
                    case .double, .date:
                        // A date's cell holds its seconds since 2001-01-01, the stored form.
                        try statement.bind(isNull ? .null : .real(Double(bitPattern: word)), at: column)
                    case .string:
                        if isNull {
                            try statement.bind(.null, at: column)
                        } else {
                            let text = UnsafeRawPointer(cells + Int(cell.word)).assumingMemoryBound(to: String.self).pointee
                            try statement.bind(.text(text), at: column)
                        }
                    case .data, .uuid, .uri, .decimal, .toMany:
                        try statement.bind(value(index), at: column)
                    }
                }
            }
        }
        while try statement.step() {}
    }

    /// Writes changed columns and bumps the version. With `expectedVersion`, only a row still at that version is
    /// written (optimistic locking); returns `false` when no row matched.
    func updateRow(_ table: EntityTable, primaryKey: Int64, expectedVersion: Int64?,
                   changes: [(column: String, value: SQLiteValue)]) throws -> Bool {
        var sql = "UPDATE \(table.name) SET Z_OPT = Z_OPT + 1"
        for change in changes { sql += ", \(change.column) = ?" }
        sql += " WHERE Z_PK = ?"
        var arguments = changes.map(\.value) + [.integer(primaryKey)]
        if let expectedVersion {
            sql += " AND Z_OPT = ?"
            arguments.append(.integer(expectedVersion))
        }
        return try connection.run(sql, arguments) == 1
    }

    /// Deletes a row and its join-table entries; returns `false` when no row matched (see ``updateRow``).
    func deleteRow(_ table: EntityTable, primaryKey: Int64, expectedVersion: Int64?) throws -> Bool {
        // The SQL is made once per table: a save deleting 100,000 rows runs this 100,000 times.
        let statement = try connection.cachedStatement(expectedVersion == nil ? table.deleteSQL : table.deleteCheckingVersionSQL)
        try statement.bind(primaryKey, at: 1)
        if let expectedVersion { try statement.bind(expectedVersion, at: 2) }
        while try statement.step() {}
        let deleted = connection.changes == 1
        for join in table.joinTables.values {
            try connection.run("DELETE FROM \(join.name) WHERE \(join.selfColumn) = ?", [.integer(primaryKey)])
        }
        return deleted
    }

    /// Sets the position of a child row within its parent's ordered relationship.
    func setOrder(_ column: String, of table: EntityTable, primaryKey: Int64, position: Int) throws {
        try connection.run("UPDATE \(table.name) SET \(column) = ? WHERE Z_PK = ?", [.integer(Int64(position)), .integer(primaryKey)])
    }

    /// Replaces the join rows of one object's side of a join table with `targets` (in order).
    /// `otherPositions` gives, per target, this object's position in the target's list when that side is ordered.
    func replaceJoinRows(_ join: JoinTable, primaryKey: Int64, targets: [Int64], ordered: Bool,
                         otherPositions: [Int64: Int] = [:]) throws {
        try connection.run("DELETE FROM \(join.name) WHERE \(join.selfColumn) = ?", [.integer(primaryKey)])
        let otherOrderColumn = join.readsFromOwner ? "Z_TARGET_ORDER" : "Z_OWNER_ORDER"
        let sql = "INSERT INTO \(join.name) (\(join.selfColumn), \(join.otherColumn), \(join.selfOrderColumn), \(otherOrderColumn)) VALUES (?, ?, ?, ?)"
        for (position, target) in targets.enumerated() {
            let other: SQLiteValue = otherPositions[target].map { .integer(Int64($0)) } ?? .null
            try connection.run(sql, [.integer(primaryKey), .integer(target), ordered ? .integer(Int64(position)) : .null, other])
        }
    }

    /// Primary keys of rows other than `excluding` whose constraint columns equal `values`.
    func rowsMatching(_ table: EntityTable, columns: [String], values: [SQLiteValue], excluding: Int64?) throws -> [StoreKey] {
        let readsFamily = table.entity.isInHierarchy
        var sql = "SELECT Z_PK\(readsFamily ? ", Z_ENT" : "") FROM \(table.name) WHERE " + columns.map { "\($0) = ?" }.joined(separator: " AND ")
        // In a hierarchy, `table`'s entity and its subentities: a subentity's constraint holds among its own rows.
        if let family = table.familyCondition(alias: nil) { sql += " AND " + family }
        var arguments = values
        if let excluding {
            sql += " AND Z_PK != ?"
            arguments.append(.integer(excluding))
        }
        let statement = try connection.cachedStatement(sql)
        try statement.bind(arguments)
        var keys: [StoreKey] = []
        while try statement.step() {
            if let key = storeKey(statement, of: table.entity, readsFamily: readsFamily) { keys.append(key) }
        }
        return keys
    }
}
