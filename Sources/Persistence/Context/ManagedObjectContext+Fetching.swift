import Foundation

extension ManagedObjectContext {
    /// Runs `request` and returns its results, typed as the request's `Result`.
    ///
    /// With ``FetchRequest/includesPendingChanges`` (the default) the results reflect unsaved work: inserted
    /// objects that match appear, deleted ones do not, and changed objects are tested with their current values.
    /// - Throws: an `NSError` for an unknown entity or key, a predicate that does not fit the model, or a
    ///   `Result` type that does not match the result type; store errors with the SQL. A subentity's class need
    ///   not derive from its parent's: a `FetchRequest<Region>` whose results include an object of a subentity
    ///   whose class is not `Region` throws 134060 naming it (Core Data's typed fetch would trap on that element),
    ///   and `FetchRequest<ManagedObject>` returns them all.
    public func fetch<Result: FetchRequestResult>(_ request: FetchRequest<Result>) throws -> [Result] {
        checkQueue("fetch(_:)")
        scheduleMainQueueSweep()
        let entity = try entity(for: request)
        let results: [Any]
        switch request.resultType {
        case .managedObjectResultType:
            let objects = try fetchObjects(request, entity: entity)
            // When every entity fetched has the class `Result` or a subclass of it, the array already has the right
            // representation and needs no per-element cast. (Not for a protocol `Result`: an array of existentials
            // is laid out differently.)
            if let resultClass = Result.self as? AnyClass,
               entity.fetchesOnlyInstances(of: resultClass, includingSubentities: request.includesSubentities) {
                return unsafeBitCast(objects, to: [Result].self)
            }
            if entity.managedObjectClass is Result.Type, let stray = objects.first(where: { !($0 is Result) }) {
                throw entity.resultClassError(stray, requestKind: "FetchRequest", resultType: Result.self)
            }
            results = objects
        case .managedObjectIDResultType:
            results = try fetchObjects(request, entity: entity, idsOnly: true).map(\.objectID)
        case .dictionaryResultType:
            // Rows are `NSDictionary` objects and the count an `NSNumber`, as Core Data's: a `Result` is a class.
            results = try fetchDictionaries(request, entity: entity).map { NSDictionary(dictionary: $0) }
        case .countResultType:
            results = [NSNumber(value: try count(request, entity: entity))]
        default:
            // Core Data does not say what another value (a union of the constants) fetches: refuse it.
            throw PersistenceError(.coreData,
                                   "FetchRequest<\(resultTypeName(Result.self))> for \(entity.entityName) has resultType \(request.resultType), which is none of FetchRequestResultType's four constants. Set it to one of them.",
                                   entityName: entity.entityName)
        }
        if let typed = results as? [Result] { return typed }
        throw PersistenceError(.coreData,
                               "FetchRequest<\(resultTypeName(Result.self))> for \(entity.entityName) returns \(request.resultType) results, which are not \(Result.self). Use FetchRequest<\(Self.expectedResultTypeName(request.resultType, entity: entity))>.",
                               entityName: entity.entityName)
    }

    /// The number of objects `request` would return (its limit and offset applied).
    public func count<Result: FetchRequestResult>(for request: FetchRequest<Result>) throws -> Int {
        checkQueue("count(for:)")
        return try count(request, entity: try entity(for: request))
    }

    private static func expectedResultTypeName(_ type: FetchRequestResultType, entity: EntityDescription) -> String {
        switch type {
        case .managedObjectResultType: return String(describing: entity.managedObjectClass)
        case .managedObjectIDResultType: return "ManagedObjectID"
        case .dictionaryResultType: return "NSDictionary"
        case .countResultType: return "NSNumber"
        default: return "FetchRequestResult"
        }
    }

    private func entity<Result: FetchRequestResult>(for request: FetchRequest<Result>) throws -> EntityDescription {
        guard let model else {
            throw PersistenceError(.persistentStoreInvalidType, "This context has no persistent store coordinator to fetch from.")
        }
        if let entity = model.entitiesByName[request.requestedEntityName] { return entity }
        guard !request.requestedEntityName.isEmpty else {
            throw PersistenceError(.persistentStoreIncompatibleSchema,
                                   "A fetch request must have an entity: set its entity, or make it with FetchRequest(entityName:). The model's entities: \(model.entities.map(\.entityName).joined(separator: ", ")).")
        }
        if let type = Result.self as? ManagedObject.Type, let entity = model.entity(for: type) { return entity }
        return try model.entity(named: request.requestedEntityName)
    }

