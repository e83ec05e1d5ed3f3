import Foundation

extension SQLiteStore {
    /// Hands each row matching `query` to `body`, decoded as SQLite steps (rows of subentities as their own
    /// entities); `body` returns `false` to stop early (an asynchronous fetch that was cancelled). Returns `false`
    /// when stopped.
    func forEachRow(for query: StoreQuery, while body: (StoreRow) -> Bool) throws -> Bool {
        let table = schema[query.entity]
        if query.readsFamily, let family = table.family {
            let statement = try connection.cachedStatement(sql(for: query, projection: family.projection(alias: "t0")))
            try statement.bind(arguments(for: query))
            defer { try? statement.reset(clearingBindings: false) }
            var rows = PackedRowAllocator()
            while try statement.step() {
                // A row of an entity this model does not know is not one of this fetch's objects.
                guard let decoder = family.decoders[statement.int64(at: 2)] else { continue }
                guard body(decodeRow(statement, table: decoder.table, positions: decoder.positions, into: &rows)) else { return false }
            }
            return true
        }
        let projection = Self.plainProjection(of: table)
        let statement = try connection.cachedStatement(sql(for: query, projection: projection))
        try statement.bind(arguments(for: query))
        // A statement left mid-way keeps its read open; resetting it ends the read.
        defer { try? statement.reset(clearingBindings: false) }
        var rows = PackedRowAllocator()
        while try statement.step() {
            guard body(decodeRow(statement, table: table, into: &rows)) else { return false }
        }
        return true
    }

    /// Primary keys of the rows matching the query, in the query's order, each with its row's entity.
    func primaryKeys(for query: StoreQuery) throws -> [StoreKey] {
        let readsFamily = query.readsFamily
        let statement = try connection.cachedStatement(sql(for: query, projection: readsFamily ? "t0.Z_PK, t0.Z_ENT" : "t0.Z_PK"))
        try statement.bind(arguments(for: query))
        var keys: [StoreKey] = []
        while try statement.step() {
            if readsFamily {
                guard let table = schema.table(number: statement.int64(at: 1)) else { continue }
                keys.append(StoreKey(primaryKey: statement.int64(at: 0), entity: table.entity))
            } else {
                keys.append(StoreKey(primaryKey: statement.int64(at: 0), entity: query.entity))
            }
        }
        return keys
    }

