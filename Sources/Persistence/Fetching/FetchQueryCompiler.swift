/// Turns a fetch request into a ``StoreQuery``: its predicate into a `WHERE` clause with bound arguments, its
/// sort descriptors into `ORDER BY`, and its limits.
enum FetchQueryCompiler {
    static func query<Result: FetchRequestResult>(for request: FetchRequest<Result>, entity: EntityDescription, schema: StoreSchema) throws -> StoreQuery {
        var compiler = PredicateSQLCompiler(schema: schema, format: request.predicate?.predicateFormat ?? "")
        let root = SQLScope(alias: "t0", entity: entity)
        var query = StoreQuery(entity: entity)
        if let predicate = request.predicate {
            let condition = try compiler.compile(predicate.expression, in: root)
            if condition != "1" { query.whereClause = condition }
        }
        var order: [String] = []
        for descriptor in request.sortDescriptors ?? [] {
            let column = try compiler.sortColumn(descriptor.keyPath, in: root)
            order.append(column + (descriptor.caseInsensitive ? " COLLATE NOCASE" : "") + (descriptor.ascending ? " ASC" : " DESC"))
        }
        // The primary key breaks ties, so equal keys come back in a stable order.
        order.append("t0.Z_PK")
        query.orderBy = order.joined(separator: ", ")
        query.joins = root.joins.joined(separator: " ")
        query.arguments = compiler.arguments
        query.limit = request.fetchLimit
        query.offset = request.fetchOffset
        query.includesSubentities = request.includesSubentities
        return query
    }
}
