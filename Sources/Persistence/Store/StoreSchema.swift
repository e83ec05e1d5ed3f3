/// How a model maps onto SQLite tables, in Core Data's shape so a learner who opens the file with `sqlite3`
/// sees what a real Core Data store looks like: one table per entity (`ZMOVIE`), the primary key `Z_PK`,
/// the row version `Z_OPT`, one column per attribute and to-one relationship (`ZTITLE`, `ZDIRECTOR`), an order
/// column for the child side of an ordered to-many (`Z_FOK_GROUP`), and a join table for many-to-many and
/// inverse-less to-many relationships.
struct StoreSchema {
    let entities: [EntityTable]

    init(model: ManagedObjectModel) {
        entities = model.entities.map(EntityTable.init)
    }

    subscript(entity: EntityDescription) -> EntityTable { entities[entity.index] }

    /// Statements that create every table and index.
    var createStatements: [String] {
        var statements: [String] = []
        for table in entities {
            var columns = ["Z_PK INTEGER PRIMARY KEY", "Z_OPT INTEGER NOT NULL DEFAULT 1"]
            for (index, column) in table.columns.enumerated() {
                guard let column else { continue }
                let type = table.entity.attributeAt[index]?.attributeType.columnType ?? "INTEGER"
                columns.append("\(column) \(type)")
            }
            for column in table.orderColumns.values.sorted() { columns.append("\(column) INTEGER") }
            statements.append("CREATE TABLE \(table.name) (\(columns.joined(separator: ", ")))")
            for (index, column) in table.columns.enumerated() where table.entity.relationshipAt[index] != nil {
                if let column { statements.append("CREATE INDEX \(table.name)_\(column)_INDEX ON \(table.name) (\(column))") }
            }
            for (number, constraint) in table.entity.uniquenessConstraints.enumerated() {
                let columns = constraint.map { table.column(forKey: $0)! }
                statements.append("CREATE UNIQUE INDEX \(table.name)_UNIQUE_\(number) ON \(table.name) (\(columns.joined(separator: ", ")))")
            }
            for index in table.entity.indexes {
                let columns = index.elements.map { table.column(forKey: $0.property)! + ($0.isAscending ? "" : " DESC") }
                statements.append("CREATE INDEX \(table.name)_FETCH_\(index.name.uppercased()) ON \(table.name) (\(columns.joined(separator: ", ")))")
            }
            for join in table.joinTables.values where join.ownerEntity === table.entity {
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
    /// `ZMOVIE`.
    let name: String
    /// Per property index: its column (attributes and to-ones), or nil (to-manys).
    let columns: [String?]
    /// Order columns on this (child) table, keyed by the to-one relationship's property index.
    let orderColumns: [Int: String]
    /// Join tables, keyed by the to-many property index that uses one.
    let joinTables: [Int: JoinTable]
    /// `SELECT Z_PK, Z_OPT, <columns…> FROM ZMOVIE` — the projection every row read uses.
    let selectColumns: String
    /// The property index of each column, in column order.
    let columnProperties: [Int]
    /// `INSERT INTO ZMOVIE (Z_PK, Z_OPT, <columns…>) VALUES (?, 1, ?…)`.
    let insertSQL: String

    init(entity: EntityDescription) {
        self.entity = entity
        name = Self.tableName(entity)
        var columns: [String?] = []
        var orderColumns: [Int: String] = [:]
        var joinTables: [Int: JoinTable] = [:]
        for (index, property) in entity.properties.enumerated() {
            switch property {
            case .attribute(let a):
                columns.append("Z" + a.name.uppercased())
            case .relationship(let r) where !r.isToMany:
                columns.append("Z" + r.name.uppercased())
                if r.inverseRelationship?.isOrdered == true { orderColumns[index] = "Z_FOK_" + r.name.uppercased() }
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
        insertSQL = "INSERT INTO \(name) (Z_PK, Z_OPT\(named.map { ", " + $0 }.joined())) VALUES (?, 1\(String(repeating: ", ?", count: named.count)))"
    }

    static func tableName(_ entity: EntityDescription) -> String { "Z" + entity.name.uppercased() }

    func column(forKey key: String) -> String? {
        entity.propertyIndexByName[key].flatMap { columns[$0] }
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
        let mine = "\(entity.name).\(relationship.name)"
        if let inverse = relationship.inverseRelationship {
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
        name = "Z_" + ownerEntity.name.uppercased() + "_" + ownerRelationship.name.uppercased()
    }

    /// This side's column and the other side's column.
    var selfColumn: String { readsFromOwner ? "Z_OWNER" : "Z_TARGET" }
    var otherColumn: String { readsFromOwner ? "Z_TARGET" : "Z_OWNER" }
    /// The column holding the position of the other object in this side's (ordered) list.
    var selfOrderColumn: String { readsFromOwner ? "Z_OWNER_ORDER" : "Z_TARGET_ORDER" }
}
