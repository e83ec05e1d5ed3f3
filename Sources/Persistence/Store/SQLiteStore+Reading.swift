import Foundation

extension SQLiteStore {
    /// Hands each row matching `query` to `body`, decoded as SQLite steps (rows of subentities as their own
    /// entities); `body` returns `false` to stop early (an asynchronous fetch that was cancelled). Returns `false`
    /// when stopped.
    func forEachRow(for query: StoreQuery, while body: (StoreRow) -> Bool) throws -> Bool {
        let started = Self.debugClock()
        let table = schema[query.entity]
        var count = 0
        if query.readsFamily, let family = table.family {
            let statement = try connection.cachedStatement(sql(for: query, projection: family.projection(alias: "t0")))
            try statement.bind(arguments(for: query))
            defer {
                if started != 0 { logFetch(statement, entity: query.entity, rows: count, started: started) }
                try? statement.reset(clearingBindings: false)
            }
            var rows = PackedRowAllocator()
            while try statement.step() {
                count &+= 1
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
        defer {
            if started != 0 { logFetch(statement, entity: query.entity, rows: count, started: started) }
            try? statement.reset(clearingBindings: false)
        }
        var rows = PackedRowAllocator()
        while try statement.step() {
            count &+= 1
            guard body(decodeRow(statement, table: table, into: &rows)) else { return false }
        }
        return true
    }

    /// Primary keys of the rows matching the query, in the query's order, each with its row's entity.
    func primaryKeys(for query: StoreQuery) throws -> [StoreKey] {
        let started = Self.debugClock()
        let readsFamily = query.readsFamily
        let statement = try connection.cachedStatement(sql(for: query, projection: readsFamily ? "t0.Z_PK, t0.Z_ENT" : "t0.Z_PK"))
        try statement.bind(arguments(for: query))
        var keys: [StoreKey] = []
        while try statement.step() {
            if let key = storeKey(statement, of: query.entity, readsFamily: readsFamily) { keys.append(key) }
        }
        if started != 0 { logFetch(statement, entity: query.entity, rows: keys.count, started: started) }
        return keys
    }

    /// The key in column 0 of `statement`'s current row, with its row's entity: the one numbered by `Z_ENT` in
    /// column 1 when the statement read a family's rows, otherwise `entity`. Nil for a row of an entity the model
    /// does not know (not one of the model's objects).
    @inline(__always)
    func storeKey(_ statement: SQLiteStatement, of entity: EntityDescription, readsFamily: Bool) -> StoreKey? {
        guard readsFamily else { return StoreKey(primaryKey: statement.int64(at: 0), entity: entity) }
        guard let table = schema.table(number: statement.int64(at: 1)) else { return nil }
        return StoreKey(primaryKey: statement.int64(at: 0), entity: table.entity)
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
        for chunk in SQLKeyList.chunks(of: primaryKeys) {
            let started = Self.debugClock()
            let marks = SQLKeyList.placeholders(chunk.count)
            let statement = try connection.cachedStatement("SELECT Z_PK, Z_ENT FROM \(table.name) WHERE Z_PK IN (\(marks))" + condition)
            try statement.bind(chunk.map(SQLiteValue.integer))
            var count = 0
            while try statement.step() {
                count += 1
                if let key = storeKey(statement, of: entity, readsFamily: true) { result[key.primaryKey] = key.entity }
            }
            if started != 0 { logFetch(statement, entity: entity, rows: count, started: started) }
        }
        return result
    }

    /// The number of rows matching the query (limit and offset applied as SQL would).
    func count(for query: StoreQuery) throws -> Int {
        let started = Self.debugClock()
        var inner = query
        inner.orderBy = nil
        let statement = try connection.cachedStatement("SELECT COUNT(*) FROM (\(sql(for: inner, projection: "t0.Z_PK")))")
        try statement.bind(arguments(for: inner))
        let count = try statement.step() ? Int(statement.int64(at: 0)) : 0
        try statement.reset(clearingBindings: false)
        if started != 0 { logCount(statement, count: count, started: started) }
        return count
    }

    /// Selected columns of matching rows, for dictionary results.
    func values(for query: StoreQuery, columns: [String], distinct: Bool) throws -> [[SQLiteValue]] {
        let started = Self.debugClock()
        let projection = (distinct ? "DISTINCT " : "") + columns.joined(separator: ", ")
        let statement = try connection.cachedStatement(sql(for: query, projection: projection))
        try statement.bind(arguments(for: query))
        var rows: [[SQLiteValue]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        if started != 0 { logFetch(statement, entity: query.entity, rows: rows.count, started: started) }
        return rows
    }

    /// Rows by primary key (for batch faulting); missing rows are left out.
    func rows(of entity: EntityDescription, primaryKeys: [Int64]) throws -> [StoreRow] {
        let table = schema[entity]
        var rows: [StoreRow] = []
        var packed = PackedRowAllocator()
        for chunk in SQLKeyList.chunks(of: primaryKeys) {
            let started = Self.debugClock()
            let before = rows.count
            let marks = SQLKeyList.placeholders(chunk.count)
            let statement = try connection.cachedStatement("SELECT \(table.selectColumns) FROM \(table.name) WHERE Z_PK IN (\(marks))")
            try statement.bind(chunk.map(SQLiteValue.integer))
            while try statement.step() { rows.append(decodeRow(statement, table: table, into: &packed)) }
            if started != 0 { logFetch(statement, entity: entity, rows: rows.count - before, started: started) }
        }
        return rows
    }

    /// One row by primary key, or nil when it is gone. The SQL debug log calls it a fault fulfilled from the
    /// store — what every caller reads one row for — unless `isFault` is false (a save's check of a conflict).
    func row(of entity: EntityDescription, primaryKey: Int64, isFault: Bool = true) throws -> StoreRow? {
        let logged = PersistenceDebugLog.isSQLOn
        let table = schema[entity]
        let statement = try connection.cachedStatement("SELECT \(table.selectColumns) FROM \(table.name) WHERE Z_PK = ?")
        try statement.bind([.integer(primaryKey)])
        var packed = PackedRowAllocator(firstBlockSize: 1)
        let row = try statement.step() ? decodeRow(statement, table: table, into: &packed) : nil
        if logged && isFault && row != nil { logFault(statement, entity: entity, primaryKey: primaryKey) }
        return row
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

    /// Reads the rows of `query` — one entity without subentities, with a packed layout — for a fetch that makes
    /// objects. Each row is packed into the next row of a block; a row whose values do not fit the layout is
    /// decoded as slots instead. `bytesPerObject` is the memory the context takes for an object of a row (see
    /// ``FetchedPackedRows``).
    func packedRows(for query: StoreQuery, layout: PackedRowLayout, bytesPerObject: Int) throws -> FetchedPackedRows {
        precondition(!query.readsFamily && query.entity.packedLayout === layout, "one entity's packed rows only")
        let table = schema[query.entity]
        let entity = table.entity
        let projection = Self.plainProjection(of: table)
        let started = Self.debugClock()
        let statement = try connection.cachedStatement(sql(for: query, projection: projection))
        try statement.bind(arguments(for: query))
        var fetched = FetchedPackedRows(bytesPerObject: bytesPerObject)
        defer { if started != 0 { logFetch(statement, entity: entity, rows: fetched.count, started: started) } }
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
}
