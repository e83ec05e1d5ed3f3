import Foundation

/// The SQL of the batch requests. Each runs in one transaction of its own: an error anywhere rolls everything
/// back, so the store is exactly as before. Rows are chosen, changed and deleted as sets, not one by one.
extension SQLiteStore {
    // MARK: - Update

    /// Runs a batch update; returns how many rows it changed and, when asked, their IDs. In a hierarchy it updates
    /// the rows of the request's entity and, when the query includes them, of its subentities.
    func executeBatchUpdate(_ plan: BatchUpdatePlan) throws -> (count: Int, objectIDs: [ManagedObjectID]?) {
        let table = schema[plan.entity]
        let place = "Batch update of \(plan.entity.entityName)"
        var sql = "UPDATE \(table.name) AS t0 SET Z_OPT = Z_OPT + 1"
        var arguments: [SQLiteValue] = []
        for assignment in plan.assignments {
            sql += ", \(assignment.column) = \(assignment.sql)"
            arguments += assignment.arguments
        }
        let query = plan.query
        var conditions: [String] = []
        if let family = table.familyCondition(alias: "t0", includingSubentities: query.includesSubentities) {
            conditions.append(family)
        }
        if query.joins.isEmpty {
            if let condition = query.whereClause { conditions.append("(\(condition))") }
        } else {
            // Key paths through to-one relationships need joins, which an UPDATE cannot have: choose the rows in a
            // subquery (its own `t0` is the same table).
            var rows = "t0.Z_PK IN (SELECT t0.Z_PK FROM \(table.name) t0 \(query.joins)"
            if let condition = query.whereClause { rows += " WHERE \(condition)" }
            conditions.append(rows + ")")
        }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        arguments += query.arguments
        // Which entity each updated row is, for its ID, when the rows can be of several.
        let readsEntity = plan.entity.hasSubentities && query.includesSubentities
        let firstCheck = readsEntity ? 2 : 1
        let returning = plan.returnsKeys || !plan.checks.isEmpty
        if returning { sql += " RETURNING Z_PK" + (readsEntity ? ", Z_ENT" : "") + plan.checks.map { ", \($0.column)" }.joined() }

        return try inBatchTransaction(place) {
            let statement = try connection.prepare(sql)
            try statement.bind(arguments)
            defer { try? statement.reset(clearingBindings: false) }
            var keys: [StoreKey] = []
            while try statement.step() {
                let key = storeKey(statement, of: plan.entity, readsFamily: readsEntity)
                    ?? StoreKey(primaryKey: statement.int64(at: 0), entity: plan.entity)
                for (offset, check) in plan.checks.enumerated() {
                    let value = statement.value(at: Int32(offset + firstCheck))
                    guard let problem = check.problem(with: value) else { continue }
                    let id = objectID(of: key.entity, primaryKey: key.primaryKey)
                    throw PersistenceError(
                        value == .null ? .validationMissingMandatoryProperty : .managedObjectValidation,
                        "\(place): \(check.attribute.name) = \(check.expression) \(problem) for \(id); nothing was changed.",
                        objectID: id, key: check.attribute.name,
                        value: BatchUpdatePlan.Check.persistentValue(value), sql: sql)
                }
                if plan.returnsKeys { keys.append(key) }
            }
            return (connection.changes, plan.returnsKeys ? keys.map { objectID(of: $0.entity, primaryKey: $0.primaryKey) } : nil)
        }
    }

    // MARK: - Delete

