import Persistence

extension ManagedObjectContext {
    // region: save-or-rollback
    /// Saves, or, when the save fails, forgets every unsaved change and throws the error. Either way the context
    /// is clean afterwards, so one invalid object cannot make the next save fail too. After a conflict the objects
    /// are read again as well: a rollback alone would keep the stale copy the conflict was about.
    public func saveOrRollback() throws {
        do {
            try save()
        } catch {
            rollback()
            // rollback() restores the values last read and does not read the store: after a conflict those are the
            // stale ones, and the next save would conflict again. Refreshed, the objects read the store's row.
            if (error as? CocoaError)?.code == .managedObjectMerge { refreshAllObjects() }
            throw error
        }
    }
    // endregion: save-or-rollback
}
