/// The SQL text of a ``StoreQuery``: its `SELECT`, with the family condition, order, limit and offset, and the
/// arguments bound to it.
extension SQLiteStore {
    func sql(for query: StoreQuery, projection: String) -> String {
        let table = schema[query.entity]
        var sql = "SELECT \(projection) FROM \(table.name) t0"
        if !query.joins.isEmpty { sql += " " + query.joins }
        let family = table.familyCondition(alias: "t0", includingSubentities: query.includesSubentities)
        switch (family, query.whereClause) {
        case (nil, nil): break
        case (let condition?, nil), (nil, let condition?): sql += " WHERE " + condition
        case (let family?, let condition?): sql += " WHERE \(family) AND (\(condition))"
        }
        if let orderBy = query.orderBy { sql += " ORDER BY " + orderBy }
        if query.limit > 0 || query.offset > 0 { sql += " LIMIT ? OFFSET ?" }
        return sql
    }

    func arguments(for query: StoreQuery) -> [SQLiteValue] {
        guard query.limit > 0 || query.offset > 0 else { return query.arguments }
        return query.arguments + [.integer(query.limit > 0 ? Int64(query.limit) : -1), .integer(Int64(query.offset))]
    }

    /// The projection of a query of one entity's own rows: `Z_PK, Z_OPT` and its columns, in property order.
    static func plainProjection(of table: EntityTable) -> String {
        "t0.Z_PK, t0.Z_OPT" + table.columns.compactMap { $0.map { ", t0." + $0 } }.joined()
    }

    /// The column of the `n`th stored property in a ``plainProjection(of:)`` row.
    @inline(__always)
    static func plainColumn(_ n: Int) -> Int32 { Int32(truncatingIfNeeded: n) &+ 2 }
}
