/// What a ``BatchDeleteRequest`` returns in ``BatchDeleteResult/result`` (Core Data's
/// `NSBatchDeleteRequestResultType`).
public enum BatchDeleteRequestResultType: Sendable, Hashable {
    /// `true` on success.
    case resultTypeStatusOnly
    /// The IDs of every deleted object.
    case resultTypeObjectIDs
    /// The number of deleted objects.
    case resultTypeCount
}

/// Deletes every object a fetch request matches, or the objects with the given IDs, in SQL, without loading them
/// (Core Data's `NSBatchDeleteRequest`).
///
/// ```swift
/// let decks = FetchRequest<FetchRequestResult>(entityName: "Deck")
/// decks.predicate = FetchPredicate(format: "archived == YES")
/// let request = BatchDeleteRequest(fetchRequest: decks)
/// request.resultType = .resultTypeObjectIDs
/// let result = try context.execute(request) as? BatchDeleteResult
/// let deleted = result?.result as? [ManagedObjectID] ?? []
/// ```
///
/// The fetch request is untyped, as Core Data's initializer takes it: a `FetchRequest<Deck>` does not convert, so
/// make the request for a batch delete as `FetchRequest<FetchRequestResult>(entityName:)`.
///
/// Delete rules are applied in SQL, set by set, as a context's save would apply them object by object:
/// - **cascade**: related objects are deleted too, recursively (through to-one keys, join tables and ordered
///   children), with their own rules applied in turn;
/// - **nullify**: keys of related objects that point at a deleted object are cleared (and their order within an
///   ordered relationship), join-table rows go, and each related object's version goes up;
/// - **deny**: if an object to be deleted still has a related object that is not being deleted as well, the
///   request fails with 1600, naming the object and the relationship, and nothing is deleted;
/// - **no action**: related objects keep pointing at the deleted ones (you tidy up yourself).
/// Core Data's own batch delete leaves part of this to you; here all four rules are applied.
///
/// Like every batch request it runs in one SQLite transaction (all or nothing), bypasses contexts — objects they
/// have loaded stay in memory as they were until refreshed, merged, or saved into a conflict —, validates nothing
/// else and posts no notification. Related objects whose rows it changes get a new version, so a stale save of
/// one of them fails with 133020; so does saving an object whose row it deleted.
///
/// The result's count and IDs cover every deleted object, those deleted by cascade included (roots first), so
/// that merging the IDs into contexts removes everything that is gone.
///
/// Entity inheritance works as in a fetch: a request for an entity deletes its subentities' objects too, unless the
/// fetch request's ``FetchRequest/includesSubentities`` is `false`, and a request for a subentity deletes only that
/// subentity's objects (and its own subentities'). Delete rules are those of each object's own entity, inherited
/// ones included, and reach related objects whatever entity of a hierarchy they are; the returned IDs name each
/// object's own entity.
public final class BatchDeleteRequest: PersistentStoreRequest, CustomStringConvertible {
    /// The entity of the objects to delete (for an ID list: the entity of its IDs).
    public let entityName: String
    /// The IDs given to ``init(objectIDs:)``, or `nil` for a request made from a fetch request.
    public let objectIDs: [ManagedObjectID]?
    /// What ``BatchDeleteResult/result`` holds: status (the default), count or IDs.
    public var resultType: BatchDeleteRequestResultType = .resultTypeStatusOnly

    public var requestType: PersistentStoreRequestType { .batchDeleteRequestType }

    /// Compiles the fetch request (read when the request runs, as Core Data reads its fetch request then).
    private let compileFetch: ((EntityDescription, StoreSchema) throws -> StoreQuery)?

    /// Deletes the objects `fetchRequest` matches: its predicate, and its limit and offset (in its sort order).
    /// The request names its entity (by name, or by its ``FetchRequest/entity``).
    public init(fetchRequest: FetchRequest<any FetchRequestResult>) {
        entityName = fetchRequest.requestedEntityName
        objectIDs = nil
        compileFetch = { entity, schema in
            var query = try FetchQueryCompiler.query(for: fetchRequest, entity: entity, schema: schema)
            // Order matters only to choose which rows a limit or offset keeps.
            if query.limit == 0 && query.offset == 0 { query.orderBy = nil }
            return query
        }
    }

    /// Deletes the objects with these IDs. They must be saved (permanent) IDs of this store and of one entity,
    /// as in Core Data; IDs whose rows are already gone are skipped.
    public init(objectIDs: [ManagedObjectID]) {
        entityName = objectIDs.first?.entityName ?? ""
        self.objectIDs = objectIDs
        compileFetch = nil
    }

    public var description: String {
        if let objectIDs { return "BatchDeleteRequest(\(objectIDs.count) \(entityName) IDs)" }
        return "BatchDeleteRequest(\(entityName))"
    }

    // MARK: - Planning

    /// Checks the request and says which rows to start from.
    func plan(for entity: EntityDescription, schema: StoreSchema, storeIdentifier: String) throws -> BatchDeletePlan {
        let returnsKeys = resultType == .resultTypeObjectIDs
        if let compileFetch {
            return BatchDeletePlan(entity: entity, roots: .query(try compileFetch(entity, schema)), returnsKeys: returnsKeys)
        }
        var keys: [Int64] = []
        for (position, id) in (objectIDs ?? []).enumerated() {
            let place = "Batch delete: objectIDs[\(position)] \(id)"
            guard id.entityName == entity.entityName else {
                throw PersistenceError(.coreData, "\(place) is a \(id.entityName), but objectIDs[0] is a \(entity.entityName); one batch delete takes the IDs of one entity.",
                                       objectID: id)
            }
            guard let key = id.primaryKey else {
                throw PersistenceError(.coreData, "\(place) is a temporary ID: the object was never saved, so the store has nothing to delete. Save first, or delete it through its context.",
                                       objectID: id)
            }
            guard id.storeIdentifier == storeIdentifier else {
                throw PersistenceError(.coreData, "\(place) belongs to another store (\(id.storeIdentifier)); this context's store is \(storeIdentifier).",
                                       objectID: id)
            }
            keys.append(key)
        }
        return BatchDeletePlan(entity: entity, roots: .primaryKeys(keys), returnsKeys: returnsKeys)
    }
}