    /// The entity of each listed row of `entity`'s hierarchy that still exists (the key of a row in a hierarchy
    /// does not say which entity it is).
    func entities(of entity: EntityDescription, primaryKeys: [Int64]) throws -> [Int64: EntityDescription] {
        var result: [Int64: EntityDescription] = [:]
        guard entity.hasSubentities else {
            for pk in primaryKeys { result[pk] = entity }
            return result
        }
        let table = schema[entity]
        let condition = table.familyCondition(alias: nil).map { " AND " + $0 } ?? ""
        for chunk in primaryKeys.chunked(into: 500) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let statement = try connection.cachedStatement("SELECT Z_PK, Z_ENT FROM \(table.name) WHERE Z_PK IN (\(marks))" + condition)
            try statement.bind(chunk.map(SQLiteValue.integer))
            while try statement.step() {
                if let found = schema.table(number: statement.int64(at: 1)) { result[statement.int64(at: 0)] = found.entity }
            }
        }
        return result
    }

    /// The number of rows matching the query (limit and offset applied as SQL would).
    func count(for query: StoreQuery) throws -> Int {
        var inner = query
        inner.orderBy = nil
        let sql = "SELECT COUNT(*) FROM (\(sql(for: inner, projection: "t0.Z_PK")))"
        let rows = try connection.query(sql, arguments(for: inner))
        guard case .integer(let count)? = rows.first?.first else { return 0 }
        return Int(count)
    }

    /// Selected columns of matching rows, for dictionary results.
    func values(for query: StoreQuery, columns: [String], distinct: Bool) throws -> [[SQLiteValue]] {
        let projection = (distinct ? "DISTINCT " : "") + columns.joined(separator: ", ")
        return try connection.query(sql(for: query, projection: projection), arguments(for: query))
    }

    /// Rows by primary key (for batch faulting); missing rows are left out.
    func rows(of entity: EntityDescription, primaryKeys: [Int64]) throws -> [StoreRow] {
        let table = schema[entity]
        var rows: [StoreRow] = []
        var packed = PackedRowAllocator()
        for chunk in primaryKeys.chunked(into: 500) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let statement = try connection.cachedStatement("SELECT \(table.selectColumns) FROM \(table.name) WHERE Z_PK IN (\(marks))")
            try statement.bind(chunk.map(SQLiteValue.integer))
            while try statement.step() { rows.append(decodeRow(statement, table: table, into: &packed)) }
        }
        return rows
    }

    /// One row by primary key, or nil when it is gone.
    func row(of entity: EntityDescription, primaryKey: Int64) throws -> StoreRow? {
        let table = schema[entity]
        let statement = try connection.cachedStatement("SELECT \(table.selectColumns) FROM \(table.name) WHERE Z_PK = ?")
        try statement.bind([.integer(primaryKey)])
        var packed = PackedRowAllocator(firstBlockSize: 1)
        return try statement.step() ? decodeRow(statement, table: table, into: &packed) : nil
    }

    /// The current version of each listed row that still exists.
    func versions(of entity: EntityDescription, primaryKeys: [Int64]) throws -> [Int64: Int64] {
        var result: [Int64: Int64] = [:]
        result.reserveCapacity(primaryKeys.count)
        let table = schema[entity]
        let size = EntityTable.versionChunkSize
        for chunk in primaryKeys.chunked(into: size) {
            let statement = try connection.cachedStatement(chunk.count == size ? table.versionsSQL : table.versionsSQL(count: chunk.count))
            for (position, key) in chunk.enumerated() { try statement.bind(key, at: Int32(position + 1)) }
            while try statement.step() { result[statement.int64(at: 0)] = statement.int64(at: 1) }
        }
        return result
    }

    /// The keys of the objects related to row `primaryKey` through to-many `relationship`, in order, each with its
    /// entity (a subentity of the destination, when it has them).
    func relatedKeys(_ relationship: RelationshipDescription, of entity: EntityDescription, primaryKey: Int64) throws -> [StoreKey] {
        let table = schema[entity]
        let index = entity.propertyIndexByName[relationship.name]!
        let destination = schema[relationship.destinationEntity]
        let readsFamily = destination.entity.hasSubentities
        let sql: String
        if let join = table.joinTables[index] {
            let order = relationship.isOrdered ? "j.\(join.selfOrderColumn), j.rowid" : "j.rowid"
            if readsFamily {
                sql = "SELECT j.\(join.otherColumn), d.Z_ENT FROM \(join.name) j JOIN \(destination.name) d ON d.Z_PK = j.\(join.otherColumn) WHERE j.\(join.selfColumn) = ? ORDER BY \(order)"
            } else {
                sql = "SELECT j.\(join.otherColumn) FROM \(join.name) j WHERE j.\(join.selfColumn) = ? ORDER BY \(order)"
            }
        } else {
            let inverse = relationship.inverseRelationship!
            let inverseIndex = destination.entity.propertyIndexByName[inverse.name]!
            let foreignKey = destination.columns[inverseIndex]!
            let order = destination.orderColumns[inverseIndex].map { "\($0), Z_PK" } ?? "Z_PK"
            // A foreign key column is only ever set on rows of entities that have the relationship.
            sql = "SELECT Z_PK\(readsFamily ? ", Z_ENT" : "") FROM \(destination.name) WHERE \(foreignKey) = ? ORDER BY \(order)"
        }
        let statement = try connection.cachedStatement(sql)
        try statement.bind([.integer(primaryKey)])
        var keys: [StoreKey] = []
        while try statement.step() {
            if readsFamily {
                guard let found = schema.table(number: statement.int64(at: 1)) else { continue }
                keys.append(StoreKey(primaryKey: statement.int64(at: 0), entity: found.entity))
            } else {
                keys.append(StoreKey(primaryKey: statement.int64(at: 0), entity: destination.entity))
            }
        }
        return keys
    }

    // MARK: - SQL

    func sql(for query: StoreQuery, projection: String) -> String {
        let table = schema[query.entity]
        var sql = "SELECT \(projection) FROM \(table.name) t0"
        if !query.joins.isEmpty { sql += " " + query.joins }
        let family = table.familyCondition(alias: "t0", includingSubentities: query.includesSubentities)
        switch (family, query.whereClause) {
        case (nil, nil): break
        case (let condition?, nil), (nil, let condition?): sql += " WHERE " + condition
        case (let family?, let condition?): sql += " WHERE \(family) AND (\(condition))"
        }
        if let orderBy = query.orderBy { sql += " ORDER BY " + orderBy }
        if query.limit > 0 || query.offset > 0 { sql += " LIMIT ? OFFSET ?" }
        return sql
    }

    func arguments(for query: StoreQuery) -> [SQLiteValue] {
        guard query.limit > 0 || query.offset > 0 else { return query.arguments }
        return query.arguments + [.integer(query.limit > 0 ? Int64(query.limit) : -1), .integer(Int64(query.offset))]
    }

    /// The projection of a query of one entity's own rows: `Z_PK, Z_OPT` and its columns, in property order.
    static func plainProjection(of table: EntityTable) -> String {
        "t0.Z_PK, t0.Z_OPT" + table.columns.compactMap { $0.map { ", t0." + $0 } }.joined()
    }

    /// The column of the `n`th stored property in a ``plainProjection(of:)`` row.
    @inline(__always)
    static func plainColumn(_ n: Int) -> Int32 { Int32(truncatingIfNeeded: n) &+ 2 }

    /// Turns the current row of a family query (see ``FamilyProjection``) into the values of `table`'s entity,
    /// reading its columns at `positions`.
    func decodeRow(_ statement: SQLiteStatement, table: EntityTable, positions: [Int32],
                   into rows: inout PackedRowAllocator) -> StoreRow {
        decodeRow(statement, table: table, into: &rows, column: { positions[$0] })
    }

    /// Turns the current row of `statement` (projected as `Z_PK, Z_OPT, columns…`) into the values of `table`'s
    /// entity.
    func decodeRow(_ statement: SQLiteStatement, table: EntityTable, into rows: inout PackedRowAllocator) -> StoreRow {
        decodeRow(statement, table: table, into: &rows, column: { Self.plainColumn($0) })
    }

    /// The current row, reading the `n`th stored property from `column(n)`: packed when the entity has a layout
    /// and every value fits it, otherwise as slots.
    @inline(__always)
    private func decodeRow(_ statement: SQLiteStatement, table: EntityTable, into rows: inout PackedRowAllocator,
                           column: (Int) -> Int32) -> StoreRow {
        let entity = table.entity
        if let layout = entity.packedLayout,
           let packed = packRow(statement, entity: entity, layout: layout, into: &rows, column: column) {
            return StoreRow(entity: entity, primaryKey: statement.int64(at: 0), version: statement.int64(at: 1), packed: packed)
        }
        return decodeSlots(statement, entity: entity, column: column)
    }

    /// The current row as slots, which keep any value, reading the `n`th stored property from `column(n)`. (Not
    /// inlined: it is the rare way, and inlined into a fetch's loop it made every packed row slower.)
    @inline(never)
    private func decodeSlots(_ statement: SQLiteStatement, entity: EntityDescription, column: (Int) -> Int32) -> StoreRow {
        var slots: [PropertySlot] = []
        slots.reserveCapacity(entity.properties.count)
        let hasTransients = entity.hasTransientAttributes
        var next = 0
        for kind in entity.kinds {
            switch kind {
            case .attribute where hasTransients && entity.isTransient(at: slots.count):
                // No column: an object read from the store starts with the default (`slots.count` is this property).
                slots.append(entity.initialSlots[slots.count])
            case .attribute(let type):
                slots.append(.value(decodeValue(statement, column: column(next), type: type)))
                next += 1
            case .toMany:
                slots.append(.toMany(nil))
            case .toOne:
                let position = column(next)
                let key = statement.int64(at: position)
                slots.append(key == 0 && statement.isNull(at: position) ? .toOne(nil) : .toOneKey(key))
                next += 1
            }
        }
        return StoreRow(entity: entity, primaryKey: statement.int64(at: 0), version: statement.int64(at: 1), slots: slots)
    }

    /// The current row packed by `layout` into the next row `rows` hands out, reading the `n`th stored property
    /// from `column(n)`; nil when a value does not fit its cell (the row is taken back, and the caller decodes
    /// slots, which keep any value).
    @inline(__always)
    private func packRow(_ statement: SQLiteStatement, entity: EntityDescription, layout: PackedRowLayout,
                         into rows: inout PackedRowAllocator, column: (Int) -> Int32) -> PackedRow? {
        let (block, row) = rows.nextUnretainedRow(for: layout)
        guard pack(statement, entity: entity, layout: layout, block: block, row: row, column: column) else { return nil }
        return PackedRow(block: block.takeUnretainedValue(), row: row)
    }

    /// Packs the current row into row `row` of `block` (which the caller keeps alive); `false` when a value does
    /// not fit its cell (the row is then taken back, and the caller decodes slots, which keep any value).
    ///
    /// Numbers, booleans, dates and to-one keys go straight from SQLite into their cells (NULL reads as 0, so only
    /// a 0 needs the type check); other values go through ``PersistentValue``.
    @inline(__always)
    private func pack(_ statement: SQLiteStatement, entity: EntityDescription, layout: PackedRowLayout,
                      block: Unmanaged<PackedRowBlock>, row: Int, column: (Int) -> Int32) -> Bool {
        let hasTransients = entity.hasTransientAttributes
        let fits = block._withUnsafeGuaranteedRef { block in
            block.withRow(row) { _, bits, cells -> Bool in
                // The null bits are gathered in a local and written once; the cells are walked through their
                // buffer. (This runs for every cell of every row a fetch reads.)
                var nullBits = bits.pointee
                defer { bits.pointee = nullBits }
                /// Writes a value that is not plain bits (or a transient's default) into cell `index`.
                func place(_ value: PersistentValue, at index: Int, cell: PackedRowLayout.Cell) -> Bool {
                    if case .null = value { return true }
                    guard PackedRowBlock.initialize(cell.kind, at: UnsafeMutableRawPointer(cells + Int(cell.word)), with: value) else { return false }
                    nullBits &= ~(1 &<< UInt64(index))
                    return true
                }
                return layout.cells.withUnsafeBufferPointer { layoutCells -> Bool in
                    var next = 0
                    for index in layoutCells.indices {
                        let cell = layoutCells[index]
                        if hasTransients, let attribute = entity.attributeAt[index], attribute.isTransient {
                            // No column: an object read from the store starts with the default.
                            guard place(attribute.defaultValue, at: index, cell: cell) else { return false }
                            continue
                        }
                        let value: UInt64
                        switch cell.kind {
                        case .toMany:
                            continue
                        case .integer, .toOneKey:
                            let position = column(next)
                            next += 1
                            let integer = statement.int64(at: position)
                            if integer == 0 && statement.isNull(at: position) { continue }
                            value = UInt64(bitPattern: integer)
                        case .bool:
                            let position = column(next)
                            next += 1
                            let integer = statement.int64(at: position)
                            if integer == 0 && statement.isNull(at: position) { continue }
                            value = integer != 0 ? 1 : 0
                        case .double, .date:
                            let position = column(next)
                            next += 1
                            let double = statement.double(at: position)
                            if double == 0 && statement.isNull(at: position) { continue }
                            value = double.bitPattern
                        case .string, .data, .uuid, .uri, .decimal:
                            guard case .attribute(let type) = entity.kinds[index],
                                  place(decodeValue(statement, column: column(next), type: type), at: index, cell: cell) else { return false }
                            next += 1
                            continue
                        }
                        (cells + Int(cell.word)).pointee = value
                        nullBits &= ~(1 &<< UInt64(index))
                    }
                    return true
                }
            }
        }
        if !fits { block._withUnsafeGuaranteedRef { $0.removeLastRow() } }
        return fits
    }

    /// Reads the rows of `query` — one entity without subentities, with a packed layout — for a fetch that makes
    /// objects. Each row is packed into the next row of a block; a row whose values do not fit the layout is
    /// decoded as slots instead. `bytesPerObject` is the memory the context takes for an object of a row (see
    /// ``FetchedPackedRows``).
    func packedRows(for query: StoreQuery, layout: PackedRowLayout, bytesPerObject: Int) throws -> FetchedPackedRows {
        precondition(!query.readsFamily && query.entity.packedLayout === layout, "one entity's packed rows only")
        let table = schema[query.entity]
        let entity = table.entity
        let projection = Self.plainProjection(of: table)
        let statement = try connection.cachedStatement(sql(for: query, projection: projection))
        try statement.bind(arguments(for: query))
        var fetched = FetchedPackedRows(bytesPerObject: bytesPerObject)
        var rows = PackedRowAllocator()
        while try statement.step() {
            let (block, row) = rows.nextUnretainedRow(for: layout)
            if pack(statement, entity: entity, layout: layout, block: block, row: row, column: { Self.plainColumn($0) }) {
                fetched.appendPacked(block: block, row: row, primaryKey: statement.int64(at: 0), version: statement.int64(at: 1))
            } else {
                // The row did not fit (and was taken back): slots, without trying to pack it a second time.
                fetched.appendUnpacked(decodeSlots(statement, entity: entity, column: { Self.plainColumn($0) }))
            }
        }
        return fetched
    }

    /// The rows of `query`, each decoded as its own entity (see ``forEachRow(for:while:)``).
    func rows(for query: StoreQuery) throws -> [StoreRow] {
        var rows: [StoreRow] = []
        _ = try forEachRow(for: query) { rows.append($0); return true }
        return rows
    }

    private func decodeValue(_ statement: SQLiteStatement, column: Int32, type: AttributeType) -> PersistentValue {
        switch type {
        // Fast paths for the common types; everything else goes through the general conversion.
        case .integer16, .integer32, .integer64:
            // NULL reads as 0, so only a 0 needs the type check.
            let value = statement.int64(at: column)
            return value == 0 && statement.isNull(at: column) ? .null : .integer(value)
        default:
            break
        }
        if statement.isNull(at: column) { return .null }
        switch type {
        case .integer16, .integer32, .integer64: return .integer(statement.int64(at: column))
        case .double, .float: return .double(statement.double(at: column))
        case .string: return .string(statement.text(at: column))
        case .boolean: return .bool(statement.int64(at: column) != 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: statement.double(at: column)))
        default: return type.persistentValue(statement.value(at: column))
        }
    }
}

