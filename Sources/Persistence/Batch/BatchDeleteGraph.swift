/// The SQL a batch delete runs over the relationships of the rows it deletes.
///
/// The rows to delete are gathered first in scratch tables, one per entity, `temp.Z_BATCH_DELETE_<n>
/// (Z_PK INTEGER PRIMARY KEY, Z_ROUND)` where `n` is the entity's number (`Z_ENT`, as in `Z_PRIMARYKEY`): the
/// request's own rows in round 0, then, round after round, the rows that cascade rules reach from the rows added
/// in the round before (a row already gathered is not added again, so cycles end). Keyed by the primary key
/// itself, a scratch table is both the set and its index: `… WHERE Z_PK IN (SELECT Z_PK FROM temp.…)` probes it
/// directly. Every statement here works on whole sets, never row by row, which is what makes deleting 10,000
/// parents with 100,000 children a matter of a few statements.
///
/// Entity numbers and table and column names come from the model, never from input; round numbers are bound.
struct BatchDeleteGraph {
    let schema: StoreSchema

    /// How the rows reached through one relationship are found from the gathered rows of its entity (aliased
    /// `x`): a `FROM` clause and the column holding the related row's key.
    struct Link {
        let from: String
        let relatedKey: String
    }

    static func number(of entity: EntityDescription) -> Int { entity.index + 1 }

    /// The scratch table of `entity`.
    static func scratchTable(of entity: EntityDescription) -> String { "temp.Z_BATCH_DELETE_\(number(of: entity))" }

    /// Creates the scratch tables once per connection (they outlive transactions, not the connection).
    var createScratchSQL: String {
        schema.entities.map {
            "CREATE TEMP TABLE IF NOT EXISTS Z_BATCH_DELETE_\(Self.number(of: $0.entity)) (Z_PK INTEGER PRIMARY KEY, Z_ROUND INTEGER NOT NULL);"
        }.joined(separator: "\n")
    }

    /// The keys of `entity`'s gathered rows, as a subquery.
    static func deleted(_ entity: EntityDescription) -> String { "(SELECT Z_PK FROM \(scratchTable(of: entity)))" }

    /// The rows related to `entity`'s gathered rows through its property `index`. Joining the related table keeps
    /// out keys that point at rows already gone (left by a no-action rule).
    func link(_ relationship: RelationshipDescription, at index: Int, of entity: EntityDescription) -> Link? {
        let table = schema[entity]
        let destination = schema[relationship.destinationEntity]
        let gathered = "\(Self.scratchTable(of: entity)) x"
        if !relationship.isToMany, let column = table.columns[index] {
            return Link(from: "\(gathered) JOIN \(table.name) r ON r.Z_PK = x.Z_PK JOIN \(destination.name) d ON d.Z_PK = r.\(column)",
                        relatedKey: "d.Z_PK")
        }
        if let join = table.joinTables[index] {
            return Link(from: "\(gathered) JOIN \(join.name) j ON j.\(join.selfColumn) = x.Z_PK JOIN \(destination.name) d ON d.Z_PK = j.\(join.otherColumn)",
                        relatedKey: "d.Z_PK")
        }
        if let inverse = relationship.inverseRelationship, let column = inverseColumn(of: inverse, in: destination) {
            return Link(from: "\(gathered) JOIN \(destination.name) d ON d.\(column) = x.Z_PK", relatedKey: "d.Z_PK")
        }
        return nil
    }

    /// The column on `table` that holds to-one `inverse` (nil when the inverse is to-many).
    private func inverseColumn(of inverse: RelationshipDescription, in table: EntityTable) -> String? {
        guard !inverse.isToMany, let index = table.entity.propertyIndexByName[inverse.name] else { return nil }
        return table.columns[index]
    }

    // MARK: - Statements

    /// Gathers the request's own rows: `select` yields their keys.
    static func rootsSQL(_ entity: EntityDescription, select: String) -> String {
        "INSERT OR IGNORE INTO \(scratchTable(of: entity)) (Z_PK, Z_ROUND) \(select)"
    }

    /// Gathers, as round `?1`, the rows the cascade rule of `relationship` reaches from the rows `entity` gained in
    /// round `?2`.
    func cascadeSQL(_ relationship: RelationshipDescription, at index: Int, of entity: EntityDescription) -> String? {
        guard let link = link(relationship, at: index, of: entity) else { return nil }
        return "INSERT OR IGNORE INTO \(Self.scratchTable(of: relationship.destinationEntity)) (Z_PK, Z_ROUND) SELECT \(link.relatedKey), ?1 FROM \(link.from) WHERE x.Z_ROUND = ?2"
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
        return "DELETE FROM \(table.name) WHERE \(column) IN \(Self.deleted(entity))"
    }

    /// The gathered rows whose deny rule on `relationship` is broken — they still have related rows that are not
    /// being deleted — with how many such related rows each has.
    func denySQL(_ relationship: RelationshipDescription, at index: Int, of entity: EntityDescription) -> String? {
        guard let link = link(relationship, at: index, of: entity) else { return nil }
        return """
            SELECT x.Z_PK, COUNT(*) FROM \(link.from) WHERE \(link.relatedKey) NOT IN \(Self.deleted(relationship.destinationEntity)) \
            GROUP BY x.Z_PK ORDER BY x.Z_PK
            """
    }

    /// Applies the nullify rule of `relationship` to the related rows that stay: a to-one inverse (a key on their
    /// row) is cleared with its order; a to-many inverse loses the deleted rows when their keys and join rows go.
    /// Either way the related row's version goes up, as a context's save would bump it.
    func nullifySQL(_ relationship: RelationshipDescription, at index: Int, of entity: EntityDescription) -> String? {
        guard let inverse = relationship.inverseRelationship else { return nil }
        let destination = schema[relationship.destinationEntity]
        if let column = inverseColumn(of: inverse, in: destination) {
            let inverseIndex = destination.entity.propertyIndexByName[inverse.name] ?? -1
            let order = destination.orderColumns[inverseIndex].map { ", \($0) = NULL" } ?? ""
            return """
                UPDATE \(destination.name) SET \(column) = NULL\(order), Z_OPT = Z_OPT + 1 \
                WHERE \(column) IN \(Self.deleted(entity)) AND Z_PK NOT IN \(Self.deleted(destination.entity))
                """
        }
        guard let link = link(relationship, at: index, of: entity) else { return nil }
        return """
            UPDATE \(destination.name) SET Z_OPT = Z_OPT + 1 \
            WHERE Z_PK IN (SELECT \(link.relatedKey) FROM \(link.from) WHERE \(link.relatedKey) NOT IN \(Self.deleted(destination.entity)))
            """
    }

    /// Deletes `entity`'s gathered rows and their join-table rows (as a save's delete does, whatever the rule).
    func deleteSQL(_ entity: EntityDescription) -> [String] {
        let table = schema[entity]
        var statements: [String] = []
        var seen: Set<String> = []
        for index in table.joinTables.keys.sorted() {
            guard let join = table.joinTables[index], seen.insert("\(join.name).\(join.selfColumn)").inserted else { continue }
            statements.append("DELETE FROM \(join.name) WHERE \(join.selfColumn) IN \(Self.deleted(entity))")
        }
        statements.append("DELETE FROM \(table.name) WHERE Z_PK IN \(Self.deleted(entity))")
        return statements
    }
}