    /// Runs a batch delete: gathers the request's rows and everything its cascade rules reach, checks deny rules,
    /// applies nullify rules, then deletes. Returns how many rows it deleted and, when asked, their IDs.
    ///
    /// Work goes by table: an entity without inheritance, or a whole hierarchy (whose rows share its root's table).
    /// A relationship's rules are applied once, by the entity that declares it, to its rows and its subentities'.
    func executeBatchDelete(_ plan: BatchDeletePlan) throws -> (count: Int, objectIDs: [ManagedObjectID]?) {
        let graph = BatchDeleteGraph(schema: schema)
        let place = "Batch delete of \(plan.entity.entityName)"
        try connection.execute(graph.createScratchSQL)
        return try inBatchTransaction(place) {
            // Round 0: the request's own rows.
            let table = schema[plan.entity]
            let entityNumber = graph.entityNumber(of: table, alias: "t0")
            var found = 0
            switch plan.roots {
            case .query(let query):
                let select = sql(for: query, projection: "t0.Z_PK, \(entityNumber), 0")
                found = try connection.run(graph.rootsSQL(plan.entity, select: select), arguments(for: query))
            case .primaryKeys(let keys):
                // An ID names a row of its own entity: a row with its key that is of another entity of the hierarchy is
                // not that object, and is skipped as a row already gone would be.
                let family = table.familyCondition(alias: "t0").map { " AND " + $0 } ?? ""
                for chunk in SQLKeyList.chunks(of: keys) {
                    let marks = SQLKeyList.placeholders(chunk.count)
                    let select = "SELECT t0.Z_PK, \(entityNumber), 0 FROM \(table.name) t0 WHERE t0.Z_PK IN (\(marks))\(family)"
                    found += try connection.run(graph.rootsSQL(plan.entity, select: select), chunk.map(SQLiteValue.integer))
                }
            }
            guard found > 0 else { return (0, plan.returnsKeys ? [] : nil) }

            // Each relationship once, with the entity that declares it, for every entity of the tables in `roots`.
            func relationships(of roots: [EntityDescription]) -> [(entity: EntityDescription, index: Int, relationship: RelationshipDescription)] {
                roots.flatMap { root in
                    root.family.flatMap { entity in
                        entity.relationshipAt.enumerated().dropFirst(entity.inheritedPropertyCount).compactMap { index, relationship in
                            relationship.map { (entity, index, $0) }
                        }
                    }
                }
            }

            // Later rounds: what cascade rules reach from the rows the round before added. Rounds go by table: the
            // root entity's index stands for its whole hierarchy.
            var gathered: Set<Int> = []
            var frontier: Set<Int> = [plan.entity.rootEntity.index]
            var round: Int64 = 0
            // Cascades into entities with nothing more to do are deleted in one statement at the end, not gathered.
            var directDeletes: [String] = []
            while !frontier.isEmpty {
                gathered.formUnion(frontier)
                var next: Set<Int> = []
                for (entity, index, relationship) in relationships(of: frontier.sorted().map { model.entities[$0] })
                where relationship.deleteRule == .cascadeDeleteRule {
                    if !plan.returnsKeys, relationship.destinationEntity !== plan.entity,
                       let direct = graph.directCascadeSQL(relationship, of: entity) {
                        directDeletes.append(direct)
                        continue
                    }
                    guard let cascade = graph.cascadeSQL(relationship, at: index, of: entity) else { continue }
                    if try connection.run(cascade, [.integer(round + 1), .integer(round)]) > 0 {
                        next.insert(relationship.destinationEntity.rootEntity.index)
                    }
                }
                frontier = next
                round += 1
            }
            let roots = gathered.sorted().map { model.entities[$0] }

            // Deny: refuse before anything changes.
            for (entity, index, relationship) in relationships(of: roots) where relationship.deleteRule == .denyDeleteRule {
                guard let deny = graph.denySQL(relationship, at: index, of: entity) else { continue }
                let blocked = try connection.query(deny)
                guard let first = blocked.first, case .integer(let key) = first[0], case .integer(let number) = first[1],
                      case .integer(let related) = first[2] else { continue }
                let owner = schema.table(number: number)?.entity ?? entity
                let id = objectID(of: owner, primaryKey: key)
                let others = blocked.count > 1 ? " (and so do \(blocked.count - 1) more \(entity.entityName) object(s))" : ""
                throw PersistenceError(
                    .validationRelationshipDeniedDelete,
                    "\(place): \(owner.entityName) \(id) cannot be deleted: its relationship '\(relationship.name)' still holds \(related) object(s) that are not being deleted, and its delete rule is deny\(others). Nothing was deleted.",
                    objectID: id, key: relationship.name, sql: deny)
            }

            // Nullify: clear what the rows that stay hold of the rows that go.
            for (entity, index, relationship) in relationships(of: roots) where relationship.deleteRule == .nullifyDeleteRule {
                guard let nullify = graph.nullifySQL(relationship, at: index, of: entity) else { continue }
                try connection.run(nullify)
            }

            var objectIDs: [ManagedObjectID]?
            if plan.returnsKeys {
                // The request's own rows first, then by round (nearest first), entity and key.
                var keyed: [(round: Int64, entity: EntityDescription, key: Int64)] = []
                for root in roots {
                    for row in try connection.query("SELECT Z_PK, Z_ENT, Z_ROUND FROM \(graph.scratchTable(of: root))") {
                        guard case .integer(let key) = row[0], case .integer(let number) = row[1], case .integer(let round) = row[2],
                              let entity = schema.table(number: number)?.entity else { continue }
                        keyed.append((round, entity, key))
                    }
                }
                keyed.sort { ($0.round, $0.entity.index, $0.key) < ($1.round, $1.entity.index, $1.key) }
                objectIDs = keyed.map { objectID(of: $0.entity, primaryKey: $0.key) }
            }
            var count = 0
            for statement in directDeletes { count += try connection.run(statement) }
            for root in roots {
                let statements = graph.deleteSQL(root)
                for (position, statement) in statements.enumerated() {
                    let changed = try connection.run(statement)
                    // The last statement deletes the table's own rows.
                    if position == statements.count - 1 { count += changed }
                }
            }
            for root in roots { try connection.run("DELETE FROM \(graph.scratchTable(of: root))") }
            return (count, objectIDs)
        }
    }

