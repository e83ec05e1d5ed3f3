/// How a model maps onto SQLite tables, in Core Data's shape so a learner who opens the file with `sqlite3`
/// sees what a real Core Data store looks like: one table per entity (`ZMOVIE`), the primary key `Z_PK`,
/// the row version `Z_OPT`, one column per attribute and to-one relationship (`ZTITLE`, `ZDIRECTOR`), an order
/// column for the child side of an ordered to-many (`Z_FOK_GROUP`), and a join table for many-to-many and
/// inverse-less to-many relationships. Transient attributes have no column: the store never sees them.
///
/// Entities that inherit from one another share their root's table, as in Core Data: a `Z_ENT` column says which
/// entity each row is, every entity of the hierarchy has its columns there (a subentity's own property gets a
/// numbered column, `ZTITLE1`, when a sibling already uses the name), and primary keys are counted per root, so a
/// key names one row of the whole hierarchy.
struct StoreSchema {
    let entities: [EntityTable]

    init(model: ManagedObjectModel) {
        // Entity numbers (`Z_ENT`) and column names follow the entities' names, never the order of the model's list:
        // a model read from Xcode's file and the same model declared in code open the same store.
        let sorted = model.entities.sorted { $0.entityName < $1.entityName }
        var numbers: [Int64] = Array(repeating: 0, count: model.entities.count)
        for (position, entity) in sorted.enumerated() { numbers[entity.index] = Int64(position + 1) }
        var tables: [EntityTable?] = Array(repeating: nil, count: model.entities.count)
        func make(_ entity: EntityDescription, parent: EntityTable?, used: inout Set<String>) {
            let table = EntityTable(entity: entity, number: numbers[entity.index], parent: parent, usedColumns: &used)
            tables[entity.index] = table
            for child in entity.subentities.sorted(by: { $0.entityName < $1.entityName }) { make(child, parent: table, used: &used) }
        }
        for root in sorted where root.superentity == nil {
            var used: Set<String> = []
            make(root, parent: nil, used: &used)
        }
        let made = tables.map { $0! }
        for table in made where table.entity.hasSubentities {
            table.family = FamilyProjection(table.entity.family.map { made[$0.index] })
        }
        entities = made
        tablesByNumber = Dictionary(uniqueKeysWithValues: made.map { ($0.number, $0) })
    }

    private let tablesByNumber: [Int64: EntityTable]

    subscript(entity: EntityDescription) -> EntityTable { entities[entity.index] }

    /// The table of the entity numbered `number` (`Z_ENT`).
    func table(number: Int64) -> EntityTable? { tablesByNumber[number] }

    /// Statements that create every table and index.
    var createStatements: [String] {
        var statements: [String] = []
        for table in entities where table.entity.superentity == nil {
            var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_OPT INTEGER NOT NULL DEFAULT 1"]
            if table.entity.isInHierarchy { columns.append("Z_ENT INTEGER NOT NULL") }
            // The hierarchy's columns: each entity's own, parents first.
            for member in table.entity.family.map({ entities[$0.index] }) {
                for index in member.entity.properties.indices.dropFirst(member.entity.inheritedPropertyCount) {
                    guard let column = member.columns[index] else { continue }
                    let type = member.entity.attributeAt[index]?.attributeType.columnType ?? "INTEGER"
                    columns.append("\(column) \(type)")
                }
                for (index, column) in member.orderColumns.sorted(by: { $0.value < $1.value })
                where index >= member.entity.inheritedPropertyCount {
                    columns.append("\(column) INTEGER")
                }
            }
            statements.append("CREATE TABLE \(table.name) (\(columns.joined(separator: ", ")))")
            if table.entity.isInHierarchy { statements.append("CREATE INDEX \(table.name)_Z_ENT_INDEX ON \(table.name) (Z_ENT)") }
        }
        for table in entities {
            let entity = table.entity
            let own = entity.properties.indices.dropFirst(entity.inheritedPropertyCount)
            for index in own where entity.relationshipAt[index] != nil {
                if let column = table.columns[index] { statements.append("CREATE INDEX \(table.name)_\(column)_INDEX ON \(table.name) (\(column))") }
            }
            // A subentity's constraints hold among its own family only; the root's hold across the whole table.
            let rows = entity.superentity == nil ? "" : " WHERE " + table.familyCondition(alias: nil)!
            let prefix = EntityTable.tableName(entity)
            for (number, constraint) in entity.uniquenessConstraintKeys.dropFirst(entity.inheritedConstraintCount).enumerated() {
                let columns = constraint.map { table.column(forKey: $0)! }
                statements.append("CREATE UNIQUE INDEX \(prefix)_UNIQUE_\(number) ON \(table.name) (\(columns.joined(separator: ", ")))" + rows)
            }
            for index in entity.indexes {
                let columns = index.elements.map { table.column(forKey: $0.property)! + ($0.isAscending ? "" : " DESC") }
                statements.append("CREATE INDEX \(prefix)_FETCH_\(index.name.uppercased()) ON \(table.name) (\(columns.joined(separator: ", ")))")
            }
            for (index, join) in table.joinTables where join.ownerEntity === entity && index >= entity.inheritedPropertyCount {
                statements.append("""
                    CREATE TABLE \(join.name) (Z_OWNER INTEGER NOT NULL, Z_TARGET INTEGER NOT NULL, \
                    Z_OWNER_ORDER INTEGER, Z_TARGET_ORDER INTEGER, PRIMARY KEY (Z_OWNER, Z_TARGET))
                    """)
                statements.append("CREATE INDEX \(join.name)_TARGET_INDEX ON \(join.name) (Z_TARGET)")
            }
        }
        return statements
    }
}

