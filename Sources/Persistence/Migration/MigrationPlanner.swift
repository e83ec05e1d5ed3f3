import Foundation

/// Infers the mapping from the model a store was written with to another, for the changes Apple lists as
/// lightweight, and turns it into a ``MigrationPlan``; anything else throws 134140, naming the entity, the property
/// and why.
///
/// What it infers, as Apple documents for lightweight migration ("Migrating your data model automatically"):
/// attributes, relationships and entities added, removed or renamed (a renamed one names its old name in its
/// `renamingIdentifier`); an optional property becoming required (nil values take the default value) or the other
/// way round; a to-one becoming to-many and an unordered to-many becoming ordered or the other way round; properties
/// moving up or down an inheritance hierarchy, parents added or removed, entities moved out of a hierarchy. What it
/// refuses, as Apple does: merging two hierarchies (entities of two tables in one), a to-many becoming to-one, an
/// attribute changing its type, an attribute becoming a relationship or the other way round, a relationship pointing
/// at another entity.
///
/// Objects keep their primary keys, so relationships keep their targets wherever the rows move.
struct MigrationPlanner {
    let source: ManagedObjectModel
    let destination: ManagedObjectModel
    private let sourceSchema: StoreSchema
    private let destinationSchema: StoreSchema
    /// Per destination entity index: the source entity whose objects become its objects.
    private var entityMap: [EntityDescription?]
    /// Per source entity index: the destination entity its objects become.
    private var reverseMap: [EntityDescription?]
    /// The store's indexes: name, table and statement.
    private let existingIndexes: [(name: String, table: String, sql: String)]

    init(from source: ManagedObjectModel, to destination: ManagedObjectModel,
         existingIndexes: [(name: String, table: String, sql: String)] = []) throws {
        // A migration uses both models, as a coordinator does: a model built in code is checked and frozen here
        // (its entities' positions and links are set only then).
        try source.freeze()
        try destination.freeze()
        self.source = source
        self.destination = destination
        sourceSchema = StoreSchema(model: source)
        destinationSchema = StoreSchema(model: destination)
        self.existingIndexes = existingIndexes
        entityMap = Array(repeating: nil, count: destination.entities.count)
        reverseMap = Array(repeating: nil, count: source.entities.count)
        for entity in destination.entities {
            guard let old = Self.counterpart(of: entity.entityName, renamingIdentifier: entity.renamingIdentifier,
                                             among: source.entities.map { ($0.entityName, $0.renamingIdentifier) })
            else { continue }
            let match = source.entitiesByName[old]!
            if let other = reverseMap[match.index] {
                throw Self.notInferable(entity.entityName, nil, "both '\(other.entityName)' and '\(entity.entityName)' take the objects of the store's entity '\(old)'")
            }
            entityMap[entity.index] = match
            reverseMap[match.index] = entity
        }
        try checkHierarchies()
        for entity in destination.entities {
            guard let old = entityMap[entity.index] else { continue }
            for index in entity.properties.indices {
                _ = try propertySource(of: entity, index, from: old)
            }
        }
    }

    // MARK: - Matching

    /// The name in the source of what is called `name` (renamed from `renamingIdentifier`) in the destination:
    /// first by canonical name (Apple: the renaming identifier "creates a canonical name"), then by name.
    static func counterpart(of name: String, renamingIdentifier: String?,
                            among candidates: [(name: String, renamingIdentifier: String?)]) -> String? {
        let canonical = renamingIdentifier ?? name
        if let hit = candidates.first(where: { ($0.renamingIdentifier ?? $0.name) == canonical }) { return hit.name }
        if let hit = candidates.first(where: { $0.name == canonical }) { return hit.name }
        return candidates.first(where: { $0.name == name })?.name
    }