extension Array {
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

extension SQLiteStore {
    /// The rows related to each of `ownerKeys` (rows of `entity`) through to-many `relationship`, each with its
    /// owner's key: grouped by owner, and within an owner in the relationship's order (as ``relatedKeys(_:of:primaryKey:)``
    /// gives them). One statement for all the owners, where a relationship read owner by owner takes one each.
    /// The destination must have no subentities (their rows need each their own columns). A row whose key is in
    /// `known` is not decoded (an object already in memory with its values has no use for it): its row is nil.
    func relatedRows(_ relationship: RelationshipDescription, of entity: EntityDescription, ownerKeys: ArraySlice<Int64>,
                     skippingRowsOf known: StoreKeySet) throws -> [(owner: Int64, key: Int64, row: StoreRow?)] {
        let table = schema[entity]
        let index = entity.propertyIndexByName[relationship.name]!
        let destination = schema[relationship.destinationEntity]
        let columns = (["Z_PK", "Z_OPT"] + destination.columns.compactMap { $0 }).map { "d." + $0 }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: ownerKeys.count).joined(separator: ", ")
        let sql: String
        if let join = table.joinTables[index] {
            let order = relationship.isOrdered ? "j.\(join.selfOrderColumn), j.rowid" : "j.rowid"
            sql = "SELECT \(columns), j.\(join.selfColumn) FROM \(join.name) j JOIN \(destination.name) d ON d.Z_PK = j.\(join.otherColumn) WHERE j.\(join.selfColumn) IN (\(marks)) ORDER BY j.\(join.selfColumn), \(order)"
        } else {
            let inverseIndex = destination.entity.propertyIndexByName[relationship.inverseRelationship!.name]!
            let foreignKey = destination.columns[inverseIndex]!
            let order = destination.orderColumns[inverseIndex].map { "d.\($0), d.Z_PK" } ?? "d.Z_PK"
            sql = "SELECT \(columns), d.\(foreignKey) FROM \(destination.name) d WHERE d.\(foreignKey) IN (\(marks)) ORDER BY d.\(foreignKey), \(order)"
        }
        let ownerColumn = Int32(2 + destination.columnProperties.count)
        let statement = try connection.cachedStatement(sql)
        try statement.bind(ownerKeys.map(SQLiteValue.integer))
        var rows: [(owner: Int64, key: Int64, row: StoreRow?)] = []
        var packed = PackedRowAllocator()
        while try statement.step() {
            let key = statement.int64(at: 0)
            rows.append((statement.int64(at: ownerColumn), key, known.contains(key) ? nil : decodeRow(statement, table: destination, into: &packed)))
        }
        return rows
    }
}
