import Foundation

/// Plans a fetch request on a history entity (``PersistentHistoryChangeRequest/fetchRequest``) for the store: checks
/// that it names only keys history has, turns what only history gives a meaning to — an entity, an object ID — into
/// the store's numbers, and compiles it against ``PersistentHistoryModel``.
enum PersistentHistoryFilter {
    /// `request` in the store's terms, for the store whose tables `schema` describes.
    /// - Throws: error 134060 for a request on another entity, a key the history entity lacks, a sort, limit or
    ///   offset on the change entity, a changed object compared otherwise than by `==`, `!=` or `IN`, or an entity
    ///   the store's model does not have.
    static func filter(for request: FetchRequest<any FetchRequestResult>, schema: StoreSchema) throws -> StoreHistoryQuery.Filter {
        let transaction = PersistentHistoryModel.transactionEntity
        let change = PersistentHistoryModel.changeEntity
        let entity: EntityDescription
        if request.entity === transaction || request.requestedEntityName == transaction.entityName {
            entity = transaction
        } else if request.entity === change || request.requestedEntityName == change.entityName {
            entity = change
        } else {
            throw PersistenceError(.coreData, "A history request filters with a fetch request on the transaction entity (PersistentHistoryTransaction.fetchRequest) or the change entity (PersistentHistoryChange.fetchRequest), not one on \(request.entityName ?? "no entity").")
        }
        let format = request.predicate?.predicateFormat ?? ""
        var predicate = request.predicate?.expression
        try predicate.map { try checkKeys(in: $0, of: entity, format: format) }
        for descriptor in request.sortDescriptors ?? [] {
            try checkKey(descriptor.keyPath, of: entity, format: "sort by \(descriptor.keyPath.joined(separator: "."))")
        }
        if entity === change {
            // Apple documents no order or limit of changes; what Core Data would make of them is unknown, so they
            // are refused rather than guessed.
            guard (request.sortDescriptors ?? []).isEmpty, request.fetchLimit == 0, request.fetchOffset == 0 else {
                throw PersistenceError(.coreData, "A fetch request on the history's change entity takes a predicate only: its changes come in the history's order, and sort descriptors, a fetch limit or a fetch offset on it are not supported (Apple documents none). Sort or limit the transaction entity's request instead.")
            }
            predicate = try predicate.map { try resolved($0, schema: schema, format: format) }
        }
        let compiled = FetchRequest<any FetchRequestResult>()
        compiled.entity = entity
        compiled.predicate = predicate.map(FetchPredicate.init(expression:))
        compiled.sortDescriptors = request.sortDescriptors
        compiled.fetchLimit = request.fetchLimit
        compiled.fetchOffset = request.fetchOffset
        let query = try FetchQueryCompiler.query(for: compiled, entity: entity, schema: PersistentHistoryModel.schema)
        return entity === change ? .changes(query) : .transactions(query)
    }

    // MARK: - Keys

    /// Fails on the first key path that does not start with one of the entity's attributes, or goes on past it.
    private static func checkKeys(in node: PredicateNode, of entity: EntityDescription, format: String) throws {
        switch node {
        case .constant, .tooDeep, .malformed:
            return
        case .and(let children), .or(let children):
            for child in children { try checkKeys(in: child, of: entity, format: format) }
        case .not(let child):
            try checkKeys(in: child, of: entity, format: format)
        case .comparison(let comparison):
            for operand in [comparison.left, comparison.right] { try checkKeys(in: operand, of: entity, format: format) }
        }
    }

    private static func checkKeys(in operand: PredicateOperand, of entity: EntityDescription, format: String) throws {
        switch operand {
        case .keyPath(let path):
            try checkKey(path, of: entity, format: format)
        case .collectionOperation(_, let collection, _), .subqueryCount(let collection, _, _):
            // History has no to-many relationship to count or search: the first key is reported as it stands.
            try checkKey(collection.isEmpty ? ["SELF"] : collection + ["…"], of: entity, format: format)
        case .aggregate(let items):
            for item in items { try checkKeys(in: item, of: entity, format: format) }
        case .constant, .object, .evaluatedObject, .variable:
            return
        }
    }

    private static func checkKey(_ path: [String], of entity: EntityDescription, format: String) throws {
        let keys = entity.attributeNames.sorted()
        let other = entity === PersistentHistoryModel.changeEntity
            ? PersistentHistoryModel.transactionEntity : PersistentHistoryModel.changeEntity
        let what = entity === PersistentHistoryModel.changeEntity ? "change" : "transaction"
        guard let first = path.first, entity.attributesByName[first] != nil else {
            let hint = other.attributesByName[path.first ?? ""] != nil
                ? " '\(path[0])' is a key of the \(what == "change" ? "transaction" : "change") entity: filter with \(what == "change" ? "PersistentHistoryTransaction" : "PersistentHistoryChange").fetchRequest instead."
                : ""
            throw PersistenceError(.coreData, "The history's \(what) entity has no key '\(path.first ?? "")' (in `\(format)`): a fetch request on it filters on \(keys.joined(separator: ", ")).\(hint)",
                                   entityName: entity.entityName, key: path.first)
        }
        guard path.count == 1 else {
            throw PersistenceError(.coreData, "The history's \(what) entity has attributes only, no relationships: '\(path.joined(separator: "."))' cannot go on past '\(first)' (in `\(format)`). It filters on \(keys.joined(separator: ", ")).",
                                   entityName: entity.entityName, key: first)
        }
    }