    static func notInferable(_ entity: String, _ key: String?, _ why: String) -> PersistenceError {
        PersistenceError(.migrationMissingMappingModel,
                         "Can't find mapping model for migration: the change to '\(entity)\(key.map { "." + $0 } ?? "")' is not a lightweight one (\(why)). Keep the old model version and migrate in stages with a custom stage (StagedMigrationManager), or delete the store.",
                         entityName: entity, key: key)
    }

    /// Two entities whose objects lived in different tables (different hierarchies) cannot share one table now:
    /// their primary keys were counted apart and could clash. Apple: "you cannot merge entity hierarchies".
    private func checkHierarchies() throws {
        var sourceRoots: [String: (root: String, entity: String)] = [:]
        for entity in destination.entities {
            guard let old = entityMap[entity.index] else { continue }
            let root = entity.rootEntity.entityName
            let oldRoot = old.rootEntity.entityName
            if let seen = sourceRoots[root], seen.root != oldRoot {
                throw Self.notInferable(entity.entityName, nil, "it now shares a hierarchy with '\(seen.entity)', but the store kept their objects in two separate hierarchies ('\(seen.root)' and '\(oldRoot)'); entity hierarchies cannot be merged")
            }
            sourceRoots[root] = (oldRoot, entity.entityName)
        }
    }

    /// Where property `index` of destination entity `entity` comes from, in objects of source entity `old`: the
    /// source property's index, or nil for a new property.
    private func propertySource(of entity: EntityDescription, _ index: Int, from old: EntityDescription) throws -> Int? {
        let property = entity.properties[index]
        guard let name = Self.counterpart(of: property.name, renamingIdentifier: property.renamingIdentifier,
                                          among: old.properties.map { ($0.name, $0.renamingIdentifier) }),
              let oldIndex = old.propertyIndexByName[name] else { return nil }
        let at = (entity.entityName, property.name)
        switch (property.role, old.properties[oldIndex].role) {
        case (.attribute(let new), .attribute(let was)):
            if new.attributeType != was.attributeType {
                throw Self.notInferable(at.0, at.1, "its type changed from \(was.attributeType.rawValue) to \(new.attributeType.rawValue); lightweight migration does not convert values")
            }
        case (.relationship(let new), .relationship(let was)):
            if was.isToMany && !new.isToMany {
                throw Self.notInferable(at.0, at.1, "it changed from to-many to to-one; an object could hold several related objects and only one can be kept")
            }
            guard let target = reverseMap[was.destinationEntity.index] else {
                throw Self.notInferable(at.0, at.1, "it pointed at '\(was.destinationEntityName)', which is no longer in the model, and now points at '\(new.destinationEntityName)'")
            }
            if !target.isKindOf(entity: new.destinationEntity) {
                throw Self.notInferable(at.0, at.1, "it pointed at '\(was.destinationEntityName)' (now '\(target.entityName)') and now points at '\(new.destinationEntityName)', another entity")
            }
        case (.attribute, .relationship):
            throw Self.notInferable(at.0, at.1, "it was a relationship and is now an attribute")
        case (.relationship, .attribute):
            throw Self.notInferable(at.0, at.1, "it was an attribute and is now a relationship")
        }
        return oldIndex
    }

    // MARK: - Planning

    /// Where a destination column's values come from, for the rows of one entity.
    private enum ColumnSource: Equatable {
        /// The same row's column in the old table.
        case column(String)
        /// The same row's column, a nil value replaced by a constant (an attribute that became required).
        case filled(String, String)
        /// A constant (an SQL literal, `NULL` included).
        case literal(String)
        /// An SQL expression over the old row, aliased `s`.
        case expression(String)

        var sql: String {
            switch self {
            case .column(let name): return "s." + name
            case .filled(let name, let literal): return "COALESCE(s.\(name), \(literal))"
            case .literal(let literal): return literal
            case .expression(let expression): return expression
            }
        }
    }

    /// The plan. `existingTables` are the store's table names (to keep temporary names clear of them).
    func plan() throws -> MigrationPlan {
        var plan = MigrationPlan()
        var builder = Builder(planner: self)
        try builder.build(into: &plan)
        return plan
    }