    /// Objects matching the request, pending changes included when asked. In a child context the parents' unsaved
    /// changes are always included: to the child they are the data.
    private func fetchObjects<Result: FetchRequestResult>(_ request: FetchRequest<Result>, entity: EntityDescription, idsOnly: Bool = false) throws -> [ManagedObject] {
        let coordinator = persistentStoreCoordinator!
        var query = try FetchQueryCompiler.query(for: request, entity: entity, schema: coordinator.schema())
        let ancestors = parent == nil ? PendingChanges() : ancestorPendingChanges(for: entity)
        let pending = (request.includesPendingChanges && hasUnsavedObjects) || !ancestors.isEmpty
        if pending {
            query.limit = 0
            query.offset = 0
        }
        var objects: [ManagedObject]
        if idsOnly || request.fetchBatchSize > 0 {
            let keys = try withReadStore { try $0.primaryKeys(for: query) }
            objects = keys.map { object(forPrimaryKey: $0.primaryKey, exactEntity: $0.entity) }
            if request.fetchBatchSize > 0 && !idsOnly { FaultBatch.assign(objects, size: request.fetchBatchSize) }
        } else {
            let asFaults = request.returnsObjectsAsFaults
            // The store hands back values; the objects are made here, once its lock is released, so no code of
            // this context (nor `awakeFromFetch()`) runs under the coordinator's lock.
            let packs = ancestors.isEmpty && !query.readsFamily && entity.packedLayout != nil
            var (read, ids) = try withReadStore { store -> (FetchedRead, PermanentIDs) in
                if packs, let layout = entity.packedLayout {
                    return (.packed(try store.packedRows(for: query, layout: layout, bytesPerObject: Self.fetchedObjectSize)),
                            store.permanentIDs)
                }
                return (.rows(try store.rows(for: query)), store.permanentIDs)
            }
            if registry.storeIdentifier.isEmpty { registry.storeIdentifier = ids.storeIdentifier }
            let ownStore = registry.storeIdentifier == ids.storeIdentifier
            switch read {
            case .packed(var rows) where ownStore:
                // `rows` alone holds the blocks' keys now, so they are freed block by block as the objects are made.
                read = .rows([])
                objects = makePackedObjects(&rows, entity: entity, ids: ids, asFaults: asFaults)
            case .packed(let rows):
                objects = Self.storeRows(of: rows, entity: entity).map {
                    object(for: $0, entity: $0.entity, ids: ids, asFault: asFaults, ownStore: false)
                }
            case .rows(let rows):
                objects = []
                objects.reserveCapacity(rows.count)
                for row in rows {
                    let id = ids.id(of: row.entity, primaryKey: row.primaryKey)
                    if ancestors.changed.contains(id) || ancestors.deleted.contains(id) {
                        // The store's row is stale for this context: the object reads through its parent.
                        objects.append(self.object(with: id))
                    } else {
                        objects.append(self.object(for: row, entity: row.entity, ids: ids, asFault: asFaults, ownStore: ownStore))
                    }
                }
            }
        }
        guard pending else { return objects }
        let results = try applyPendingChanges(to: objects, request: request, entity: entity, ancestors: ancestors)
        if !idsOnly && request.fetchBatchSize == 0 && !request.returnsObjectsAsFaults {
            // Objects read through a parent (changed or inserted there) come as faults: filled here, as the request
            // asks, one by one from the parent. (Batched faults stay faults: their batch fills them together.)
            for object in results where object.faultState != .fired { object.fireFault() }
        }
        return results
    }

    /// The memory a fetched object takes, for ``FetchedPackedRows`` to set aside: the malloc block of an object of
    /// a class with ten `@Managed` properties (see ObjectLayoutTests). Only where objects land in memory depends
    /// on it.
    static let fetchedObjectSize = 96

    /// What a fetch read: packed rows of one entity, or rows decoded one by one.
    private enum FetchedRead {
        case packed(FetchedPackedRows)
        case rows([StoreRow])
    }