    // MARK: - Entities and objects

    private static let changedEntity = "changedEntity"
    private static let changedID = "changedID"
    private static let changedObjectID = "changedObjectID"

    /// `node` with every entity compared to `changedEntity` replaced by its number in the store, and every
    /// comparison of `changedObjectID` by comparisons of the entity and the row's key, which the store records.
    private static func resolved(_ node: PredicateNode, schema: StoreSchema, format: String) throws -> PredicateNode {
        switch node {
        case .constant, .tooDeep, .malformed:
            return node
        case .and(let children):
            return .conjunction(try children.map { try resolved($0, schema: schema, format: format) })
        case .or(let children):
            return .disjunction(try children.map { try resolved($0, schema: schema, format: format) })
        case .not(let child):
            return .not(try resolved(child, schema: schema, format: format))
        case .comparison(let comparison):
            if [comparison.left, comparison.right].contains(.keyPath([changedObjectID])) {
                return try objectComparison(comparison, schema: schema, format: format)
            }
            let left = try entityNumbers(in: comparison.left, schema: schema, format: format)
            let right = try entityNumbers(in: comparison.right, schema: schema, format: format)
            return .comparison(PredicateComparison(left, comparison.operator, right, modifier: comparison.modifier,
                                                   options: comparison.options))
        }
    }

    /// `operand` with each entity constant in it replaced by the entity's `Z_ENT` in the store.
    private static func entityNumbers(in operand: PredicateOperand, schema: StoreSchema, format: String) throws -> PredicateOperand {
        switch operand {
        case .constant(let value):
            guard let name = EntityDescription.entityName(inPredicateConstant: value) else { return operand }
            guard let number = entityNumber(name, schema: schema) else {
                throw PersistenceError(.coreData, "The store's model has no entity \(name) (in `\(format)`): compare changedEntity with an entity of the model the store was loaded with.",
                                       entityName: name, key: changedEntity)
            }
            return .constant(.integer(number))
        case .aggregate(let items):
            return .aggregate(try items.map { try entityNumbers(in: $0, schema: schema, format: format) })
        default:
            return operand
        }
    }

    private static func entityNumber(_ name: String, schema: StoreSchema) -> Int64? {
        schema.entities.first { $0.entity.entityName == name }?.number
    }

    /// A comparison of `changedObjectID` with an object ID (`==`, `!=`) or a list of them (`IN`), as conditions on
    /// the changed object's entity and key. An unsaved object's ID, or one of an entity the store lacks, matches no
    /// change; a changed object is never nil.
    private static func objectComparison(_ comparison: PredicateComparison, schema: StoreSchema, format: String) throws -> PredicateNode {
        let other: PredicateOperand
        switch (comparison.left, comparison.right) {
        case (.keyPath([changedObjectID]), let right) where right != .keyPath([changedObjectID]):
            other = right
        case (let left, .keyPath([changedObjectID])) where [.equalTo, .notEqualTo].contains(comparison.operator):
            other = left
        default:
            throw objectFailure(format)
        }
        guard comparison.modifier == .direct else { throw objectFailure(format) }
        func matches(_ item: PredicateOperand) throws -> PredicateNode {
            switch item {
            case .object(let id):
                guard let key = id.primaryKey, let number = entityNumber(id.entityName, schema: schema) else { return .constant(false) }
                return .conjunction([
                    .comparison(PredicateComparison(.keyPath([changedEntity]), .equalTo, .constant(.integer(number)))),
                    .comparison(PredicateComparison(.keyPath([changedID]), .equalTo, .constant(.integer(key)))),
                ])
            case .constant(.null):
                return .constant(false)
            default:
                throw objectFailure(format)
            }
        }
        switch (comparison.operator, other) {
        case (.equalTo, _): return try matches(other)
        case (.notEqualTo, _): return .not(try matches(other))
        case (.in, .aggregate(let items)): return .disjunction(try items.map(matches))
        default: throw objectFailure(format)
        }
    }

    private static func objectFailure(_ format: String) -> PersistenceError {
        PersistenceError(.coreData, "changedObjectID compares with an object ID only: changedObjectID == %@, != %@ or IN %@ with a ManagedObjectID or a list of them (in `\(format)`).",
                         key: changedObjectID)
    }
}
