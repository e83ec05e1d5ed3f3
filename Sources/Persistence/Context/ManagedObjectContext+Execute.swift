import Foundation

/// `execute(_:)`: batch requests and asynchronous fetches.
///
/// Like every context method, call it on the context's queue. Batch requests go straight to the store in
/// one transaction of their own: they neither read nor change this context (its registered objects keep their
/// values, its unsaved changes stay unsaved and are not written), and they post no notifications. (A store with
/// persistent history records them, by this context's ``transactionAuthor``, and a coordinator loaded with
/// `NSPersistentStoreRemoteChangeNotificationPostOptionKey` posts its remote-change notification for them, as for
/// any write.)
extension ManagedObjectContext {
    // The typed forms below are internal: Core Data has one `execute(_:)`, returning the base result class, and so
    // has the public API (further down). The library and its own tests call them to skip the cast.

    /// Runs a batch update in the store (see ``BatchUpdateRequest``).
    /// - Throws: 134020 unknown entity or attribute (the message lists the valid ones),
    ///   1550 / 1570 a value that does not fit, 133021 a uniqueness constraint broken, or the store's error with
    ///   its SQL. Nothing is written when it throws.
    @discardableResult
    func execute(_ request: BatchUpdateRequest) throws -> BatchUpdateResult {
        checkQueue("execute(BatchUpdateRequest)")
        let (coordinator, entity) = try storeRequestTarget(entityName: request.entityName, resultClass: nil)
        let plan = try request.plan(for: entity, schema: coordinator.schema())
        let (count, objectIDs) = try withHistoryOrigin { try coordinator.withStore { try $0.executeBatchUpdate(plan) } }
        return BatchUpdateResult(resultType: request.resultType, count: count, objectIDs: objectIDs)
    }

    /// Runs a batch delete in the store, applying delete rules in SQL (see ``BatchDeleteRequest``).
    /// - Throws: 134020 unknown entity or key, 1600 a deny rule, 134060 IDs of several
    ///   entities, temporary IDs or IDs of another store, or the store's error with its SQL. Nothing is deleted
    ///   when it throws.
    @discardableResult
    func execute(_ request: BatchDeleteRequest) throws -> BatchDeleteResult {
        checkQueue("execute(BatchDeleteRequest)")
        if let ids = request.objectIDs, ids.isEmpty {
            return BatchDeleteResult(resultType: request.resultType, count: 0, objectIDs: request.resultType == .resultTypeObjectIDs ? [] : nil)
        }
        let (coordinator, entity) = try storeRequestTarget(entityName: request.entityName, resultClass: nil)
        let plan = try request.plan(for: entity, schema: coordinator.schema(), storeIdentifier: coordinator.storeIdentifier ?? "")
        let (count, objectIDs) = try withHistoryOrigin { try coordinator.withStore { try $0.executeBatchDelete(plan) } }
        return BatchDeleteResult(resultType: request.resultType, count: count, objectIDs: objectIDs)
    }

    /// Runs a batch insert in the store (see ``BatchInsertRequest``). A dictionary handler is called here, on
    /// the calling queue, before the store is touched.
    /// - Throws: 134020 unknown entity or attribute, 1550 a value that does not fit and
    ///   1570 a missing required value (naming the row, key and value), 133021 when a row clashes with another on a
    ///   uniqueness constraint and this context's ``mergePolicy`` is not `mergeByPropertyObjectTrump`, or when an
    ///   upsert's update breaks another uniqueness constraint, or the store's error with its SQL. Nothing is written
    ///   when it throws.
    @discardableResult
    func execute(_ request: BatchInsertRequest) throws -> BatchInsertResult {
        checkQueue("execute(BatchInsertRequest)")
        let (coordinator, entity) = try storeRequestTarget(entityName: request.entityName, resultClass: nil)
        let plan = try request.plan(for: entity, schema: coordinator.schema(), mergePolicy: resolvedMergePolicy)
        let (count, objectIDs) = try withHistoryOrigin { try coordinator.withStore { try $0.executeBatchInsert(plan) } }
        return BatchInsertResult(resultType: request.resultType, count: count, objectIDs: objectIDs)
    }

