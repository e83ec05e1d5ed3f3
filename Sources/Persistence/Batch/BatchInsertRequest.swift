/// What a ``BatchInsertRequest`` returns in ``BatchInsertResult/result`` (Core Data's
/// `NSBatchInsertRequestResultType`).
public enum BatchInsertRequestResultType: Sendable, Hashable {
    /// `true` on success.
    case statusOnly
    /// The IDs of the inserted (or, under a uniqueness constraint, updated) objects, in the order given.
    case objectIDs
    /// The number of rows inserted or updated.
    case count
}

/// Inserts objects from dictionaries straight into the store, without contexts (Core Data's
/// `NSBatchInsertRequest`).
///
/// ```swift
/// let request = BatchInsertRequest(entityName: "Movie", objects: [
///     ["title": "Alien", "year": 1979],
///     ["title": "Heat", "year": 1995, "rating": 8.3],
/// ])
/// request.resultType = .objectIDs
/// let ids = try context.execute(request).objectIDs
/// ```
///
/// - Keys are attribute names; a key the entity does not have fails with 134020 (listing its attributes), a
///   relationship too (batch inserts set attributes only, as in Core Data). Missing keys take the attribute's
///   default value.
/// - Values are converted as when an object is saved (an `Int` for a double attribute…); a value that does not
///   fit fails with 1550 and a required attribute left nil with 1570, the message naming the row index, the key
///   and the value — before anything is written.
/// - New rows get primary keys from the store's key counter, as saved objects do, and version 1. Rows of a
///   subentity go into its root entity's table, marked as the subentity's, with keys from the root's counter; an
///   abstract entity takes no rows (134060).
/// - Uniqueness constraints make it an *upsert* when the executing context's merge policy is
///   ``MergePolicy/mergeByPropertyObjectTrump``, as in Core Data (Apple's sample "Loading and Displaying a Large Data
///   Feed" relies on that policy): a dictionary whose constrained values match a stored row updates that row
///   instead — only the keys the dictionary gives — and bumps its version, so a context holding a stale copy gets
///   133020 when it saves it. Two dictionaries of one request that match each other behave the same way: the later
///   one updates the row the earlier one made. In an entity hierarchy, a match with an object that is not of this
///   entity (or one of its subentities) fails with 133021, changing nothing.
/// - Under any other merge policy — the default, ``MergePolicy/error``, included — a clash fails the whole request
///   with 133021 (`CocoaError.Code.managedObjectConstraintMerge`), nothing written. Apple documents neither
///   what the other policies do with a batch insert's clash nor the error; this is the stricter reading.
/// - One SQLite transaction: all rows or none. No validation beyond the above, no notifications, and contexts
///   do not see the new objects until they fetch.
public final class BatchInsertRequest: PersistentStoreRequest, CustomStringConvertible {
    /// The entity of the rows to insert.
    public let entityName: String
    /// The rows to insert, one dictionary each (the form made by ``init(entityName:objects:)``).
    public var objectsToInsert: [[String: Any]]?
    /// Fills one row per call into the empty dictionary it is given (attribute names as keys), and returns `true`
    /// when there are no more rows — the dictionary of that last call is not inserted (the form made by
    /// ``init(entityName:dictionaryHandler:)``). Called on the executing thread, before anything is written. A key
    /// that is not a string fails the request, as an unknown attribute name does.
    public var dictionaryHandler: ((NSMutableDictionary) -> Bool)?
    /// What ``BatchInsertResult/result`` holds: status (the default), count or IDs.
    public var resultType: BatchInsertRequestResultType = .statusOnly

    public var requestType: PersistentStoreRequestType { .batchInsertRequestType }

    /// Inserts `objects`, one row per dictionary.
    public init(entityName: String, objects: [[String: Any]]) {
        self.entityName = entityName
        self.objectsToInsert = objects
    }

