/// The SQL a batch delete runs over the relationships of the rows it deletes.
///
/// The rows to delete are gathered first in scratch tables, one per table of the store — one per entity without
/// inheritance, one per hierarchy (its root's table holds the rows of all its entities) —, `temp.Z_BATCH_DELETE_<n>
/// (Z_PK INTEGER PRIMARY KEY, Z_ENT, Z_ROUND)` where `n` is the root entity's number and `Z_ENT` the number of the
/// row's own entity (as in `Z_PRIMARYKEY` and the hierarchy's `Z_ENT` column): the request's own rows in round 0,
/// then, round after round, the rows that cascade rules reach from the rows added in the round before (a row already
/// gathered is not added again, so cycles end). Keyed by the primary key itself, a scratch table is both the set and
/// its index: `… WHERE Z_PK IN (SELECT Z_PK FROM temp.…)` probes it directly. Every statement here works on whole
/// sets, never row by row, which is what makes deleting 10,000 parents with 100,000 children a matter of a few
/// statements.
///
/// A relationship's rules apply to the gathered rows of the entity that declares it and of every entity that
/// inherits from it, told apart by their `Z_ENT`; a key names one row of its whole table, so "is this row being
/// deleted" needs no `Z_ENT`.
///
/// Entity numbers and table and column names come from the model, never from input; round numbers are bound.
struct BatchDeleteGraph {
    let schema: StoreSchema

    /// How the rows reached through one relationship are found from the gathered rows of its entity (aliased
    /// `x`): a `FROM` clause, the column holding the related row's key and the SQL of its entity's number, and the
    /// condition keeping `x` to the rows the relationship belongs to (nil when all of the scratch table's are).
    struct Link {
        let from: String
        let relatedKey: String
        let relatedEntity: String
        let rows: String?

        /// `WHERE` with `conditions` and ``rows``.
        func whereClause(_ conditions: String...) -> String {
            " WHERE " + (conditions + [rows].compactMap { $0 }).joined(separator: " AND ")
        }
    }

    /// The number of the hierarchy (or lone entity) `entity` is part of: its root's.
    func number(of entity: EntityDescription) -> Int64 { schema[entity.rootEntity].number }

    /// The scratch table of `entity`'s hierarchy.
    func scratchTable(of entity: EntityDescription) -> String { "temp.Z_BATCH_DELETE_\(number(of: entity))" }

    /// Creates the scratch tables once per connection (they outlive transactions, not the connection).
    var createScratchSQL: String {
        schema.entities.filter { $0.entity.superentity == nil }.map {
            "CREATE TEMP TABLE IF NOT EXISTS Z_BATCH_DELETE_\($0.number) (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER NOT NULL, Z_ROUND INTEGER NOT NULL);"
        }.joined(separator: "\n")
    }

    /// The keys of the gathered rows of `entity`'s hierarchy, as a subquery.
    func deleted(_ entity: EntityDescription) -> String { "(SELECT Z_PK FROM \(scratchTable(of: entity)))" }

    /// The SQL of the entity number of a row of `table` aliased `alias`: its `Z_ENT` in a hierarchy, else a constant.
    func entityNumber(of table: EntityTable, alias: String) -> String {
        table.entity.isInHierarchy ? "\(alias).Z_ENT" : String(table.number)
    }

    /// The rows related to `entity`'s gathered rows through its property `index`. Joining the related table keeps
    /// out keys that point at rows already gone (left by a no-action rule).
    func link(_ relationship: RelationshipDescription, at index: Int, of entity: EntityDescription) -> Link? {
        let table = schema[entity]
        let destination = schema[relationship.destinationEntity]
        let gathered = "\(scratchTable(of: entity)) x"
        let rows = table.familyCondition(alias: "x")
        let relatedEntity = entityNumber(of: destination, alias: "d")
        if !relationship.isToMany, let column = table.columns[index] {
            return Link(from: "\(gathered) JOIN \(table.name) r ON r.Z_PK = x.Z_PK JOIN \(destination.name) d ON d.Z_PK = r.\(column)",
                        relatedKey: "d.Z_PK", relatedEntity: relatedEntity, rows: rows)
        }
        if let join = table.joinTables[index] {
            return Link(from: "\(gathered) JOIN \(join.name) j ON j.\(join.selfColumn) = x.Z_PK JOIN \(destination.name) d ON d.Z_PK = j.\(join.otherColumn)",
                        relatedKey: "d.Z_PK", relatedEntity: relatedEntity, rows: rows)
        }
        if let inverse = relationship.inverseRelationship, let column = inverseColumn(of: inverse, in: destination) {
            // The column may be shared with entities outside the destination's family (an inverse declared on its
            // parent): only the destination's rows are related.
            let family = destination.familyCondition(alias: "d").map { " AND " + $0 } ?? ""
            return Link(from: "\(gathered) JOIN \(destination.name) d ON d.\(column) = x.Z_PK\(family)",
                        relatedKey: "d.Z_PK", relatedEntity: relatedEntity, rows: rows)
        }
        return nil
    }

    /// The column on `table` that holds to-one `inverse` (nil when the inverse is to-many).
    private func inverseColumn(of inverse: RelationshipDescription, in table: EntityTable) -> String? {
        guard !inverse.isToMany, let index = table.entity.propertyIndexByName[inverse.name] else { return nil }
        return table.columns[index]
    }

    // MARK: - Statements