    /// Starts an asynchronous fetch and returns at once (see ``AsynchronousFetchRequest``); the completion block
    /// runs later on this context's queue. Named apart from `execute(_:)`: a generic overload of it loses to the
    /// public one, which would then call itself.
    /// - Throws: an `NSError` at once for a request that cannot run: unknown entity or key, a predicate
    ///   that does not fit the model, a dictionary or count result type, or a `Result` type the objects are not.
    @discardableResult
    func startAsynchronousFetch<Result: FetchRequestResult>(_ request: AsynchronousFetchRequest<Result>) throws
        -> AsynchronousFetchResult<Result> {
        checkQueue("execute(AsynchronousFetchRequest)")
        let fetchRequest = request.fetchRequest
        let (coordinator, entity) = try storeRequestTarget(entityName: fetchRequest.requestedEntityName, resultClass: Result.self as? ManagedObject.Type)
        let idsOnly: Bool
        switch fetchRequest.resultType {
        case .managedObjectResultType:
            idsOnly = false
            guard entity.managedObjectClass is Result.Type else {
                throw PersistenceError(.coreData, "AsynchronousFetchRequest<\(resultTypeName(Result.self))> for \(entity.entityName) returns \(entity.managedObjectClass) objects, which are not \(Result.self).",
                                       entityName: entity.entityName)
            }
        case .managedObjectIDResultType:
            idsOnly = true
            guard ManagedObjectID.self is Result.Type else {
                throw PersistenceError(.coreData, "AsynchronousFetchRequest<\(resultTypeName(Result.self))> for \(entity.entityName) returns ManagedObjectIDs, which are not \(Result.self).",
                                       entityName: entity.entityName)
            }
        default:
            throw PersistenceError(.coreData, "An asynchronous fetch returns managed objects or object IDs; \(fetchRequest.resultType) is not supported. Use fetch(_:) or count(for:) for dictionaries and counts.",
                                   entityName: entity.entityName)
        }
        let query = try FetchQueryCompiler.query(for: fetchRequest, entity: entity, schema: coordinator.schema())
        // The rows are read elsewhere but from the store this context reads: a pinned context's snapshot (taken now
        // when the context is to be pinned at its next read, since this is that read), otherwise the live store.
        try withReadStore { _ in }
        let snapshot = queryGenerationToken
        // A progress current on this thread becomes the fetch's parent, and only then does the result hand its
        // progress out (as Core Data's, whose `progress` is optional).
        let progress = Progress(totalUnitCount: -1)
        let result = AsynchronousFetchResult(fetchRequest: request, context: self, progress: progress)
        let job = AsynchronousFetchJob(request: request, result: result, entity: entity, idsOnly: idsOnly)
        let observer = request.progressObserver
        DispatchQueue.global(qos: .userInitiated).async { [weak self] in
            let read = Self.readRows(for: query, from: coordinator, snapshot: snapshot, progress: progress, observer: observer)
            // The result holds its context (as Core Data's names it), so the context is still there to finish on.
            guard let self else { return }
            self.perform { self.finishAsynchronousFetch(job, read) }
        }
        return result
    }