/// The table of one entity. A class: a save looks it up for every row it writes, and copying a struct of names and
/// tables would retain each of them every time.
final class EntityTable {
    let entity: EntityDescription
    /// `ZMOVIE`; for an entity that inherits, its root's table.
    let name: String
    /// The entity's number: its `Z_ENT` in rows of a hierarchy and in `Z_PRIMARYKEY`.
    let number: Int64
    /// Per property index: its column (stored attributes and to-ones), or nil (to-manys, transient attributes).
    let columns: [String?]
    /// Order columns on this (child) table, keyed by the to-one relationship's property index.
    let orderColumns: [Int: String]
    /// Join tables, keyed by the to-many property index that uses one.
    let joinTables: [Int: JoinTable]
    /// `Z_PK, Z_OPT, <columns…>` — the projection every row read of this entity uses.
    let selectColumns: String
    /// The property index of each column, in column order.
    let columnProperties: [Int]
    /// `INSERT INTO ZMOVIE (Z_PK, Z_OPT, <columns…>) VALUES (?, 1, ?…)` (and `Z_ENT` in a hierarchy).
    let insertSQL: String
    /// `DELETE FROM ZMOVIE WHERE Z_PK = ?`, and with `AND Z_OPT = ?` (optimistic locking).
    let deleteSQL: String
    let deleteCheckingVersionSQL: String
    /// `SELECT Z_PK, Z_OPT FROM ZMOVIE WHERE Z_PK IN (?, …)` for a full chunk of ``versionChunkSize`` keys.
    let versionsSQL: String
    static let versionChunkSize = SQLKeyList.maximumCount
    /// For an entity with subentities: how to read rows of any entity of its family in one query.
    fileprivate(set) var family: FamilyProjection?

    fileprivate init(entity: EntityDescription, number: Int64, parent: EntityTable?, usedColumns: inout Set<String>) {
        self.entity = entity
        self.number = number
        name = parent?.name ?? Self.tableName(entity)
        var columns: [String?] = parent?.columns ?? []
        var orderColumns: [Int: String] = parent?.orderColumns ?? [:]
        var joinTables: [Int: JoinTable] = parent?.joinTables ?? [:]
        /// `Z` and the property's name; numbered when another entity of the hierarchy already has that column.
        func column(for name: String) -> String {
            let base = "Z" + name.uppercased()
            var candidate = base
            var suffix = 0
            while usedColumns.contains(candidate) {
                suffix += 1
                candidate = base + String(suffix)
            }
            usedColumns.insert(candidate)
            return candidate
        }
        for (index, property) in entity.properties.enumerated().dropFirst(entity.inheritedPropertyCount) {
            switch property.role {
            case .attribute(let a):
                // A transient attribute lives in memory only: no column, and no name taken from its siblings.
                columns.append(a.isTransient ? nil : column(for: a.name))
            case .relationship(let r) where !r.isToMany:
                let name = column(for: r.name)
                columns.append(name)
                // The position in an ordered to-many read through this column: the to-many names this relationship
                // as its inverse, whether or not this one names it back.
                let pairedOrdered = r.inverseRelationship.map { $0.isOrdered && $0.inverseRelationship === r } ?? false
                if pairedOrdered || r.destinationEntity.relationshipsByName.values.contains(where: { $0.isOrdered && $0.inverseRelationship === r }) {
                    orderColumns[index] = "Z_FOK_" + name.dropFirst()
                }
            case .relationship(let r):
                columns.append(nil)
                if r.inverseRelationship == nil || r.inverseRelationship!.isToMany {
                    joinTables[index] = JoinTable(relationship: r, owner: entity)
                }
            }
        }
        self.columns = columns
        self.orderColumns = orderColumns
        self.joinTables = joinTables
        selectColumns = (["Z_PK", "Z_OPT"] + columns.compactMap { $0 }).joined(separator: ", ")
        columnProperties = columns.indices.filter { columns[$0] != nil }
        let named = columns.compactMap { $0 }
        deleteSQL = "DELETE FROM \(name) WHERE Z_PK = ?"
        deleteCheckingVersionSQL = "DELETE FROM \(name) WHERE Z_PK = ? AND Z_OPT = ?"
        versionsSQL = "SELECT Z_PK, Z_OPT FROM \(name) WHERE Z_PK IN (\(SQLKeyList.placeholders(Self.versionChunkSize)))"
        if entity.isInHierarchy {
            insertSQL = "INSERT INTO \(name) (Z_PK, Z_OPT, Z_ENT\(named.map { ", " + $0 }.joined())) VALUES (?, 1, \(number)\(String(repeating: ", ?", count: named.count)))"
        } else {
            insertSQL = "INSERT INTO \(name) (Z_PK, Z_OPT\(named.map { ", " + $0 }.joined())) VALUES (?, 1\(String(repeating: ", ?", count: named.count)))"
        }
    }

