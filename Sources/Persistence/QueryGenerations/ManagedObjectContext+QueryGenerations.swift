/// Query generations: a pinned context reads one snapshot of the store until it moves forward.
extension ManagedObjectContext {
    /// Where this context's reads come from.
    enum ReadGeneration {
        /// The newest data, always.
        case unpinned
        /// Pinned at the next read (``QueryGenerationToken/current`` was asked for).
        case pinOnNextRead
        /// Pinned to this snapshot (taken at a read after ``QueryGenerationToken/current``, or another context's).
        case pinned(QueryGenerationToken)
    }

    /// The snapshot this context reads, or `nil` when it reads the newest data. After
    /// `setQueryGenerationFrom(.current)` it stays `nil` until the next read takes the snapshot.
    public var queryGenerationToken: QueryGenerationToken? {
        if case .pinned(let token) = readGeneration { return token }
        return nil
    }

    /// Pins this context to a snapshot of the store: ``QueryGenerationToken/current`` takes one at the next read; a
    /// token from another context shares that context's snapshot; `nil` unpins. A save, ``reset()`` or a merge of
    /// another context's save moves a pinned context forward to the newest data (pinned again at the next read).
    ///
    /// - Throws: an `NSError` when the token belongs to another store, or the context has no store.
    public func setQueryGenerationFrom(_ token: QueryGenerationToken?) throws {
        checkQueue("setQueryGenerationFrom(_:)")
        guard let token else {
            readGeneration = .unpinned
            return
        }
        if token.isCurrent {
            readGeneration = .pinOnNextRead
            return
        }
        guard let identifier = persistentStoreCoordinator?.storeIdentifier, identifier == token.storeIdentifier else {
            throw PersistenceError(.coreData, "The query generation token belongs to another store (\(token.storeIdentifier)); a context can only be pinned to a snapshot of its own store.")
        }
        readGeneration = .pinned(token)
        recordMergingWhilePinned()
    }

    /// Apple's header: setting ``automaticallyMergesChangesFromParent`` "to YES when the context is pinned to a
    /// non-current query generation is not supported" (what happens then is undocumented). Checked when either is
    /// set: merging turned on while the context is pinned to a generation something was saved after, or the context
    /// pinned to such a token while merging is on. A merge would move the context to the newest data and quietly drop
    /// its snapshot: recorded as a mistake, which the next save throws. Pinning with `.current` and merging, the
    /// pairing Apple's sample code uses, is never one (the snapshot is the newest when it is taken).
    func recordMergingWhilePinned() {
        guard automaticallyMergesChangesFromParent, case .pinned(let token) = readGeneration,
              let coordinator = persistentStoreCoordinator, !coordinator.isNewest(token) else { return }
        recordMisuse(PersistenceError(.coreData, "automaticallyMergesChangesFromParent is true on a context pinned to a query generation that is no longer the newest (the store was saved since): Core Data does not support that pairing (its header: \"not supported\"), and the next merge would move the context off its snapshot. Pin to QueryGenerationToken.current when merging is on, or turn automatic merging on only after the context has moved to the newest generation."))
    }

    /// After a save, reset or merge: a pinned context follows the newest data from its next read on.
    func advanceQueryGeneration() {
        if case .unpinned = readGeneration { return }
        readGeneration = .pinOnNextRead
    }

    /// Runs a read against the store this context reads: its snapshot when pinned (taking it now if asked to at the
    /// next read), the live store otherwise.
    func withReadStore<T>(_ body: (SQLiteStore) throws -> T) throws -> T {
        guard let coordinator = persistentStoreCoordinator else {
            throw PersistenceError(.persistentStoreInvalidType, "This context has no persistent store coordinator to read from.")
        }
        switch readGeneration {
        case .unpinned:
            return try coordinator.withStore(body)
        case .pinOnNextRead:
            let token = try coordinator.makeQueryGeneration()
            readGeneration = .pinned(token)
            return try token.withSnapshot(body)
        case .pinned(let token):
            return try token.withSnapshot(body)
        }
    }
}