    /// The state of one planning: link tables made so far and temporary names.
    private struct Builder {
        let planner: MigrationPlanner
        var linkTables: [String: String] = [:]
        var prelude: [String] = []
        var counter = 0

        init(planner: MigrationPlanner) { self.planner = planner }

        mutating func temporaryName() -> String {
            counter += 1
            return "Z_MIGRATION_\(counter)"
        }

        mutating func build(into plan: inout MigrationPlan) throws {
            let source = planner.sourceSchema
            let destination = planner.destinationSchema
            prelude.append("CREATE TEMP TABLE Z_MIGRATION_KEYS AS SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY")
            var body: [String] = []
            var keptTables: Set<String> = []
            var renames: [(from: String, to: String)] = []
            var droppedIndexes: Set<String> = []

            // Entity tables, one per destination root.
            for root in destination.entities where root.entity.superentity == nil {
                let family = root.entity.family.map { destination[$0] }
                let mapped = family.compactMap { table in planner.entityMap[table.entity.index].map { (table, $0) } }
                for (table, old) in mapped { try addChecks(for: table, from: old, into: &plan) }
                if let inPlace = try inPlaceChanges(root: root, family: family, mapped: mapped) {
                    keptTables.insert(inPlace.sourceTable)
                    for index in planner.existingIndexes where index.table == inPlace.sourceTable
                        && inPlace.droppedColumns.contains(where: { Self.mentions(index.sql, $0) }) {
                        droppedIndexes.insert(index.name)
                    }
                    body += inPlace.statements
                    if inPlace.sourceTable != root.name { renames.append((inPlace.sourceTable, root.name)) }
                    continue
                }
                let temporary = temporaryName()
                body.append(Self.createStatement(of: root, named: temporary, in: destination))
                for (table, old) in mapped where !table.entity.isAbstract {
                    let oldTable = source[old]
                    var columns = ["Z_PK", "Z_OPT"]
                    var values = ["s.Z_PK", "s.Z_OPT"]
                    if root.entity.isInHierarchy {
                        columns.append("Z_ENT")
                        values.append(String(table.number))
                    }
                    for (column, value) in try columnSources(of: table, from: old) {
                        columns.append(column)
                        values.append(value.sql)
                    }
                    let rows = oldTable.entity.isInHierarchy ? " WHERE s.Z_ENT = \(oldTable.number)" : ""
                    body.append("INSERT INTO \(temporary) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(oldTable.name) AS s\(rows)")
                }
                renames.append((temporary, root.name))
            }

            // Join tables.
            for table in destination.entities {
                let entity = table.entity
                for (index, join) in table.joinTables.sorted(by: { $0.key < $1.key })
                where join.ownerEntity === entity && index >= entity.inheritedPropertyCount {
                    if let kept = keptJoinTable(for: join, ownerIndex: index) {
                        keptTables.insert(kept)
                        if kept != join.name { renames.append((kept, join.name)) }
                        continue
                    }
                    let temporary = temporaryName()
                    body.append("""
                        CREATE TABLE \(temporary) (Z_OWNER INTEGER NOT NULL, Z_TARGET INTEGER NOT NULL, \
                        Z_OWNER_ORDER INTEGER, Z_TARGET_ORDER INTEGER, PRIMARY KEY (Z_OWNER, Z_TARGET))
                        """)
                    if let links = try linkTable(for: entity, index) {
                        body.append("INSERT OR IGNORE INTO \(temporary) (Z_OWNER, Z_TARGET, Z_OWNER_ORDER, Z_TARGET_ORDER) SELECT src, dst, srcOrder, dstOrder FROM \(links)")
                    }
                    renames.append((temporary, join.name))
                }
            }

            // Old tables that nothing keeps.
            var oldTables: [String] = []
            for table in source.entities where table.entity.superentity == nil { oldTables.append(table.name) }
            for table in source.entities {
                for (index, join) in table.joinTables where join.ownerEntity === table.entity && index >= table.entity.inheritedPropertyCount {
                    oldTables.append(join.name)
                }
            }
            for name in oldTables where !keptTables.contains(name) { body.append("DROP TABLE \(name)") }

            // Final names: through temporary ones, so that two tables can swap names.
            var staged: [(String, String)] = []
            for (from, to) in renames {
                if keptTables.contains(from) {
                    let temporary = temporaryName()
                    body.append("ALTER TABLE \(from) RENAME TO \(temporary)")
                    staged.append((temporary, to))
                } else {
                    staged.append((from, to))
                }
            }
            for (from, to) in staged { body.append("ALTER TABLE \(from) RENAME TO \(to)") }

            // Key counters: a root counts on from the highest counter of the old root(s) its objects came from.
            body.append("DELETE FROM Z_PRIMARYKEY")
            for table in destination.entities.sorted(by: { $0.number < $1.number }) {
                var counter = "0"
                if table.entity.superentity == nil {
                    let oldRoots = Set(table.entity.family.compactMap { planner.entityMap[$0.index]?.rootEntity.entityName })
                    if !oldRoots.isEmpty {
                        let names = oldRoots.sorted().map(Self.quote).joined(separator: ", ")
                        counter = "MAX((SELECT COALESCE(MAX(Z_MAX), 0) FROM temp.Z_MIGRATION_KEYS WHERE Z_NAME IN (\(names))), (SELECT COALESCE(MAX(Z_PK), 0) FROM \(table.name)))"
                    }
                }
                body.append("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_MAX) VALUES (\(table.number), \(Self.quote(table.entity.entityName)), \(counter))")
            }
            body.append("DROP TABLE temp.Z_MIGRATION_KEYS")
            for name in linkTables.values.sorted() { body.append("DROP TABLE temp.\(name)") }

            plan.prelude = prelude
            plan.statements = droppedIndexes.sorted().map { "DROP INDEX IF EXISTS \($0)" } + body
            plan.expectedIndexes = destination.createStatements.compactMap { statement in
                guard statement.hasPrefix("CREATE INDEX ") || statement.hasPrefix("CREATE UNIQUE INDEX ") else { return nil }
                let words = statement.split(separator: " ")
                let name = statement.hasPrefix("CREATE UNIQUE") ? words[3] : words[2]
                return (String(name), statement)
            }
        }

