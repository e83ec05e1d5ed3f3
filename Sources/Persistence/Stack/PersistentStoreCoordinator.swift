import Foundation

/// Connects contexts to the store and serialises access to it. Contexts on any queue call in; one lock keeps
/// SQLite's connection to one caller at a time.
public final class PersistentStoreCoordinator: @unchecked Sendable {
    /// The model of the store the coordinator opens.
    public let managedObjectModel: ManagedObjectModel
    private let lock = NSRecursiveLock()
    private var store: SQLiteStore?
    /// Contexts that merge other contexts' saves automatically (held weakly).
    let mergingContexts = ContextList()
    /// Posts remote-change notifications, for a store loaded with
    /// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`.
    private(set) var remoteChangeWatcher: RemoteChangeWatcher?

    /// Why the model could not be used (its checks failed when the coordinator froze it): every store this
    /// coordinator is asked to add fails with it.
    private let modelError: PersistenceError?

    /// A coordinator with no store yet (a container opens it; contexts set it as ``ManagedObjectContext/persistentStoreCoordinator``).
    ///
    /// The coordinator uses the model, as Core Data's does: the model is checked and frozen here (see
    /// ``ManagedObjectModel``), and a change to it afterwards is a programming error. A model that fails its checks
    /// makes every store the coordinator then adds fail with the error that names the problem.
    public init(managedObjectModel: ManagedObjectModel) {
        self.managedObjectModel = managedObjectModel
        do {
            try managedObjectModel.freeze()
            modelError = nil
        } catch {
            modelError = error as? PersistenceError ?? PersistenceError(.coreData, "Invalid model: \(error)")
        }
        LoadedModels.add(managedObjectModel)
    }

    /// The loaded store, as Core Data's `NSPersistentStore` (see ``persistentStores``).
    var loadedStore: PersistentStore?

    /// Core Data's way to add a store from a description: opens (creating if needed) the store `storeDescription`
    /// describes, migrating it first when it was written with another version of the model (see
    /// ``PersistentStoreDescription/shouldMigrateStoreAutomatically``), then calls `block` with the description and
    /// the error, if any — on a background queue when the description asks for
    /// ``PersistentStoreDescription/shouldAddStoreAsynchronously``, else before returning. The errors are those of
    /// ``PersistentContainer/loadPersistentStores(completionHandler:)``; a description without a ``PersistentStoreDescription/url``
    /// fails with 134000. Find the store in ``persistentStores``.
    ///
    /// `block` is not `@Sendable`, as Core Data declares it: run before the call returns, it may write a variable of
    /// the caller's that the caller reads afterwards.
    public func addPersistentStore(with storeDescription: PersistentStoreDescription,
                                   completionHandler block: @escaping (PersistentStoreDescription, (any Error)?) -> Void) {
        addPersistentStore(with: storeDescription, preparing: {}, completionHandler: block)
    }

    /// ``addPersistentStore(with:completionHandler:)``, running `prepare` first, where the store is added (the
    /// container makes its default folder there); an error it throws goes to `block`.
    func addPersistentStore(with storeDescription: PersistentStoreDescription,
                            preparing prepare: @escaping @Sendable () throws -> Void,
                            completionHandler block: @escaping (PersistentStoreDescription, (any Error)?) -> Void) {
        // Core Data's handler is not @Sendable although an asynchronous add calls it on another queue; the caller
        // who asks for that takes on what the handler touches, as on Apple platforms.
        nonisolated(unsafe) let block = block
        let add: @Sendable () -> Void = { [self] in
            do {
                try prepare()
                try addPersistentStore(with: storeDescription)
                block(storeDescription, nil)
            } catch {
                block(storeDescription, error)
            }
        }
        if storeDescription.shouldAddStoreAsynchronously {
            DispatchQueue.global().async(execute: add)
        } else {
            add()
        }
    }