    static func tableName(_ entity: EntityDescription) -> String { "Z" + entity.entityName.uppercased() }

    /// `SELECT Z_PK, Z_OPT FROM <table> WHERE Z_PK IN (?, …)` with `count` placeholders.
    func versionsSQL(count: Int) -> String {
        "SELECT Z_PK, Z_OPT FROM \(name) WHERE Z_PK IN (\(SQLKeyList.placeholders(count)))"
    }

    func column(forKey key: String) -> String? {
        entity.propertyIndexByName[key].flatMap { columns[$0] }
    }

    /// The condition that keeps a hierarchy's rows to this entity (with its subentities when `includingSubentities`),
    /// or nil when every row of the table qualifies. `alias` qualifies `Z_ENT` (`t0.Z_ENT`).
    func familyCondition(alias: String?, includingSubentities: Bool = true) -> String? {
        guard entity.isInHierarchy else { return nil }
        if includingSubentities && entity.superentity == nil { return nil }
        let column = alias.map { $0 + ".Z_ENT" } ?? "Z_ENT"
        guard includingSubentities && entity.hasSubentities else { return "\(column) = \(number)" }
        let numbers = family?.tables.map(\.number) ?? [number]
        return "\(column) IN (\(numbers.map(String.init).joined(separator: ", ")))"
    }
}

/// How a query of an entity with subentities reads rows of every entity of its family in one statement: the
/// projection `Z_PK, Z_OPT, Z_ENT` and every column of the family, and per entity the position of each of its columns.
struct FamilyProjection {
    /// The entity and its subentities' tables, parents first.
    let tables: [EntityTable]
    /// The family's columns (without the `t0.` alias), after `Z_PK, Z_OPT, Z_ENT`.
    let columns: [String]
    /// Per entity number: the table and the projection position of each of its columns, in column order.
    let decoders: [Int64: (table: EntityTable, positions: [Int32])]

    init(_ tables: [EntityTable]) {
        self.tables = tables
        var columns: [String] = []
        var position: [String: Int32] = [:]
        for table in tables {
            for column in table.columns.compactMap({ $0 }) where position[column] == nil {
                position[column] = Int32(3 + columns.count)
                columns.append(column)
            }
        }
        self.columns = columns
        var decoders: [Int64: (table: EntityTable, positions: [Int32])] = [:]
        for table in tables {
            decoders[table.number] = (table, table.columnProperties.map { position[table.columns[$0]!]! })
        }
        self.decoders = decoders
    }

    /// `t0.Z_PK, t0.Z_OPT, t0.Z_ENT, t0.<column>…`.
    func projection(alias: String) -> String {
        (["Z_PK", "Z_OPT", "Z_ENT"] + columns).map { alias + "." + $0 }.joined(separator: ", ")
    }
}

/// The table behind a many-to-many (or inverse-less to-many) relationship. Both sides of a many-to-many share
/// one table; the side whose `Entity.name` sorts first owns it.
struct JoinTable {
    /// `Z_MOVIE_ACTORS`.
    let name: String
    let ownerEntity: EntityDescription
    /// The relationship on the owner's side.
    let ownerRelationship: RelationshipDescription
    /// `true` when read from the owner's side (`Z_OWNER` is this object).
    let readsFromOwner: Bool

    init(relationship: RelationshipDescription, owner entity: EntityDescription) {
        let mine = "\(entity.entityName).\(relationship.name)"
        // A to-many inverse that does not point back keeps its own table: sharing one would let each side's
        // writes replace the other's rows.
        if let inverse = relationship.inverseRelationship, inverse.inverseRelationship === relationship {
            let theirs = "\(relationship.destinationEntityName).\(inverse.name)"
            let ownsIt = mine <= theirs
            ownerEntity = ownsIt ? entity : relationship.destinationEntity
            ownerRelationship = ownsIt ? relationship : inverse
            readsFromOwner = ownsIt
        } else {
            ownerEntity = entity
            ownerRelationship = relationship
            readsFromOwner = true
        }
        name = "Z_" + ownerEntity.entityName.uppercased() + "_" + ownerRelationship.name.uppercased()
    }

    /// This side's column and the other side's column.
    var selfColumn: String { readsFromOwner ? "Z_OWNER" : "Z_TARGET" }
    var otherColumn: String { readsFromOwner ? "Z_TARGET" : "Z_OWNER" }
    /// The column holding the position of the other object in this side's (ordered) list.
    var selfOrderColumn: String { readsFromOwner ? "Z_OWNER_ORDER" : "Z_TARGET_ORDER" }
}