    /// The objects for packed rows of this context's own store, for a context without parents: the common fetch,
    /// kept lean. A new object costs one retain of its block and its places in the registry and the result, and an
    /// object already registered is reused — filled with its row if it is a fault and the fetch does not return
    /// faults (see ``ManagedObjectContext/object(for:entity:ids:asFault:ownStore:)``).
    ///
    /// Each block's keys and versions are let go of once its objects are made, and the memory set aside for its
    /// objects just before (see ``FetchedPackedRows``).
    private func makePackedObjects(_ rows: inout FetchedPackedRows, entity: EntityDescription, ids: PermanentIDs,
                                   asFaults: Bool) -> [ManagedObject] {
        var found: [ManagedObject] = []
        found.reserveCapacity(rows.count)
        let table = registry.permanentTable(entityIndex: entity.index)
        let objectClass = entity.managedObjectClass
        let scope = ids.scope(of: entity)
        let keepsAll = retainsRegisteredObjects
        precondition(!scope.isTemporary, "a store's scopes are of permanent IDs")
        rows.consumeInOrder(packed: { fetched, row in
            let primaryKey = fetched.key(at: row)
            let version = fetched.version(at: row)
            let block = Unmanaged.passUnretained(fetched.block)
            // An object only the registry holds is let go of: the row gets a new object, as on Apple, where the
            // old one would be gone.
            if let registered = table.heldObject(for: primaryKey, keepingAll: keepsAll) {
                switch registered.faultState {
                case .faultWithoutRow where !registered.isInaccessible:
                    registered.adoptPacked(block, row: row, version: version, asFault: asFaults)
                case .faultWithRow where !asFaults && !registered.hasChanges:
                    registered.adoptPacked(block, row: row, version: version, asFault: false)
                default:
                    break
                }
                found.append(registered)
                return
            }
            let object = objectClass.init(fetchedEntity: entity, objectID: ManagedObjectID(scope: scope, key: primaryKey),
                                          context: self)
            object.adoptPacked(block, row: row, version: version, asFault: asFaults)
            table.insert(object, for: primaryKey)
            // Consumed: the result takes over the reference the object was made with.
            found.append(consume object)
        }, unpacked: { row in
            found.append(object(for: row, entity: entity, ids: ids, asFault: asFaults, ownStore: true))
        })
        return found
    }

    /// Packed rows as rows, in their order (for a context whose registry belongs to another store).
    private static func storeRows(of rows: consuming FetchedPackedRows, entity: EntityDescription) -> [StoreRow] {
        var result: [StoreRow] = []
        result.reserveCapacity(rows.count)
        rows.consumeInOrder(packed: { fetched, row in
            result.append(StoreRow(entity: entity, primaryKey: fetched.key(at: row), version: fetched.version(at: row),
                                   packed: PackedRow(block: fetched.block, row: row)))
        }, unpacked: { result.append($0) })
        return result
    }

    /// Reconciles store results with unsaved work (this context's and its parents'), then sorts and pages in memory.
    private func applyPendingChanges<Result: FetchRequestResult>(to fetched: [ManagedObject], request: FetchRequest<Result>, entity: EntityDescription,
                                             ancestors: PendingChanges) throws -> [ManagedObject] {
        var seen = Set<ObjectIdentifier>()
        var results: [ManagedObject] = []
        func matches(_ object: ManagedObject) throws -> Bool {
            guard let predicate = request.predicate else { return true }
            return try predicate.evaluate(checking: object)
        }
        for object in fetched where !object.isDeleted && !ancestors.deleted.contains(object.objectID) {
            seen.insert(ObjectIdentifier(object))
            if object.hasChanges || ancestors.changed.contains(object.objectID), try !matches(object) { continue }
            results.append(object)
        }
        // Objects the store's query could not see as they are now: new or changed here or in a parent.
        let ancestorObjects = (ancestors.inserted.union(ancestors.changed)).map { object(with: $0) }
        for object in inserted.objects + updated.objects + ancestorObjects
        where object.entity.matches(entity, includingSubentities: request.includesSubentities)
            && !object.isDeleted && !ancestors.deleted.contains(object.objectID) {
            guard seen.insert(ObjectIdentifier(object)).inserted else { continue }
            if try matches(object) { results.append(object) }
        }
        if let descriptors = request.sortDescriptors, !descriptors.isEmpty {
            results = Self.sorted(results, by: descriptors)
        }
        let start = min(request.fetchOffset, results.count)
        let end = request.fetchLimit > 0 ? min(start + request.fetchLimit, results.count) : results.count
        return Array(results[start..<end])
    }

    /// Sorts in memory exactly as the SQL does: nil first, strings by UTF-8 bytes (or ASCII case folded).
    static func sorted(_ objects: [ManagedObject], by descriptors: [FetchSortDescriptor]) -> [ManagedObject] {
        let keyed = objects.map { object in (object, descriptors.map { object.sortValue(forKeyPath: $0.keyPath) }) }
        return keyed.sorted { lhs, rhs in
            for (index, descriptor) in descriptors.enumerated() {
                let order = SortOrdering.compare(lhs.1[index], rhs.1[index], caseInsensitive: descriptor.caseInsensitive)
                if order == .orderedSame { continue }
                return (order == .orderedAscending) == descriptor.ascending
            }
            return false
        }.map(\.0)
    }

