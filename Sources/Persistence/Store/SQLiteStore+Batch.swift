import Foundation

/// The SQL of the batch requests. Each runs in one transaction of its own: an error anywhere rolls everything
/// back, so the store is exactly as before. Rows are chosen, changed and deleted as sets, not one by one.
extension SQLiteStore {
    // MARK: - Update

    /// Runs a batch update; returns how many rows it changed and, when asked, their IDs.
    func executeBatchUpdate(_ plan: BatchUpdatePlan) throws -> (count: Int, objectIDs: [ManagedObjectID]?) {
        let table = schema[plan.entity]
        let place = "Batch update of \(plan.entity.name)"
        var sql = "UPDATE \(table.name) AS t0 SET Z_OPT = Z_OPT + 1"
        var arguments: [SQLiteValue] = []
        for assignment in plan.assignments {
            sql += ", \(assignment.column) = \(assignment.sql)"
            arguments += assignment.arguments
        }
        let query = plan.query
        if query.joins.isEmpty {
            if let condition = query.whereClause { sql += " WHERE \(condition)" }
        } else {
            // Key paths through to-one relationships need joins, which an UPDATE cannot have: choose the rows in a
            // subquery (its own `t0` is the same table).
            sql += " WHERE t0.Z_PK IN (SELECT t0.Z_PK FROM \(table.name) t0 \(query.joins)"
            if let condition = query.whereClause { sql += " WHERE \(condition)" }
            sql += ")"
        }
        arguments += query.arguments
        let returning = plan.returnsKeys || !plan.checks.isEmpty
        if returning { sql += " RETURNING Z_PK" + plan.checks.map { ", \($0.column)" }.joined() }

        return try inBatchTransaction(place) {
            let statement = try connection.prepare(sql)
            try statement.bind(arguments)
            defer { try? statement.reset(clearingBindings: false) }
            var keys: [Int64] = []
            while try statement.step() {
                let key = statement.int64(at: 0)
                for (offset, check) in plan.checks.enumerated() {
                    let value = statement.value(at: Int32(offset + 1))
                    guard let problem = check.problem(with: value) else { continue }
                    let id = objectID(of: plan.entity, primaryKey: key)
                    throw PersistenceError(
                        value == .null ? .validationMissingMandatoryProperty : .managedObjectValidation,
                        "\(place): \(check.attribute.name) = \(check.expression) \(problem) for \(id); nothing was changed.",
                        objectID: id, key: check.attribute.name,
                        value: BatchUpdatePlan.Check.persistentValue(value), sql: sql)
                }
                if plan.returnsKeys { keys.append(key) }
            }
            return (connection.changes, plan.returnsKeys ? keys.map { objectID(of: plan.entity, primaryKey: $0) } : nil)
        }
    }

    // MARK: - Delete

