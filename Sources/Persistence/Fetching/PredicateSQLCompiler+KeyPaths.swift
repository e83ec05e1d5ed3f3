import Foundation

/// Key paths: to-one relationships become joins, to-many ones `EXISTS` subqueries, collection operators and
/// `SUBQUERY(…).@count` scalar subqueries; the columns they end at are checked against the model.
extension PredicateSQLCompiler {
    typealias Wrap = (String) -> String

    mutating func resolveOperand(_ operand: PredicateOperand, in scope: SQLScope,
                                         modifier: PredicateComparison.Modifier) throws -> (Leaf, Wrap?) {
        switch operand {
        case .evaluatedObject:
            guard modifier == .direct else { throw failure("ANY and ALL need a key path through a to-many relationship, not SELF") }
            return (.object("\(scope.alias).Z_PK", scope.entity), nil)
        case .keyPath(let path):
            return try resolve(path, in: scope, modifier: modifier, fanned: false)
        case .collectionOperation(let op, let collection, let key):
            guard modifier == .direct else { throw failure("ANY and ALL cannot apply to \(op.name)") }
            return (try aggregate(op, collection: collection, key: key, in: scope), nil)
        case .subqueryCount(let collection, _, let predicate):
            guard modifier == .direct else { throw failure("ANY and ALL cannot apply to SUBQUERY(…).@count") }
            return (try subqueryCount(collection, predicate, in: scope), nil)
        default:
            throw failure("expected a key path")
        }
    }

    /// Follows `path` from `scope`: to-ones join, a to-many opens an `EXISTS` subquery for the rest of the path.
    mutating func resolve(_ path: [String], in scope: SQLScope, modifier: PredicateComparison.Modifier,
                                  fanned: Bool) throws -> (Leaf, Wrap?) {
        var alias = scope.alias
        var entity = scope.entity
        var prefix = ""
        for (position, key) in path.enumerated() {
            let index = try propertyIndex(key, of: entity, path: path)
            let table = schema[entity]
            let isLast = position == path.count - 1
            if let attribute = entity.attributeAt[index] {
                guard isLast else {
                    throw failure("'\(path.joined(separator: "."))' continues past the attribute '\(key)'")
                }
                guard modifier == .direct || fanned else {
                    throw failure("ANY and ALL need a key path through a to-many relationship; '\(path.joined(separator: "."))' has none")
                }
                guard let column = table.columns[index] else { throw transientKey(key, of: entity, path: path) }
                return (.value("\(alias).\(column)", attribute.attributeType), nil)
            }
            let relationship = entity.relationshipAt[index]!
            if !relationship.isToMany {
                if isLast {
                    guard modifier == .direct || fanned else {
                        throw failure("ANY and ALL need a key path through a to-many relationship; '\(path.joined(separator: "."))' has none")
                    }
                    return (.object("\(alias).\(table.columns[index]!)", relationship.destinationEntity), nil)
                }
                prefix += key + "."
                alias = scope.join(path: prefix, from: alias, column: table.columns[index]!, to: schema[relationship.destinationEntity]) { newAlias() }
                entity = relationship.destinationEntity
                continue
            }
            let sub = SQLScope(alias: newAlias(), entity: relationship.destinationEntity)
            let (from, link) = fanOutSource(relationship, owner: entity, ownerAlias: alias, subAlias: sub.alias)
            let rest = Array(path[(position + 1)...])
            let (leaf, innerWrap): (Leaf, Wrap?)
            if rest.isEmpty {
                (leaf, innerWrap) = (.object("\(sub.alias).Z_PK", relationship.destinationEntity), nil)
            } else {
                (leaf, innerWrap) = try resolve(rest, in: sub, modifier: modifier, fanned: true)
            }
            let all = modifier == .all
            let wrap: Wrap = { inner in
                let body = innerWrap?(inner) ?? inner
                let joins = sub.joins.isEmpty ? "" : " " + sub.joins.joined(separator: " ")
                return all
                    ? "NOT EXISTS (SELECT 1 FROM \(from)\(joins) WHERE \(link) AND NOT IFNULL((\(body)), 0))"
                    : "EXISTS (SELECT 1 FROM \(from)\(joins) WHERE \(link) AND IFNULL((\(body)), 0))"
            }
            return (leaf, wrap)
        }
        return (.object("\(scope.alias).Z_PK", scope.entity), nil)
    }