        /// `CREATE TABLE` of the destination root `root`, under the name `name`.
        static func createStatement(of root: EntityTable, named name: String, in schema: StoreSchema) -> String {
            let statement = schema.createStatements.first { $0.hasPrefix("CREATE TABLE \(root.name) (") }!
            return "CREATE TABLE \(name) " + statement.dropFirst("CREATE TABLE \(root.name) ".count)
        }

        static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

        /// `true` when `sql` names `column` as a word.
        static func mentions(_ sql: String, _ column: String) -> Bool {
            sql.range(of: "\\b\(column)\\b", options: .regularExpression) != nil
        }

        // MARK: Checks

        /// Rows that cannot move: a required attribute or to-one with nothing to fill it, objects of an entity that
        /// became abstract. Core Data infers such mappings and fails while migrating (134110, "missing attribute
        /// values on mandatory destination attribute"); so does this plan, before it changes anything.
        mutating func addChecks(for table: EntityTable, from old: EntityDescription, into plan: inout MigrationPlan) throws {
            let oldTable = planner.sourceSchema[old]
            let rows = oldTable.entity.isInHierarchy ? "Z_ENT = \(oldTable.number)" : "1"
            let entity = table.entity
            if entity.isAbstract {
                plan.checks.append(.init(sql: "SELECT COUNT(*) FROM \(oldTable.name) WHERE \(rows)",
                                         failure: "the store holds objects of '\(old.entityName)', whose entity '\(entity.entityName)' is now abstract and can have no objects of its own",
                                         entityName: entity.entityName, key: nil))
                return
            }
            for (index, property) in entity.properties.enumerated() {
                let required: Bool
                switch property.role {
                case .attribute(let a): required = !a.isOptional && !a.isTransient && a.persistentDefaultValue.isNull
                case .relationship(let r): required = !r.isOptional && !r.isToMany
                }
                guard required, let column = table.columns[index] else { continue }
                let sourceValue = try columnSources(of: table, from: old).first { $0.column == column }?.source
                let missing: String
                switch sourceValue {
                case .column(let name)?: missing = "s.\(name) IS NULL"
                case .filled?: missing = "0"
                case .expression(let expression)?: missing = "(\(expression)) IS NULL"
                case .literal(let literal)?: missing = literal == "NULL" ? "1" : "0"
                case nil: missing = "1"
                }
                guard missing != "0" else { continue }
                plan.checks.append(.init(sql: "SELECT COUNT(*) FROM \(oldTable.name) AS s WHERE \(rows) AND \(missing)",
                                         failure: "Validation error missing attribute values on mandatory destination attribute: '\(entity.entityName).\(property.name)' is required and has no default value, and objects of '\(old.entityName)' in the store have no value for it. Give it a default value, or fill it in a custom migration stage",
                                         entityName: entity.entityName, key: property.name))
            }
        }