    /// Runs a batch delete: gathers the request's rows and everything its cascade rules reach, checks deny rules,
    /// applies nullify rules, then deletes. Returns how many rows it deleted and, when asked, their IDs.
    func executeBatchDelete(_ plan: BatchDeletePlan) throws -> (count: Int, objectIDs: [ManagedObjectID]?) {
        let graph = BatchDeleteGraph(schema: schema)
        let place = "Batch delete of \(plan.entity.name)"
        try connection.execute(graph.createScratchSQL)
        return try inBatchTransaction(place) {
            // Round 0: the request's own rows.
            var found = 0
            switch plan.roots {
            case .query(let query):
                let select = sql(for: query, projection: "t0.Z_PK, 0")
                found = try connection.run(BatchDeleteGraph.rootsSQL(plan.entity, select: select), arguments(for: query))
            case .primaryKeys(let keys):
                let table = schema[plan.entity]
                for chunk in SQLKeyList.chunks(of: keys) {
                    let marks = SQLKeyList.placeholders(chunk.count)
                    let select = "SELECT Z_PK, 0 FROM \(table.name) WHERE Z_PK IN (\(marks))"
                    found += try connection.run(BatchDeleteGraph.rootsSQL(plan.entity, select: select), chunk.map(SQLiteValue.integer))
                }
            }
            guard found > 0 else { return (0, plan.returnsKeys ? [] : nil) }

            // Later rounds: what cascade rules reach from the rows the round before added.
            var gathered: Set<Int> = []
            var frontier: Set<Int> = [plan.entity.index]
            var round: Int64 = 0
            // Cascades into entities with nothing more to do are deleted in one statement at the end, not gathered.
            var directDeletes: [String] = []
            while !frontier.isEmpty {
                gathered.formUnion(frontier)
                var next: Set<Int> = []
                for entityIndex in frontier.sorted() {
                    let entity = model.entities[entityIndex]
                    for (index, relationship) in entity.relationshipAt.enumerated() {
                        guard let relationship, relationship.deleteRule == .cascade else { continue }
                        if !plan.returnsKeys, relationship.destinationEntity !== plan.entity,
                           let direct = graph.directCascadeSQL(relationship, of: entity) {
                            directDeletes.append(direct)
                            continue
                        }
                        guard let cascade = graph.cascadeSQL(relationship, at: index, of: entity) else { continue }
                        if try connection.run(cascade, [.integer(round + 1), .integer(round)]) > 0 {
                            next.insert(relationship.destinationEntity.index)
                        }
                    }
                }
                frontier = next
                round += 1
            }
            let entities = gathered.sorted().map { model.entities[$0] }

            // Deny: refuse before anything changes.
            for entity in entities {
                for (index, relationship) in entity.relationshipAt.enumerated() {
                    guard let relationship, relationship.deleteRule == .deny,
                          let deny = graph.denySQL(relationship, at: index, of: entity) else { continue }
                    let blocked = try connection.query(deny)
                    guard let first = blocked.first, case .integer(let key) = first[0], case .integer(let related) = first[1] else { continue }
                    let id = objectID(of: entity, primaryKey: key)
                    let others = blocked.count > 1 ? " (and so do \(blocked.count - 1) more \(entity.name) object(s))" : ""
                    throw PersistenceError(
                        .validationRelationshipDeniedDelete,
                        "\(place): \(entity.name) \(id) cannot be deleted: its relationship '\(relationship.name)' still holds \(related) object(s) that are not being deleted, and its delete rule is deny\(others). Nothing was deleted.",
                        objectID: id, key: relationship.name, sql: deny)
                }
            }

            // Nullify: clear what the rows that stay hold of the rows that go.
            for entity in entities {
                for (index, relationship) in entity.relationshipAt.enumerated() {
                    guard let relationship, relationship.deleteRule == .nullify,
                          let nullify = graph.nullifySQL(relationship, at: index, of: entity) else { continue }
                    try connection.run(nullify)
                }
            }

            var objectIDs: [ManagedObjectID]?
            if plan.returnsKeys {
                // The request's own rows first, then by round (nearest first), entity and key.
                var keyed: [(round: Int64, entity: Int, key: Int64)] = []
                for entity in entities {
                    for row in try connection.query("SELECT Z_PK, Z_ROUND FROM \(BatchDeleteGraph.scratchTable(of: entity))") {
                        if case .integer(let key) = row[0], case .integer(let round) = row[1] { keyed.append((round, entity.index, key)) }
                    }
                }
                keyed.sort { ($0.round, $0.entity, $0.key) < ($1.round, $1.entity, $1.key) }
                objectIDs = keyed.map { objectID(of: model.entities[$0.entity], primaryKey: $0.key) }
            }
            var count = 0
            for statement in directDeletes { count += try connection.run(statement) }
            for entity in entities {
                let statements = graph.deleteSQL(entity)
                for (position, statement) in statements.enumerated() {
                    let changed = try connection.run(statement)
                    // The last statement deletes the entity's own rows.
                    if position == statements.count - 1 { count += changed }
                }
            }
            for entity in entities { try connection.run("DELETE FROM \(BatchDeleteGraph.scratchTable(of: entity))") }
            return (count, objectIDs)
        }
    }

    // MARK: - Insert

    /// Runs a batch insert; returns how many rows it wrote and, when asked, their IDs.
    func executeBatchInsert(_ plan: BatchInsertPlan) throws -> (count: Int, objectIDs: [ManagedObjectID]?) {
        guard !plan.rows.isEmpty else { return (0, plan.returnsKeys ? [] : nil) }
        let place = "Batch insert into \(plan.entity.name)"
        let upserts = !plan.entity.uniquenessConstraints.isEmpty
        return try inBatchTransaction(place) {
            var next = try allocatePrimaryKeys(for: plan.entity, count: plan.rows.count)
            // Rows usually all give the same keys, so one prepared statement serves them all.
            var statements: [[Int]: SQLiteStatement] = [:]
            defer { for statement in statements.values { try? statement.reset() } }
            var keys: [Int64] = []
            var count = 0
            for row in plan.rows {
                let statement: SQLiteStatement
                if let prepared = statements[row.given] {
                    try prepared.reset(clearingBindings: false)
                    statement = prepared
                } else {
                    statement = try connection.prepare(plan.insertSQL(given: row.given))
                    statements[row.given] = statement
                }
                try statement.bind(next, at: 1)
                for (position, value) in row.values.enumerated() { try statement.bind(value, at: Int32(position + 2)) }
                var written = next
                if upserts && plan.returnsKeys {
                    // An upsert that updated a stored row returns that row's key.
                    if try statement.step() { written = statement.int64(at: 0) }
                    while try statement.step() {}
                } else {
                    while try statement.step() {}
                }
                count += connection.changes
                if plan.returnsKeys { keys.append(written) }
                next += 1
            }
            return (count, plan.returnsKeys ? keys.map { objectID(of: plan.entity, primaryKey: $0) } : nil)
        }
    }

    // MARK: - Transaction

    /// Runs `body` in one transaction, rolled back on any error; SQLite's errors become ``PersistenceError``s that
    /// say which request failed, with the SQL.
    private func inBatchTransaction<T>(_ place: String, _ body: () throws -> T) throws -> T {
        do {
            return try connection.inTransaction(body)
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