    /// Runs a batch request, an asynchronous fetch or a persistent history request in the store and returns its
    /// result, as Core Data's `execute(_:)`: typed as the base class, whatever the request. Cast it to the
    /// request's result class (``BatchUpdateResult``, ``BatchDeleteResult``, ``BatchInsertResult``,
    /// ``AsynchronousFetchResult``, ``PersistentHistoryResult``), then cast that result's `result` as its
    /// `resultType` says:
    ///
    /// ```swift
    /// request.resultType = .resultTypeObjectIDs
    /// let result = try context.execute(request) as? BatchDeleteResult
    /// let deleted = result?.result as? [ManagedObjectID] ?? []
    /// ```
    ///
    /// Batch requests run in the store in one transaction of their own; an asynchronous fetch returns at once and
    /// hands its objects to its completion block later, on this context's queue.
    /// - Throws: an `NSError`. For a batch update: 134020 unknown entity or attribute (the message lists the
    ///   valid ones), 1550 / 1570 a value that does not fit, 133021 a uniqueness constraint broken. For a batch
    ///   delete: 134020 unknown entity or key, 1600 a deny rule, 134060 IDs of several entities, temporary IDs or
    ///   IDs of another store. For a batch insert: 134020 unknown entity or attribute, 1550 a value that does not
    ///   fit and 1570 a missing required value (naming the row, key and value), 133021 when a row clashes with
    ///   another on a uniqueness constraint and this context's ``mergePolicy`` is not `mergeByPropertyObjectTrump`,
    ///   or when an upsert's update breaks another uniqueness constraint. Any of them: the store's error with its
    ///   SQL; nothing is written when it throws. For an asynchronous fetch, at once, a request that cannot run:
    ///   unknown entity or key, a predicate that does not fit the model, a dictionary or count result type, or a
    ///   `Result` type the objects are not. For a history request, see ``PersistentHistoryChangeRequest``. 134060
    ///   for a request type this library does not know.
    @discardableResult
    public func execute(_ request: any PersistentStoreRequest) throws -> PersistentStoreResult {
        switch request {
        case let update as BatchUpdateRequest: return try execute(update)
        case let delete as BatchDeleteRequest: return try execute(delete)
        case let insert as BatchInsertRequest: return try execute(insert)
        case let fetch as any AsynchronousFetchStarting: return try fetch.start(in: self)
        case let history as PersistentHistoryChangeRequest: return try execute(history)
        default:
            throw PersistenceError(.coreData, "\(type(of: request)) is not a request this library can execute. Use BatchUpdateRequest, BatchDeleteRequest, BatchInsertRequest, AsynchronousFetchRequest or PersistentHistoryChangeRequest.")
        }
    }

    // MARK: - Helpers

    /// The coordinator and the entity a request names (by name, or by the class of its results).
    private func storeRequestTarget(entityName: String, resultClass: ManagedObject.Type?) throws -> (PersistentStoreCoordinator, EntityDescription) {
        guard let coordinator = persistentStoreCoordinator else {
            throw PersistenceError(.persistentStoreInvalidType, "This context has no persistent store coordinator to run the request on.", entityName: entityName)
        }
        let model = coordinator.managedObjectModel
        if let entity = model.entitiesByName[entityName] { return (coordinator, entity) }
        if let resultClass, let entity = model.entity(for: resultClass) { return (coordinator, entity) }
        return (coordinator, try model.entity(named: entityName))
    }

    /// Reads the query's rows on the calling (background) queue, from `snapshot` when the context is pinned to one,
    /// reporting progress, until done or cancelled.
    private static func readRows(for query: StoreQuery, from coordinator: PersistentStoreCoordinator, snapshot: QueryGenerationToken?,
                                 progress: Progress, observer: (@Sendable (Progress) -> Void)?) -> AsynchronousFetchRead {
        func read(_ store: SQLiteStore) throws -> AsynchronousFetchRead {
            if progress.isCancelled { return .cancelled }
            progress.totalUnitCount = Int64(try store.count(for: query))
            var rows: [StoreRow] = []
            rows.reserveCapacity(Int(max(progress.totalUnitCount, 0)))
            let step = AsynchronousFetchRequest<NSNumber>.rowsPerProgressUpdate
            let finished = try store.forEachRow(for: query) { row in
                rows.append(row)
                guard rows.count % step == 0 else { return true }
                progress.completedUnitCount = Int64(rows.count)
                observer?(progress)
                return !progress.isCancelled
            }
            guard finished, !progress.isCancelled else { return .cancelled }
            if rows.count % step != 0 || rows.isEmpty {
                progress.completedUnitCount = Int64(rows.count)
                observer?(progress)
            }
            return .rows(FetchedRows(rows: rows))
        }
        do {
            if let snapshot { return try snapshot.withSnapshot(read) }
            return try coordinator.withStore(read)
        } catch {
            return .failed(error)
        }
    }