    private func count<Result: FetchRequestResult>(_ request: FetchRequest<Result>, entity: EntityDescription) throws -> Int {
        if (request.includesPendingChanges && hasUnsavedObjects) || parent != nil {
            return try fetchObjects(request, entity: entity, idsOnly: true).count
        }
        let coordinator = persistentStoreCoordinator!
        let query = try FetchQueryCompiler.query(for: request, entity: entity, schema: coordinator.schema())
        return try withReadStore { try $0.count(for: query) }
    }

    /// The name an element of `propertiesToFetch` stands for: a name as it is, a description by its name.
    private static func propertyName(_ element: Any, entity: EntityDescription) throws -> String {
        switch element {
        case let name as String: return name
        case let attribute as AttributeDescription: return attribute.name
        case let relationship as RelationshipDescription: return relationship.name
        default:
            throw PersistenceError(.coreData, "propertiesToFetch of a fetch of \(entity.entityName) holds a \(type(of: element)); it takes property names and attribute or relationship descriptions.",
                                   entityName: entity.entityName)
        }
    }

    /// Dictionary rows straight from the store (unsaved changes are not included, as in Core Data).
    private func fetchDictionaries<Result: FetchRequestResult>(_ request: FetchRequest<Result>, entity: EntityDescription) throws -> [[String: Any]] {
        let coordinator = persistentStoreCoordinator!
        let schema = try coordinator.schema()
        let table = schema[entity]
        let names = try request.propertiesToFetch.map { try $0.map { try Self.propertyName($0, entity: entity) } }
            ?? entity.storedAttributeNames
        var columns: [String] = []
        var indexes: [Int] = []
        for name in names {
            let index = try entity.propertyIndex(forKey: name)
            if entity.isTransient(at: index) {
                throw PersistenceError(.persistentStoreIncompatibleSchema, "\(entity.entityName).\(name) is a transient attribute, kept in memory only; dictionary results come from the store, which has no value for it. Fetch the objects instead, or leave it out of propertiesToFetch.", entityName: entity.entityName, key: name)
            }
            guard let column = table.columns[index] else {
                throw PersistenceError(.coreData, "\(entity.entityName).\(name) is a to-many relationship; dictionary results can hold attributes and to-one relationships only.", entityName: entity.entityName, key: name)
            }
            columns.append("t0." + column)
            indexes.append(index)
        }
        // Transformable attributes come back as the values they were set to, through their transformers.
        var transformers: [Int: ValueTransformer] = [:]
        for index in indexes {
            guard let attribute = entity.attributeAt[index], attribute.attributeType == .transformable else { continue }
            let name = attribute.valueTransformerName ?? ""
            guard let transformer = registeredValueTransformer(named: name) else {
                throw PersistenceError(.coreData, "\(entity.entityName).\(attribute.name) is transformable with the value transformer '\(name)', which is not registered: register it with ValueTransformer.setValueTransformer(_:forName:) before fetching.", entityName: entity.entityName, key: attribute.name)
            }
            transformers[index] = transformer
        }
        let query = try FetchQueryCompiler.query(for: request, entity: entity, schema: schema)
        let (rows, rowEntities) = try withReadStore { store in
            let rows = try store.values(for: query, columns: columns, distinct: request.returnsDistinctResults)
            // A to-one into a hierarchy holds a key; which entity each key's row is comes from the store.
            var rowEntities: [Int: [Int64: EntityDescription]] = [:]
            for (position, index) in indexes.enumerated() {
                guard let destination = entity.relationshipAt[index]?.destinationEntity, destination.hasSubentities else { continue }
                let keys = rows.compactMap { row -> Int64? in if case .integer(let pk) = row[position] { pk } else { nil } }
                rowEntities[index] = try store.entities(of: destination, primaryKeys: keys)
            }
            return (rows, rowEntities)
        }
        return rows.map { row in
            var dictionary: [String: Any] = [:]
            for (position, index) in indexes.enumerated() {
                let name = entity.properties[index].name
                if let attribute = entity.attributeAt[index] {
                    let value = attribute.attributeType.persistentValue(row[position])
                    if let transformer = transformers[index] {
                        if case .data(let data) = value { dictionary[name] = transformer.reverseTransformedValue(data) }
                    } else if let swift = ManagedObject.swiftValue(value, type: attribute.attributeType) {
                        dictionary[name] = swift
                    }
                } else if case .integer(let pk) = row[position], let destination = entity.relationshipAt[index]?.destinationEntity {
                    let exact = destination.hasSubentities ? (rowEntities[index]?[pk] ?? destination) : destination
                    dictionary[name] = permanentID(of: exact, primaryKey: pk)
                }
            }
            return dictionary
        }
    }
}