    /// Gathers the request's own rows of `entity`: `select` yields their keys, entity numbers and round (0).
    func rootsSQL(_ entity: EntityDescription, select: String) -> String {
        "INSERT OR IGNORE INTO \(scratchTable(of: entity)) (Z_PK, Z_ENT, Z_ROUND) \(select)"
    }

    /// Gathers, as round `?1`, the rows the cascade rule of `relationship` reaches from the rows `entity` gained in
    /// round `?2`.
    func cascadeSQL(_ relationship: RelationshipDescription, at index: Int, of entity: EntityDescription) -> String? {
        guard let link = link(relationship, at: index, of: entity) else { return nil }
        return "INSERT OR IGNORE INTO \(scratchTable(of: relationship.destinationEntity)) (Z_PK, Z_ENT, Z_ROUND) SELECT \(link.relatedKey), \(link.relatedEntity), ?1 FROM \(link.from)"
            + link.whereClause("x.Z_ROUND = ?2")
    }

    /// For a cascade into an entity whose rows need nothing but deleting: the statement that deletes, at the end,
    /// every row of it that belongs to a gathered row of `entity` — what a cascade would gather, without gathering
    /// it. That is the case when the relationship is a to-many whose inverse is the destination's only relationship
    /// (a key column on its rows) and no other relationship of the model leads to the destination: whatever that
    /// inverse's rule says, it points at a row being deleted, and nothing else can reach, deny or nullify those rows.
    /// (Deleting 10,000 decks then deletes their 100,000 cards as a bulk `DELETE … WHERE ZDECK IN …` would.)
    func directCascadeSQL(_ relationship: RelationshipDescription, of entity: EntityDescription) -> String? {
        let destination = relationship.destinationEntity!
        guard relationship.isToMany, let inverse = relationship.inverseRelationship, !inverse.isToMany,
              !destination.isInHierarchy, !entity.isInHierarchy,
              destination.relationshipAt.compactMap({ $0 }).count == 1 else { return nil }
        let table = schema[destination]
        guard let column = inverseColumn(of: inverse, in: table) else { return nil }
        let leadsThere = schema.entities.contains { other in
            other.entity.relationshipAt.contains { candidate in
                guard let candidate, candidate !== relationship else { return false }
                return candidate.destinationEntity === destination
            }
        }
        guard !leadsThere else { return nil }
        return "DELETE FROM \(table.name) WHERE \(column) IN \(deleted(entity))"
    }

    /// The gathered rows whose deny rule on `relationship` is broken — they still have related rows that are not
    /// being deleted — with their entity numbers and how many such related rows each has.
    func denySQL(_ relationship: RelationshipDescription, at index: Int, of entity: EntityDescription) -> String? {
        guard let link = link(relationship, at: index, of: entity) else { return nil }
        return "SELECT x.Z_PK, x.Z_ENT, COUNT(*) FROM \(link.from)"
            + link.whereClause("\(link.relatedKey) NOT IN \(deleted(relationship.destinationEntity))")
            + " GROUP BY x.Z_PK ORDER BY x.Z_PK"
    }

    /// Applies the nullify rule of `relationship` to the related rows that stay: a to-one inverse (a key on their
    /// row) is cleared with its order; a to-many inverse loses the deleted rows when their keys and join rows go.
    /// Either way the related row's version goes up, as a context's save would bump it.
    func nullifySQL(_ relationship: RelationshipDescription, at index: Int, of entity: EntityDescription) -> String? {
        guard let inverse = relationship.inverseRelationship else { return nil }
        let destination = schema[relationship.destinationEntity]
        if let column = inverseColumn(of: inverse, in: destination) {
            // The column holds keys of `entity`'s rows only, so any gathered key of the hierarchy it matches is one.
            let inverseIndex = destination.entity.propertyIndexByName[inverse.name] ?? -1
            let order = destination.orderColumns[inverseIndex].map { ", \($0) = NULL" } ?? ""
            return """
                UPDATE \(destination.name) SET \(column) = NULL\(order), Z_OPT = Z_OPT + 1 \
                WHERE \(column) IN \(deleted(entity)) AND Z_PK NOT IN \(deleted(destination.entity))
                """
        }
        guard let link = link(relationship, at: index, of: entity) else { return nil }
        return """
            UPDATE \(destination.name) SET Z_OPT = Z_OPT + 1 \
            WHERE Z_PK IN (SELECT \(link.relatedKey) FROM \(link.from)\(link.whereClause("\(link.relatedKey) NOT IN \(deleted(destination.entity))")))
            """
    }

    /// Deletes the gathered rows of the hierarchy (or lone entity) whose root is `root`, and their join-table rows
    /// (as a save's delete does, whatever the rule) for the many-to-many relationships of every entity of it.
    func deleteSQL(_ root: EntityDescription) -> [String] {
        var statements: [String] = []
        var seen: Set<String> = []
        for member in root.family {
            let table = schema[member]
            for index in table.joinTables.keys.sorted() where index >= member.inheritedPropertyCount {
                guard let join = table.joinTables[index], seen.insert("\(join.name).\(join.selfColumn)").inserted else { continue }
                statements.append("DELETE FROM \(join.name) WHERE \(join.selfColumn) IN \(deleted(root))")
            }
        }
        statements.append("DELETE FROM \(schema[root].name) WHERE Z_PK IN \(deleted(root))")
        return statements
    }
}