    /// Opens (creating if needed) the store described by `description`, migrating it first when it was written with
    /// another version of the model (see ``PersistentStoreDescription/shouldMigrateStoreAutomatically``).
    /// Persistence's own throwing form of ``addPersistentStore(with:completionHandler:)``, which returns the store.
    /// - Throws: an `NSError` naming the file and the reason (see ``PersistentContainer/loadPersistentStores(completionHandler:)``).
    @discardableResult
    func addPersistentStore(with description: PersistentStoreDescription) throws -> PersistentStore {
        func checkNoStore() throws {
            guard let store else { return }
            throw PersistenceError(.persistentStoreInvalidType, "This coordinator already has a store (\(store.url.path)); Persistence supports one store per coordinator.", url: description.url)
        }
        if let modelError { throw modelError }
        let url = try description.requiredURL()
        guard description.type == CoreDataStoreName.sqliteStoreType || description.type == CoreDataStoreName.inMemoryStoreType else {
            throw PersistenceError(.persistentStoreInvalidType, "Unsupported store type '\(description.type)': Persistence keeps stores in SQLite (NSSQLiteStoreType), or in memory (NSInMemoryStoreType).", url: description.url)
        }
        try lock.withLock(checkNoStore)
        // Outside the lock: a staged migration's handlers are the app's code (the store is not open yet, so there
        // is nothing the lock would guard).
        if description.type != CoreDataStoreName.inMemoryStoreType {
            try LightweightMigration.migrateIfNeeded(storeAt: url, to: managedObjectModel, description: description)
        }
        return try lock.withLock {
            try checkNoStore()
            let opened: SQLiteStore
            if description.type == CoreDataStoreName.inMemoryStoreType, url.path != "/dev/null" {
                let inMemory = PersistentStoreDescription.inMemory()
                inMemory.isReadOnly = description.isReadOnly
                inMemory.options = description.options
                opened = try SQLiteStore(description: inMemory, model: managedObjectModel)
            } else {
                opened = try SQLiteStore(description: description, model: managedObjectModel)
            }
            if try description.boolOption(PersistentStoreDescription.remoteChangeNotificationPostOptionKey) == true {
                remoteChangeWatcher = try RemoteChangeWatcher(coordinator: self, store: opened)
            }
            store = opened
            let added = PersistentStore(url: url, type: description.type,
                                        identifier: opened.identifier, isReadOnly: description.isReadOnly,
                                        options: description.storeOptions, configurationName: description.configuration,
                                        coordinator: self)
            loadedStore = added
            return added
        }
    }

    /// Closes the loaded store (``remove(_:)``).
    func closeStore() {
        lock.withLock {
            store = nil
            loadedStore = nil
            remoteChangeWatcher?.stop()
            remoteChangeWatcher = nil
        }
    }

    deinit {
        // The watcher's connection closes before the store's (which removes an in-memory store's file).
        remoteChangeWatcher?.stop()
    }

    /// Hands a save to every other context that merges automatically, on its own queue.
    func contextDidSave(_ saver: ManagedObjectContext, _ summary: ContextDidSave) {
        for context in mergingContexts.contexts where context !== saver {
            context.perform { context.merge(summary) }
        }
    }

    /// The URLs of the loaded stores (Persistence-only; Core Data: `persistentStores.map(\.url)`).
    @_spi(TestHarness) public var persistentStoreURLs: [URL] { lock.withLock { store.map { [$0.url] } ?? [] } }

    /// The loaded store's identifier (its metadata UUID; Persistence-only).
    @_spi(TestHarness) public var storeIdentifier: String? { lock.withLock { store?.identifier } }

    /// The ID named by a URI from ``ManagedObjectID/uriRepresentation()``, or `nil` when it is not an ID of
    /// this coordinator's store and model. Its ``ManagedObjectID/entity`` is this coordinator's model's.
    public func managedObjectID(forURIRepresentation uri: URL) -> ManagedObjectID? {
        guard let id = ManagedObjectID(uriRepresentation: uri), !id.isTemporaryID,
              let entity = managedObjectModel.entitiesByName[id.entityName],
              id.storeIdentifier == storeIdentifier, let ids = try? permanentIDs(), ids.covers(entity),
              let primaryKey = id.primaryKey else { return nil }
        return ids.id(of: entity, primaryKey: primaryKey)
    }

    /// A new snapshot of the store for a query generation.
    func makeQueryGeneration() throws -> QueryGenerationToken {
        // The mark first: a commit of another process in between makes the token look older, never newer.
        try withStore { store in
            let mark = try store.generationMark()
            return QueryGenerationToken(snapshot: try SQLiteStore(snapshotOf: store), mark: mark)
        }
    }

    /// Whether nothing was committed to the store since `token`'s snapshot was taken (``QueryGenerationToken/current``
    /// always is). When the store cannot say, the answer is no.
    func isNewest(_ token: QueryGenerationToken) -> Bool {
        guard let mark = token.mark else { return true }
        return (try? withStore { try $0.generationMark() == mark }) ?? false
    }

    /// The loaded store's maker of permanent IDs.
    func permanentIDs() throws -> PermanentIDs {
        try withStore { $0.permanentIDs }
    }

    /// The loaded store's table layout.
    func schema() throws -> StoreSchema {
        try withStore { $0.schema }
    }

    /// Runs `body` holding the lock.
    func withLock<T>(_ body: () throws -> T) rethrows -> T { try lock.withLock(body) }

    /// Runs `body` with the store, holding the lock.
    func withStore<T>(_ body: (SQLiteStore) throws -> T) throws -> T {
        try lock.withLock {
            guard let store else {
                throw PersistenceError(.persistentStoreInvalidType, "No store is loaded: call loadPersistentStores(completionHandler:) first and check its error.")
            }
            // A write wakes the remote-change watchers of this process on the same file at once (others see it at
            // their next look).
            let writes = store.writeCount
            defer { if store.writeCount != writes { RemoteChangeWatcher.storeDidChange(path: store.path) } }
            do {
                return try body(store)
            } catch let error as SQLiteError {
                throw PersistenceError.sqlite(error, "The store failed", url: store.url)
            }
        }
    }
}
