/// A table in a compiled query (the fetched entity as `t0`, or a related entity inside a subquery) and the
/// `LEFT JOIN`s its to-one key paths need.
final class SQLScope {
    let alias: String
    let entity: EntityDescription
    private(set) var joins: [String] = []
    private var joinedAliases: [String: (alias: String, entity: EntityDescription)] = [:]

    init(alias: String, entity: EntityDescription) {
        self.alias = alias
        self.entity = entity
    }

    /// The alias of the table reached through the to-one path `path`, joining it the first time.
    func join(path: String, from alias: String, column: String, to destination: EntityDescription,
              makeAlias: () -> String) -> String {
        if let joined = joinedAliases[path] { return joined.alias }
        let newAlias = makeAlias()
        joins.append("LEFT JOIN \(EntityTable.tableName(destination)) \(newAlias) ON \(newAlias).Z_PK = \(alias).\(column)")
        joinedAliases[path] = (newAlias, destination)
        return newAlias
    }
}