    /// Inserts the rows `handler` produces, until it returns `true`.
    public convenience init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.init(entityName: entityName)
        self.dictionaryHandler = handler
    }

    /// A request with neither rows nor a handler yet.
    init(entityName: String) {
        self.entityName = entityName
    }

    public var description: String {
        if let objectsToInsert { return "BatchInsertRequest(\(entityName), \(objectsToInsert.count) objects)" }
        return "BatchInsertRequest(\(entityName), from a handler)"
    }

    /// A value read back from the handler's dictionary. Foundation stores Swift numbers there as `NSNumber`s, and
    /// an `NSNumber` of 0 or 1 casts to `Bool` whatever it held: its own type says which Swift value it was.
    static func unbridged(_ value: Any) -> Any {
        guard let number = value as? NSNumber else { return value }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "d"), UInt8(ascii: "f"): return number.doubleValue
        case UInt8(ascii: "c"), UInt8(ascii: "B"): return number.boolValue
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
            return number.uint64Value
        default: return number.int64Value
        }
    }

    // MARK: - Planning

    /// Reads every row (calling the handler), checks it and converts it to stored values; under `mergePolicy`, the
    /// executing context's, a clash on a uniqueness constraint is an upsert or an error.
    func plan(for entity: EntityDescription, schema: StoreSchema, mergePolicy: MergePolicy) throws -> BatchInsertPlan {
        // An abstract entity has objects only through its subentities, so it can have no rows of its own. Apple does
        // not document what a batch insert into one does; it is refused here as inserting one in a context is.
        guard !entity.isAbstract else {
            let concrete = entity.family.filter { !$0.isAbstract }.map(\.entityName)
            throw PersistenceError(.coreData, "Batch insert into \(entity.entityName): \(entity.entityName) is abstract, so it can have no objects of its own. Insert into one of its subentities instead\(concrete.isEmpty ? "" : " (\(concrete.joined(separator: ", ")))").",
                                   entityName: entity.entityName)
        }
        let table = schema[entity]
        var plan = BatchInsertPlan(entity: entity, table: table, returnsKeys: resultType == .objectIDs, mergePolicy: mergePolicy)
        var positionOfIndex: [Int: Int] = [:]
        for (position, index) in plan.attributeIndexes.enumerated() { positionOfIndex[index] = position }
        let defaults = plan.attributeIndexes.map { index in
            entity.attributeAt[index].map { $0.attributeType.sqliteValue($0.persistentDefaultValue) } ?? .null
        }

        func add(_ dictionary: [String: Any], row: Int) throws {
            let place = "Batch insert into \(entity.entityName), row \(row)"
            var values = defaults
            var given: [Int] = []
            for (key, raw) in dictionary.sorted(by: { $0.key < $1.key }) {
                let (index, attribute) = try BatchValueChecker.attribute(key, of: entity, place: place)
                let value = try BatchValueChecker.value(raw, for: attribute, of: entity, place: place)
                guard let position = positionOfIndex[index] else { continue }
                values[position] = attribute.attributeType.sqliteValue(value)
                given.append(position)
            }
            for (position, index) in plan.attributeIndexes.enumerated() where values[position] == .null {
                guard let attribute = entity.attributeAt[index], !attribute.isOptional else { continue }
                throw PersistenceError(.validationMissingMandatoryProperty,
                                       "\(place): \(entity.entityName).\(attribute.name) is required, but the dictionary does not give it and it has no default value.",
                                       entityName: entity.entityName, key: attribute.name, value: .null)
            }
            plan.rows.append(BatchInsertPlan.Row(values: values, given: given.sorted()))
        }

        if let objectsToInsert {
            for (row, dictionary) in objectsToInsert.enumerated() { try add(dictionary, row: row) }
        } else if let dictionaryHandler {
            var row = 0
            while true {
                let filled = NSMutableDictionary()
                if dictionaryHandler(filled) { break }
                var dictionary: [String: Any] = [:]
                for key in filled.allKeys {
                    guard let name = key as? String else {
                        throw PersistenceError(.coreData, "Batch insert into \(entity.entityName), row \(row): the key \(key) is not an attribute name; the dictionary handler must use the names of \(entity.entityName)'s attributes as keys.",
                                               entityName: entity.entityName)
                    }
                    dictionary[name] = filled.object(forKey: key).map(Self.unbridged)
                }
                try add(dictionary, row: row)
                row += 1
            }
        }
        return plan
    }
}
