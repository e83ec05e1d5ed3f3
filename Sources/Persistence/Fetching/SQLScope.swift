/// A table in a compiled query (the fetched entity as `t0`, or a related entity inside a subquery) and the
/// `LEFT JOIN`s its to-one key paths need. A join names the destination's table as the schema has it: a subentity's
/// rows live in its root entity's table, so a to-one to `Country` (a subentity of `Region`) joins `ZREGION`.
final class SQLScope {
    let alias: String
    let entity: EntityDescription
    private(set) var joins: [String] = []
    private var joinedAliases: [String: (alias: String, entity: EntityDescription)] = [:]

    init(alias: String, entity: EntityDescription) {
        self.alias = alias
        self.entity = entity
    }

    /// The alias of the table reached through the to-one path `path`, joining it the first time. The key in
    /// `column` names one row of `destination`'s table; no `Z_ENT` test is needed, as only the destination's
    /// objects are ever stored there.
    func join(path: String, from alias: String, column: String, to destination: EntityTable,
              makeAlias: () -> String) -> String {
        if let joined = joinedAliases[path] { return joined.alias }
        let newAlias = makeAlias()
        joins.append("LEFT JOIN \(destination.name) \(newAlias) ON \(newAlias).Z_PK = \(alias).\(column)")
        joinedAliases[path] = (newAlias, destination.entity)
        return newAlias
    }
}
