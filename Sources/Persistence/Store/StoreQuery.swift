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
    /// For an entity with subentities: whether their rows are included (``FetchRequest/includesSubentities``).
    var includesSubentities = true

    /// `true` when rows of more than one entity can come back, each to be read as its own entity.
    var readsFamily: Bool { includesSubentities && entity.hasSubentities }
}
