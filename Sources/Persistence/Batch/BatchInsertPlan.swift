/// A ``BatchInsertRequest`` read, checked and converted: one row of stored values per dictionary.
struct BatchInsertPlan {
    /// One row to insert: a value per attribute column (defaults where the dictionary gave none), and which of
    /// them the dictionary gave — those are what an upsert overwrites.
    struct Row {
        let values: [SQLiteValue]
        /// Positions in ``BatchInsertPlan/attributeIndexes``, ascending.
        let given: [Int]
    }

    let entity: EntityDescription
    let table: EntityTable
    /// Read back the primary keys of the rows written.
    let returnsKeys: Bool
    /// `true` when a row that clashes with a stored one on a uniqueness constraint updates it: the entity has
    /// constraints and the executing context's merge policy is `mergeByPropertyObjectTrump`. Otherwise a clash
    /// fails the request (133021).
    let upserts: Bool
    /// The executing context's merge policy, named in the error of a clash it does not resolve.
    let mergePolicyName: String
    /// The property indexes of the entity's attributes, in column order.
    let attributeIndexes: [Int]
    var rows: [Row] = []

    init(entity: EntityDescription, table: EntityTable, returnsKeys: Bool, mergePolicy: MergePolicy) {
        self.entity = entity
        self.table = table
        self.returnsKeys = returnsKeys
        upserts = !entity.uniquenessConstraintKeys.isEmpty && mergePolicy.mergeType == .mergeByPropertyObjectTrump
        mergePolicyName = mergePolicy.description
        attributeIndexes = table.columnProperties.filter { entity.attributeAt[$0] != nil }
    }

    /// `true` when an upsert must read back which row it wrote and that row's entity: in a hierarchy, a clash can
    /// find a row of another entity of the table.
    var readsWrittenRows: Bool {
        upserts && (returnsKeys || entity.isInHierarchy)
    }

    /// The `INSERT` for rows that give the attribute columns at `given`: `Z_PK` (and the entity's `Z_ENT` in a
    /// hierarchy), then every attribute column. When it ``upserts``, a clash updates the stored row's given columns
    /// and bumps its version; otherwise a clash is SQLite's constraint error.
    func insertSQL(given: [Int]) -> String {
        let columns = attributeIndexes.compactMap { table.columns[$0] }
        let entityColumn = entity.isInHierarchy ? ", Z_ENT" : ""
        let entityValue = entity.isInHierarchy ? ", \(table.number)" : ""
        var sql = "INSERT INTO \(table.name) (Z_PK, Z_OPT\(entityColumn)\(columns.map { ", " + $0 }.joined())) VALUES (?, 1\(entityValue)\(String(repeating: ", ?", count: columns.count)))"
        if upserts {
            let updates = given.map { "\(columns[$0]) = excluded.\(columns[$0])" } + ["Z_OPT = Z_OPT + 1"]
            // No conflict target: any of the entity's unique indexes turns the insert into an update.
            sql += " ON CONFLICT DO UPDATE SET " + updates.joined(separator: ", ")
            if readsWrittenRows { sql += " RETURNING Z_PK" + (entity.isInHierarchy ? ", Z_ENT" : "") }
        }
        return sql
    }
}
