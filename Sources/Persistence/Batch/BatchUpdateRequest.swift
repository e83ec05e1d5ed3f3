/// What a ``BatchUpdateRequest`` returns in ``BatchUpdateResult/result`` (Core Data's
/// `NSBatchUpdateRequestResultType`).
public enum BatchUpdateRequestResultType: Sendable, Hashable {
    /// `true` on success.
    case statusOnlyResultType
    /// The IDs of the updated objects.
    case updatedObjectIDsResultType
    /// The number of updated objects.
    case updatedObjectsCountResultType
}

/// Changes attributes of every object of an entity that matches a predicate, in one SQL `UPDATE`, without
/// loading any object (Core Data's `NSBatchUpdateRequest`).
///
/// ```swift
/// let request = BatchUpdateRequest(entityName: "Movie")
/// request.predicate = FetchPredicate(format: "year < %d", 1980)
/// request.propertiesToUpdate = ["rating": 5.0, "year": BatchUpdateExpression.key("year") + 1]
/// request.resultType = .updatedObjectIDsResultType
/// let ids = try context.execute(request).objectIDs
/// ```
///
/// What it does, and what it does not:
/// - One SQLite transaction: every matching row is updated, or — on any error — none is.
/// - It bypasses contexts. Objects a context has already loaded keep their old values until the context
///   refreshes them (``ManagedObjectContext/refresh(_:mergeChanges:)``) or merges the returned IDs; no
///   validation runs and no notification is posted.
/// - Every updated row's version goes up by one, so a context that later saves a stale copy of one of these
///   objects fails with 133020 "Could not merge changes." instead of silently overwriting the batch's values.
/// - Keys must be attributes of the entity and values must fit them (converted as when an object is saved):
///   otherwise it fails with 134020 (unknown key, listing the attributes), 1550 (wrong type or out of range) or
///   1570 (nil for a non-optional attribute) before anything is written. A result that breaks a uniqueness
///   constraint fails with 133021 and changes nothing.
/// - The predicate compiles to SQL exactly as a fetch's does, with its arguments bound.
/// - In an entity hierarchy, a request for an entity updates its subentities' objects too (unless
///   ``includesSubentities`` is `false`), and a request for a subentity only that subentity's (and its own
///   subentities') objects; the returned IDs name each object's own entity.
public final class BatchUpdateRequest: PersistentStoreRequest, CustomStringConvertible {
    /// The entity whose objects are updated.
    public let entityName: String
    /// Only objects matching it are updated; `nil` updates every object of the entity.
    public var predicate: FetchPredicate?
    /// The attributes to set, typed `[AnyHashable: Any]` as in Core Data: keyed by attribute name (Core Data also
    /// takes its property descriptions as keys; Persistence's are not `Hashable`, so here names only), each to a value (`String`, `Int`, `Double`, `Bool`, `Date`, `UUID`, `URL`,
    /// `Data`, `Decimal`, ``PersistentValue``, or nil / `NSNull` for nil) or a ``BatchUpdateExpression`` computed
    /// from each row. Any other key fails the request.
    public var propertiesToUpdate: [AnyHashable: Any]?
    /// What ``BatchUpdateResult/result`` holds: status (the default), count or IDs.
    public var resultType: BatchUpdateRequestResultType = .statusOnlyResultType
    /// `true` (the default, as in Core Data): the objects of the entity's subentities are updated too; `false`:
    /// only objects of the entity itself.
    public var includesSubentities = true

    public var requestType: PersistentStoreRequestType { .batchUpdateRequestType }

    /// A request for the objects of the entity named `entityName`; set ``propertiesToUpdate`` before running it.
    public init(entityName: String) {
        self.entityName = entityName
    }

    /// A request for `entity`'s objects.
    public convenience init(entity: EntityDescription) {
        self.init(entityName: entity.entityName)
    }

    public var description: String {
        var text = "BatchUpdateRequest(\(entityName)"
        if let predicate { text += " where \(predicate.predicateFormat)" }
        let keys = (propertiesToUpdate ?? [:]).keys.map { Self.propertyName($0) ?? "\($0)" }.sorted()
        return text + " set \(keys.joined(separator: ", ")))"
    }

    /// The attribute a key of ``propertiesToUpdate`` names, when it is a string.
    private static func propertyName(_ key: AnyHashable) -> String? {
        key.base as? String
    }

    // MARK: - Planning

    /// Checks the request against `entity` and compiles it: the predicate to a `WHERE` clause, each value to a
    /// bound argument or an SQL expression.
    func plan(for entity: EntityDescription, schema: StoreSchema) throws -> BatchUpdatePlan {
        let place = "Batch update of \(entity.entityName)"
        guard let properties = propertiesToUpdate, !properties.isEmpty else {
            throw PersistenceError(.coreData, "\(place): propertiesToUpdate is empty; name at least one attribute to set. Its attributes: \(entity.storedAttributeNames.joined(separator: ", ")).",
                                   entityName: entity.entityName)
        }
        let fetch = FetchRequest<ManagedObject>(entityName: entity.entityName)
        fetch.predicate = predicate
        fetch.includesSubentities = includesSubentities
        var query = try FetchQueryCompiler.query(for: fetch, entity: entity, schema: schema)
        query.orderBy = nil
        let table = schema[entity]
        var plan = BatchUpdatePlan(entity: entity, query: query, returnsKeys: resultType == .updatedObjectIDsResultType)
        var named: [(key: String, value: Any)] = []
        for (key, value) in properties {
            guard let name = Self.propertyName(key) else {
                throw PersistenceError(.coreData, "\(place): the key \(key) of propertiesToUpdate is not an attribute name. Its attributes: \(entity.storedAttributeNames.joined(separator: ", ")).",
                                       entityName: entity.entityName)
            }
            named.append((name, value))
        }
        // Sorted keys give the same SQL for the same request, whatever the dictionary's order.
        for (key, raw) in named.sorted(by: { $0.key < $1.key }) {
            let (index, attribute) = try BatchValueChecker.attribute(key, of: entity, place: place)
            let column = table.columns[index] ?? key
            if let expression = raw as? BatchUpdateExpression {
                let compiled = try expression.sql(entity: entity, table: table, alias: "t0", place: place)
                let type = attribute.attributeType
                let integerTarget = [.integer16, .integer32, .integer64].contains(type)
                guard integerTarget || type == .double || type == .float else {
                    throw PersistenceError(.coreData, "\(place): \(entity.entityName).\(key) is a \(type.rawValue) attribute; a BatchUpdateExpression can set integer, double and float attributes only.",
                                           entityName: entity.entityName, key: key)
                }
                if integerTarget && !compiled.isInteger {
                    throw PersistenceError(.managedObjectValidation, "\(place): \(entity.entityName).\(key) holds \(type.rawValue) values, but `\(expression)` gives doubles (it uses a double attribute or literal).",
                                           entityName: entity.entityName, key: key)
                }
                plan.assignments.append(.init(column: column, sql: compiled.sql, arguments: compiled.arguments))
                plan.checks.append(.init(attribute: attribute, column: column, expression: expression.description))
            } else {
                let value = try BatchValueChecker.value(raw, for: attribute, of: entity, place: place)
                plan.assignments.append(.init(column: column, sql: "?", arguments: [attribute.attributeType.sqliteValue(value)]))
            }
        }
        return plan
    }
}