    /// On the context's queue: registers the objects (or gives up if cancelled) and calls the completion block.
    private func finishAsynchronousFetch<Result: FetchRequestResult>(_ job: AsynchronousFetchJob<Result>, _ read: AsynchronousFetchRead) {
        let result = job.result
        defer { job.request.completionBlock?(result) }
        let cancelled = PersistenceError(.userCancelled, "The asynchronous fetch of \(job.entity.entityName) was cancelled; it returns no objects.",
                                         entityName: job.entity.entityName)
        guard !result.isCancelled else {
            result.operationError = cancelled
            return
        }
        switch read {
        case .cancelled:
            result.operationError = cancelled
        case .failed(let error):
            result.operationError = error
        case .rows(let fetched):
            do {
                result.finalResult = try objects(from: fetched.rows, for: job)
            } catch {
                result.operationError = error
            }
        }
    }

    /// The fetch's results from the rows read. With unsaved changes to reflect (here, or in a parent for a child
    /// context) the rows alone are not the answer, so the context's own fetch gives it — the same one
    /// ``fetch(_:)`` returns.
    private func objects<Result: FetchRequestResult>(from rows: [StoreRow], for job: AsynchronousFetchJob<Result>) throws -> [Result] {
        let request = job.request.fetchRequest
        if (request.includesPendingChanges && hasUnsavedObjects) || parent != nil {
            return try fetch(request)
        }
        guard let coordinator = persistentStoreCoordinator else {
            throw PersistenceError(.persistentStoreInvalidType, "This context lost its persistent store coordinator during the fetch.", entityName: job.entity.entityName)
        }
        let asFaults = request.returnsObjectsAsFaults
        let ids = try coordinator.permanentIDs()
        syncStoreIdentifier()
        let ownStore = registry.storeIdentifier == ids.storeIdentifier
        let objects = rows.map { object(for: $0, entity: $0.entity, ids: ids, asFault: asFaults, ownStore: ownStore) }
        // A subentity's class need not derive from its parent's (see fetch(_:)).
        if !job.idsOnly, let stray = objects.first(where: { !($0 is Result) }) {
            throw job.entity.resultClassError(stray, requestKind: "AsynchronousFetchRequest", resultType: Result.self)
        }
        let results: [Any] = job.idsOnly ? objects.map(\.objectID) : objects
        guard let typed = results as? [Result] else {
            throw PersistenceError(.coreData, "AsynchronousFetchRequest<\(resultTypeName(Result.self))> for \(job.entity.entityName) cannot hold its results.", entityName: job.entity.entityName)
        }
        return typed
    }
}

/// What the background read of an asynchronous fetch produced.
private enum AsynchronousFetchRead: Sendable {
    case rows(FetchedRows)
    case cancelled
    case failed(any Error)
}

/// Rows on their way from the reading queue to the context's queue. A row holds values, keys and a packed row in a
/// block this read made and nothing else holds yet — never an object — so handing them across queues is safe.
private struct FetchedRows: @unchecked Sendable {
    let rows: [StoreRow]
}

/// An asynchronous fetch between its start and its completion. Only the context's queue touches the request and
/// the completion block, which is what makes passing them through the reading queue safe.
private final class AsynchronousFetchJob<Result: FetchRequestResult>: @unchecked Sendable {
    let request: AsynchronousFetchRequest<Result>
    let result: AsynchronousFetchResult<Result>
    let entity: EntityDescription
    let idsOnly: Bool

    init(request: AsynchronousFetchRequest<Result>, result: AsynchronousFetchResult<Result>, entity: EntityDescription, idsOnly: Bool) {
        self.request = request
        self.result = result
        self.entity = entity
        self.idsOnly = idsOnly
    }
}
