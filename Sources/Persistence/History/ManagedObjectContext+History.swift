/// Persistent history through a context: running history requests, and naming who writes each transaction.
extension ManagedObjectContext {
    /// Reads or purges the store's persistent history (see ``PersistentHistoryChangeRequest``). Call it on the
    /// context's queue; it reads the store's newest history, whatever snapshot the context is pinned to.
    /// - Throws: 134301 when the request's token is older than purged history (or of another
    ///   store); 134060 when the store has no history (it was never loaded with `NSPersistentHistoryTrackingKey`) or
    ///   the request's fetch request is not one history can answer; 513 for a purge of a store opened without
    ///   tracking.
    @discardableResult
    func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        checkQueue("execute(PersistentHistoryChangeRequest)")
        guard let coordinator = persistentStoreCoordinator else {
            throw PersistenceError(.persistentStoreInvalidType, "This context has no persistent store coordinator to read history from.")
        }
        let query = try request.storeQuery(schema: coordinator.schema())
        let answer = try coordinator.withStore { try $0.executeHistory(query) }
        return request.result(from: answer)
    }

    /// Runs `body`, whose store calls write a transaction, with this context's ``transactionAuthor`` and ``name``
    /// recorded as the transaction's author and context name.
    func withHistoryOrigin<T>(_ body: () throws -> T) rethrows -> T {
        try HistoryTransactionOrigin.$current.withValue(HistoryTransactionOrigin(author: transactionAuthor, contextName: name),
                                                        operation: body)
    }
}
