/// Reading to-many relationships: the keys related to one row, and the rows related to many at once.
extension SQLiteStore {
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
        let logged = PersistenceDebugLog.isSQLOn
        let statement = try connection.cachedStatement(sql)
        try statement.bind([.integer(primaryKey)])
        var keys: [StoreKey] = []
        var count = 0
        while try statement.step() {
            count += 1
            if let key = storeKey(statement, of: destination.entity, readsFamily: readsFamily) { keys.append(key) }
        }
        if logged { logToManyFault(statement, relationship: relationship, entity: entity, primaryKey: primaryKey, rows: count) }
        return keys
    }

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
        let marks = SQLKeyList.placeholders(ownerKeys.count)
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
        let started = Self.debugClock()
        let statement = try connection.cachedStatement(sql)
        try statement.bind(ownerKeys.map(SQLiteValue.integer))
        var rows: [(owner: Int64, key: Int64, row: StoreRow?)] = []
        var packed = PackedRowAllocator()
        while try statement.step() {
            let key = statement.int64(at: 0)
            rows.append((statement.int64(at: ownerColumn), key, known.contains(key) ? nil : decodeRow(statement, table: destination, into: &packed)))
        }
        if started != 0 { logFetch(statement, entity: destination.entity, rows: rows.count, started: started) }
        return rows
    }
}
