/// One row as read from the store: its primary key, its version, and a slot per property (attributes as values,
/// to-ones as keys, to-manys as faults).
struct StoreRow {
    let primaryKey: Int64
    let version: Int64
    let slots: [PropertySlot]
}

/// What a fetch asks the store for, already compiled to SQL (arguments bound, never spliced).
struct StoreQuery {
    let entity: EntityDescription
    /// `LEFT JOIN …` clauses for key paths through to-one relationships; the entity's own table is `t0`.
    var joins: String = ""
    var whereClause: String?
    var orderBy: String?
    var arguments: [SQLiteValue] = []
    var limit: Int = 0
    var offset: Int = 0
}