    /// The `FROM` clause and the condition linking a to-many's destination rows (as `subAlias`) to their owner.
    mutating func fanOutSource(_ relationship: RelationshipDescription, owner: EntityDescription,
                                       ownerAlias: String, subAlias: String) -> (from: String, link: String) {
        let ownerTable = schema[owner]
        let index = owner.propertyIndexByName[relationship.name]!
        let destination = schema[relationship.destinationEntity]
        if let join = ownerTable.joinTables[index] {
            let joinAlias = newAlias()
            return ("\(join.name) \(joinAlias) JOIN \(destination.name) \(subAlias) ON \(subAlias).Z_PK = \(joinAlias).\(join.otherColumn)",
                    "\(joinAlias).\(join.selfColumn) = \(ownerAlias).Z_PK")
        }
        let inverseIndex = relationship.destinationEntity.propertyIndexByName[relationship.inverseRelationship!.name]!
        return ("\(destination.name) \(subAlias)", "\(subAlias).\(destination.columns[inverseIndex]!) = \(ownerAlias).Z_PK")
    }

    /// `items.@count`, `items.@sum.price`…: a scalar subquery over the objects `collection` reaches.
    mutating func aggregate(_ op: PredicateOperand.CollectionOperator, collection: [String], key: [String],
                                    in scope: SQLScope) throws -> Leaf {
        let source = try collectionSource(collection, in: scope, for: op.name)
        guard op != .count else {
            return .value("(SELECT COUNT(*) FROM \(source.from) WHERE \(source.condition))", .integer64)
        }
        let (leaf, wrap) = try resolve(key, in: source.scope, modifier: .direct, fanned: false)
        guard wrap == nil, case .value(let column, let type) = leaf else {
            throw failure("\(op.name).\(key.joined(separator: ".")) must reach an attribute through to-one relationships")
        }
        // Read after the key is resolved: its to-one joins were added to the source's scope.
        let rows = "FROM \(source.from) WHERE \(source.condition)"
        let numeric = type == .decimal ? "CAST(\(column) AS REAL)" : column
        switch op {
        case .sum: return .value("(SELECT IFNULL(SUM(\(numeric)), 0) \(rows))", type == .decimal ? .double : type)
        case .avg: return .value("(SELECT AVG(\(numeric)) \(rows))", .double)
        case .min: return .value("(SELECT MIN(\(column)) \(rows))", type)
        default: return .value("(SELECT MAX(\(column)) \(rows))", type)
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count`: a scalar subquery counting the objects `collection` reaches
    /// that satisfy `predicate`, compiled with those objects as its root (where its key paths start).
    mutating func subqueryCount(_ collection: [String], _ predicate: PredicateNode,
                                        in scope: SQLScope) throws -> Leaf {
        let source = try collectionSource(collection, in: scope, for: "SUBQUERY")
        let outerRoot = root
        root = source.scope
        defer { root = outerRoot }
        let condition = try compile(predicate, in: source.scope)
        return .value("(SELECT COUNT(*) FROM \(source.from) WHERE \(source.condition) AND \(condition))", .integer64)
    }

    /// The rows a to-many key path reaches, for a scalar subquery: one row per object at the end of the path, as
    /// the evaluator flattens nested to-manys (an object reached twice counts twice).
    struct CollectionSource {
        /// The tables of the path from its first to-many on, joined.
        var tables: String
        /// Links the first to-many's rows to the object being tested, and each later hop to the one before.
        var condition: String
        /// The objects at the end of the path; the joins a key path from them needs are added to it.
        var scope: SQLScope

        /// The tables with the joins added to ``scope`` so far.
        var from: String { scope.joins.isEmpty ? tables : tables + " " + scope.joins.joined(separator: " ") }
    }

    /// Follows `collection` from `scope`: to-ones before the first to-many join the outer query; from the first
    /// to-many on, every hop joins inside the subquery (inner joins: a nil to-one there reaches no objects, as in
    /// memory). `what` names the operator in errors.
    mutating func collectionSource(_ collection: [String], in scope: SQLScope,
                                           for what: String) throws -> CollectionSource {
        var alias = scope.alias
        var entity = scope.entity
        var prefix = ""
        var tables: String?
        var conditions: [String] = []
        var endsAtToMany = false
        for name in collection {
            let index = try propertyIndex(name, of: entity, path: collection)
            guard let relationship = entity.relationshipAt[index] else {
                throw failure("\(what) needs a to-many relationship, but '\(name)' is an attribute")
            }
            let destination = relationship.destinationEntity!
            let column = schema[entity].columns[index]
            endsAtToMany = relationship.isToMany
            if tables == nil, !relationship.isToMany {
                prefix += name + "."
                alias = scope.join(path: prefix, from: alias, column: column!, to: schema[destination]) { newAlias() }
            } else if !relationship.isToMany {
                let next = newAlias()
                tables! += " JOIN \(schema[destination].name) \(next) ON \(next).Z_PK = \(alias).\(column!)"
                alias = next
            } else {
                let next = newAlias()
                let (from, link) = fanOutSource(relationship, owner: entity, ownerAlias: alias, subAlias: next)
                tables = tables.map { $0 + " JOIN " + from } ?? from
                conditions.append(link)
                alias = next
            }
            entity = destination
        }
        guard let tables, endsAtToMany else {
            throw failure("\(what) needs a to-many relationship at the end of '\(collection.joined(separator: "."))'")
        }
        return CollectionSource(tables: tables, condition: conditions.joined(separator: " AND "),
                                scope: SQLScope(alias: alias, entity: entity))
    }

    func propertyIndex(_ key: String, of entity: EntityDescription, path: [String]) throws -> Int {
        guard let index = entity.propertyIndexByName[key] else {
            // A key of a subentity only is refused too: a key path follows the relationship's destination entity,
            // whatever entity the related row turns out to be. Apple documents no rule for it; Core Data's SQL store
            // raises "keypath … not found in entity" for any key the entity it resolves against lacks.
            let owners = entity.family.dropFirst().filter { $0.propertyIndexByName[key] != nil }.map(\.entityName)
            let subentities = owners.isEmpty ? "" : " Only its subentit\(owners.count == 1 ? "y" : "ies") \(owners.joined(separator: ", ")) \(owners.count == 1 ? "has" : "have") it, and a key path is resolved against the relationship's destination entity, not against the entity each related object turns out to be (Core Data: keypath \(path.joined(separator: ".")) not found in entity \(entity.entityName)); fetch the subentity and follow the inverse relationship instead, or make the relationship's destination the subentity."
            throw PersistenceError(.persistentStoreIncompatibleSchema,
                                   "Predicate `\(format)`: \(entity.entityName) has no property named '\(key)' (in key path '\(path.joined(separator: "."))'). Its properties: \(entity.properties.map(\.name).joined(separator: ", ")).\(subentities)",
                                   entityName: entity.entityName, key: key)
        }
        return index
    }

    /// The error for a key path that reaches a transient attribute: the store has no column to test or sort by
    /// (Core Data's SQL store says "keypath … not found in entity"). Worded for predicates and sort keys alike.
    func transientKey(_ key: String, of entity: EntityDescription, path: [String]) -> PersistenceError {
        PersistenceError(.persistentStoreIncompatibleSchema,
                         "The store cannot fetch with the key path '\(path.joined(separator: "."))': \(entity.entityName).\(key) is a transient attribute, kept in memory only, so the store has no value to test or sort by (Core Data: keypath \(path.joined(separator: ".")) not found in entity \(entity.entityName)). Fetch without it, then filter or sort the objects in memory (FetchPredicate.s evaluate(with:)).",
                         entityName: entity.entityName, key: key)
    }
}