        // MARK: Columns

        /// The destination columns of `table`'s rows (its own and inherited properties, order columns) with where
        /// their values come from in rows of `old`.
        mutating func columnSources(of table: EntityTable, from old: EntityDescription) throws -> [(column: String, source: ColumnSource)] {
            let entity = table.entity
            let oldTable = planner.sourceSchema[old]
            var result: [(column: String, source: ColumnSource)] = []
            for (index, property) in entity.properties.enumerated() {
                let oldIndex = try planner.propertySource(of: entity, index, from: old)
                if let column = table.columns[index] {
                    switch property.role {
                    case .attribute(let attribute):
                        let literal = Self.literal(attribute.attributeType.sqliteValue(attribute.persistentDefaultValue))
                        if let oldIndex, let oldColumn = oldTable.columns[oldIndex] {
                            // A nil value of an attribute that became required takes the default value.
                            let fills = !attribute.isOptional && literal != "NULL" && old.attributeAt[oldIndex]?.isOptional != false
                            result.append((column, fills ? .filled(oldColumn, literal) : .column(oldColumn)))
                        } else {
                            result.append((column, .literal(literal)))
                        }
                    case .relationship:
                        if let oldIndex, let oldColumn = oldTable.columns[oldIndex] {
                            result.append((column, .column(oldColumn)))
                        } else if let links = try linkTable(for: entity, index) {
                            result.append((column, .expression("(SELECT dst FROM temp.\(links) WHERE src = s.Z_PK LIMIT 1)")))
                        } else {
                            result.append((column, .literal("NULL")))
                        }
                    }
                }
                if let orderColumn = table.orderColumns[index] {
                    if let oldIndex, oldTable.columns[oldIndex] != nil {
                        result.append((orderColumn, oldTable.orderColumns[oldIndex].map(ColumnSource.column) ?? .literal("NULL")))
                    } else if let links = try linkTable(for: entity, index) {
                        result.append((orderColumn, .expression("(SELECT dstOrder FROM temp.\(links) WHERE src = s.Z_PK LIMIT 1)")))
                    } else {
                        result.append((orderColumn, .literal("NULL")))
                    }
                }
            }
            return result
        }

        static func literal(_ value: SQLiteValue) -> String {
            switch value {
            case .null: return "NULL"
            case .integer(let v): return String(v)
            case .real(let v): return v.isFinite ? "\(v)" : "NULL"
            case .text(let v): return quote(v)
            case .blob(let v): return "X'" + v.map { String(format: "%02X", $0) }.joined() + "'"
            }
        }

        // MARK: Links