    // MARK: - Insert

    /// Runs a batch insert; returns how many rows it wrote and, when asked, their IDs.
    func executeBatchInsert(_ plan: BatchInsertPlan) throws -> (count: Int, objectIDs: [ManagedObjectID]?) {
        guard !plan.rows.isEmpty else { return (0, plan.returnsKeys ? [] : nil) }
        let place = "Batch insert into \(plan.entity.entityName)"
            + (plan.upserts || plan.entity.uniquenessConstraintKeys.isEmpty ? ""
                : " under merge policy \(plan.mergePolicyName) (only mergeByPropertyObjectTrump makes a clash an update)")
        return try inBatchTransaction(place) {
            var next = try allocatePrimaryKeys(for: plan.entity, count: plan.rows.count)
            let firstKey = next
            // Rows usually all give the same keys, so one prepared statement serves them all.
            var statements: [[Int]: SQLiteStatement] = [:]
            defer { for statement in statements.values { try? statement.reset() } }
            var keys: [StoreKey] = []
            var count = 0
            // History records the rows an upsert inserted, not those it updated (the update trigger records them):
            // with history, every upsert says which row it wrote.
            let upserts = plan.upserts
            let readsWrittenRows = plan.readsWrittenRows || (upserts && recordsHistory)
            let returning = readsWrittenRows && !plan.readsWrittenRows ? " RETURNING Z_PK" + (plan.entity.isInHierarchy ? ", Z_ENT" : "") : ""
            for (position, row) in plan.rows.enumerated() {
                let statement: SQLiteStatement
                if let prepared = statements[row.given] {
                    try prepared.reset(clearingBindings: false)
                    statement = prepared
                } else {
                    statement = try connection.prepare(plan.insertSQL(given: row.given) + returning)
                    statements[row.given] = statement
                }
                try statement.bind(next, at: 1)
                for (column, value) in row.values.enumerated() { try statement.bind(value, at: Int32(column + 2)) }
                var written = StoreKey(primaryKey: next, entity: plan.entity)
                if readsWrittenRows {
                    // An upsert that updated a stored row returns that row's key (and, in a hierarchy, its entity).
                    if try statement.step(), let key = storeKey(statement, of: plan.entity, readsFamily: plan.entity.isInHierarchy) {
                        written = key
                    }
                    while try statement.step() {}
                    // A clash with a row of an entity that lacks some of this entity's columns (its parent, a
                    // sibling) would write columns that row's entity does not have. What Core Data does then is
                    // undocumented; here the request fails as for any other broken constraint.
                    guard written.entity.isKindOf(entity: plan.entity) else {
                        let id = objectID(of: written.entity, primaryKey: written.primaryKey)
                        throw PersistenceError(.managedObjectConstraintMerge,
                                               "\(place), row \(position): its constrained values match \(written.entity.entityName) \(id), which is not a \(plan.entity.entityName), so the row can neither be inserted nor update it; nothing was written.",
                                               objectID: id, url: url)
                    }
                } else {
                    while try statement.step() {}
                }
                count += connection.changes
                // An upsert's new row is recorded here (its update, by the update trigger: see StoreHistorySchema).
                if upserts, written.primaryKey == next, written.entity === plan.entity, recordsHistory {
                    try recordInsertion(of: plan.entity, primaryKey: next)
                }
                if plan.returnsKeys { keys.append(written) }
                next += 1
            }
            // Without upserts every row is new, under fresh keys: recorded in one statement.
            if !upserts, recordsHistory, next > firstKey {
                try recordInsertions(in: schema[plan.entity.rootEntity], keys: firstKey...(next - 1))
            }
            return (count, plan.returnsKeys ? keys.map { objectID(of: $0.entity, primaryKey: $0.primaryKey) } : nil)
        }
    }

    // MARK: - Transaction

    /// Runs `body` in one transaction, rolled back on any error; SQLite's errors become Core Data errors (`NSError`) that
    /// say which request failed, with the SQL.
    private func inBatchTransaction<T>(_ place: String, _ body: () throws -> T) throws -> T {
        try checkWritable()
        defer { abandonHistoryTransaction() }
        do {
            return try connection.inTransaction {
                // The request's history is written in its transaction, by the triggers (see StoreHistorySchema).
                try beginHistoryTransaction()
                let result = try body()
                try endHistoryTransaction()
                return result
            }
        } catch let error as SQLiteError where error.isConstraintViolation {
            throw PersistenceError(.managedObjectConstraintMerge,
                                   "\(place) would break a uniqueness constraint (\(error.message)); nothing was written.",
                                   sql: error.sql, sqliteCode: error.code, url: url)
        } catch let error as SQLiteError {
            throw PersistenceError(.persistentStoreSave, "\(place) failed: \(error.message) (SQLite \(error.code)); nothing was written.",
                                   sql: error.sql, sqliteCode: error.code, url: url)
        }
    }
}