        /// A temporary table `(src, dst, srcOrder, dstOrder)` of the links the store holds for relationship `index`
        /// of destination entity `entity` — read from the relationship it was, or, for a new relationship, from its
        /// inverse's old self — or nil when neither existed.
        mutating func linkTable(for entity: EntityDescription, _ index: Int) throws -> String? {
            guard let relationship = entity.relationshipAt[index] else { return nil }
            // The relationship is declared by some entity of the hierarchy; its links are the same for all.
            let declaring = declaringEntity(of: relationship.name, in: entity)
            let key = "\(declaring.entityName).\(relationship.name)"
            if let name = linkTables[key] { return name }
            var select: String?
            if let old = planner.entityMap[declaring.index],
               let oldIndex = try planner.propertySource(of: declaring, declaring.propertyIndexByName[relationship.name]!, from: old),
               let oldRelationship = old.relationshipAt[oldIndex] {
                select = links(of: oldRelationship, on: old, reversed: false)
            } else if let inverse = relationship.inverseRelationship, inverse.inverseRelationship === relationship,
                      let inverseOwner = Optional(declaringEntity(of: inverse.name, in: relationship.destinationEntity)),
                      let old = planner.entityMap[inverseOwner.index],
                      let oldIndex = try planner.propertySource(of: inverseOwner, inverseOwner.propertyIndexByName[inverse.name]!, from: old),
                      let oldRelationship = old.relationshipAt[oldIndex] {
                select = links(of: oldRelationship, on: old, reversed: true)
            }
            guard let select else { return nil }
            counter += 1
            let name = "Z_MIGRATION_LINKS_\(counter)"
            prelude.append("CREATE TEMP TABLE \(name) AS \(select)")
            prelude.append("CREATE INDEX temp.\(name)_SRC ON \(name) (src)")
            linkTables[key] = name
            return name
        }

        /// The entity of `entity`'s hierarchy that declares the property `name`.
        func declaringEntity(of name: String, in entity: EntityDescription) -> EntityDescription {
            var current = entity
            while let parent = current.superentity, parent.propertyIndexByName[name] != nil { current = parent }
            return current
        }

        /// `SELECT src, dst, srcOrder, dstOrder` of the links of source relationship `relationship` of `entity`
        /// (the other way round when `reversed`).
        func links(of relationship: RelationshipDescription, on entity: EntityDescription, reversed: Bool) -> String {
            let schema = planner.sourceSchema
            let table = schema[entity]
            let index = entity.propertyIndexByName[relationship.name]!
            var a = "", b = "", aOrder = "NULL", bOrder = "NULL", from = ""
            if let column = table.columns[index] {
                (a, b, from) = ("Z_PK", column, "\(table.name) WHERE \(column) IS NOT NULL")
                if let order = table.orderColumns[index] { bOrder = order }
            } else if let join = table.joinTables[index] {
                (a, b, from) = (join.selfColumn, join.otherColumn, join.name)
                aOrder = join.selfOrderColumn
                bOrder = join.readsFromOwner ? "Z_TARGET_ORDER" : "Z_OWNER_ORDER"
            } else if let inverse = relationship.inverseRelationship {
                let target = schema[relationship.destinationEntity]
                let inverseIndex = relationship.destinationEntity.propertyIndexByName[inverse.name]!
                let column = target.columns[inverseIndex]!
                (a, b, from) = (column, "Z_PK", "\(target.name) WHERE \(column) IS NOT NULL")
                if let order = target.orderColumns[inverseIndex] { aOrder = order }
            }
            if reversed { swap(&a, &b); swap(&aOrder, &bOrder) }
            return "SELECT \(a) AS src, \(b) AS dst, \(aOrder) AS srcOrder, \(bOrder) AS dstOrder FROM \(from)"
        }

        /// The old join table the destination join table `join` can keep as it is: the old relationship's own,
        /// read from the same side.
        func keptJoinTable(for join: JoinTable, ownerIndex: Int) -> String? {
            let entity = join.ownerEntity
            guard let old = planner.entityMap[entity.index],
                  let oldIndex = try? planner.propertySource(of: entity, ownerIndex, from: old),
                  let oldRelationship = old.relationshipAt[oldIndex],
                  let oldJoin = planner.sourceSchema[old].joinTables[oldIndex],
                  oldJoin.ownerRelationship === oldRelationship else { return nil }
            return oldJoin.name
        }

        // MARK: In place

        struct InPlace {
            var sourceTable: String
            var statements: [String] = []
            var droppedColumns: [String] = []
        }

        /// The statements that turn the old table into `root`'s table where it stands, or nil when the table must
        /// be copied: when its objects come from one old table that feeds no other, with the same inheritance
        /// shape, and each column either is an old column (kept or renamed) or is new.
        mutating func inPlaceChanges(root: EntityTable, family: [EntityTable],
                                     mapped: [(EntityTable, EntityDescription)]) throws -> InPlace? {
            guard let first = mapped.first else { return nil }
            let oldRoot = planner.sourceSchema[first.1.rootEntity]
            let oldFamily = oldRoot.entity.family
            guard oldRoot.entity.isInHierarchy == root.entity.isInHierarchy else { return nil }
            // Every old entity of the table becomes an entity of this family, or goes.
            for old in oldFamily {
                if let new = planner.reverseMap[old.index], new.rootEntity !== root.entity { return nil }
            }
            if mapped.contains(where: { $0.0.entity.isAbstract }) { return nil }

            // Per destination column: its source, the same for every entity that has it.
            var sources: [String: ColumnSource] = [:]
            var holders: [String: [EntityTable]] = [:]
            var order: [String] = []
            for table in family {
                guard let old = planner.entityMap[table.entity.index] else {
                    // A new entity of the family has no rows yet; its columns must exist all the same.
                    for (index, column) in table.columns.enumerated() where column != nil && sources[column!] == nil {
                        if index < table.entity.inheritedPropertyCount { continue }
                        sources[column!] = .literal("NULL")
                        order.append(column!)
                    }
                    for (_, column) in table.orderColumns where sources[column] == nil {
                        sources[column] = .literal("NULL")
                        order.append(column)
                    }
                    continue
                }
                for (column, source) in try columnSources(of: table, from: old) {
                    if let seen = sources[column] {
                        if seen != source {
                            // A new entity's NULL does not disagree with the others' values.
                            if seen == .literal("NULL") && holders[column] == nil { sources[column] = source } else { return nil }
                        }
                    } else {
                        sources[column] = source
                        order.append(column)
                    }
                    holders[column, default: []].append(table)
                }
            }
            // An old column a new one keeps must have held values only for the entities that keep them.
            let oldColumns = Set(oldFamily.flatMap { entity -> [String] in
                let table = planner.sourceSchema[entity]
                return table.columns.compactMap { $0 } + Array(table.orderColumns.values)
            })
            var renamed: [(from: String, to: String)] = []
            var used: Set<String> = []
            for column in order {
                let oldColumn: String
                switch sources[column]! {
                case .column(let name), .filled(let name, _): oldColumn = name
                default: continue
                }
                guard used.insert(oldColumn).inserted else { return nil }
                let holdersOld = Set((holders[column] ?? []).compactMap { planner.entityMap[$0.entity.index]?.entityName })
                let oldHolders = Set(oldFamily.filter { entity in
                    let table = planner.sourceSchema[entity]
                    return table.columns.contains(oldColumn) || table.orderColumns.values.contains(oldColumn)
                }.map(\.entityName))
                guard oldHolders.isSubset(of: holdersOld) else { return nil }
                if oldColumn != column { renamed.append((oldColumn, column)) }
            }

            var result = InPlace(sourceTable: oldRoot.name)
            let table = oldRoot.name
            // Objects of entities that are gone.
            let removed = oldFamily.filter { planner.reverseMap[$0.index] == nil }
            if !removed.isEmpty && oldRoot.entity.isInHierarchy {
                let numbers = removed.map { String(planner.sourceSchema[$0].number) }.joined(separator: ", ")
                result.statements.append("DELETE FROM \(table) WHERE Z_ENT IN (\(numbers))")
            }
            // Entity numbers follow names, so they move when entities come or go.
            if root.entity.isInHierarchy {
                let moves = mapped.filter { planner.sourceSchema[$0.1].number != $0.0.number }
                if !moves.isEmpty {
                    let cases = moves.map { "WHEN \(planner.sourceSchema[$0.1].number) THEN \($0.0.number)" }.joined(separator: " ")
                    result.statements.append("UPDATE \(table) SET Z_ENT = CASE Z_ENT \(cases) ELSE Z_ENT END")
                }
            }
            let dropped = oldColumns.subtracting(used).sorted()
            for column in dropped { result.statements.append("ALTER TABLE \(table) DROP COLUMN \(column)") }
            result.droppedColumns = dropped
            // Renames go through temporary names when one would take a name another still has.
            let remaining = Set(used)
            if renamed.contains(where: { remaining.contains($0.to) }) {
                var staged: [(String, String)] = []
                for (from, to) in renamed {
                    let temporary = temporaryName()
                    result.statements.append("ALTER TABLE \(table) RENAME COLUMN \(from) TO \(temporary)")
                    staged.append((temporary, to))
                }
                for (from, to) in staged { result.statements.append("ALTER TABLE \(table) RENAME COLUMN \(from) TO \(to)") }
            } else {
                for (from, to) in renamed { result.statements.append("ALTER TABLE \(table) RENAME COLUMN \(from) TO \(to)") }
            }
            // New columns, and values for those that are not plain old columns.
            let allRows = Set(family.filter { planner.entityMap[$0.entity.index] != nil }.map(\.number))
            for column in order {
                let type = columnType(of: column, in: family)
                let rows = Set((holders[column] ?? []).map(\.number))
                let hierarchy = root.entity.isInHierarchy
                switch sources[column]! {
                case .column:
                    break
                case .filled(_, let literal):
                    // An attribute that became required: nil values take the default value.
                    result.statements.append("UPDATE \(table) SET \(column) = \(literal) WHERE \(column) IS NULL\(Self.rows(rows, hierarchy: hierarchy, joiner: " AND "))")
                case .literal(let literal):
                    if literal == "NULL" || (rows == allRows && !hierarchy) {
                        // A constant for every row: SQLite adds it without touching them.
                        result.statements.append("ALTER TABLE \(table) ADD COLUMN \(column) \(type)\(literal == "NULL" ? "" : " DEFAULT \(literal)")")
                    } else {
                        result.statements.append("ALTER TABLE \(table) ADD COLUMN \(column) \(type)")
                        result.statements.append("UPDATE \(table) SET \(column) = \(literal)\(Self.rows(rows, hierarchy: hierarchy))")
                    }
                case .expression(let expression):
                    result.statements.append("ALTER TABLE \(table) ADD COLUMN \(column) \(type)")
                    result.statements.append("UPDATE \(table) AS s SET \(column) = \(expression)\(Self.rows(rows, hierarchy: hierarchy))")
                }
            }
            return result
        }

        /// ` WHERE Z_ENT IN (…)` for a hierarchy's rows of `numbers` (the old numbers are gone by then: the entity
        /// numbers were rewritten first).
        static func rows(_ numbers: Set<Int64>, hierarchy: Bool, joiner: String = " WHERE ") -> String {
            guard hierarchy else { return "" }
            return joiner + "Z_ENT IN (\(numbers.sorted().map(String.init).joined(separator: ", ")))"
        }

        /// The SQLite type of a destination column.
        func columnType(of column: String, in family: [EntityTable]) -> String {
            for table in family {
                if let index = table.columns.firstIndex(of: column) {
                    return table.entity.attributeAt[index]?.attributeType.columnType ?? "INTEGER"
                }
            }
            return "INTEGER"
        }
    }
}
