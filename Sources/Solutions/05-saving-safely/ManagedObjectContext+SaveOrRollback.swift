import Persistence

extension ManagedObjectContext {
    // region: save-or-rollback
    /// Saves, or, when the save fails, forgets every unsaved change and throws the error. Either way the context
    /// is clean afterwards, so one invalid object cannot make the next save fail too.
    public func saveOrRollback() throws {
        do {
            try save()
        } catch {
            rollback()
            throw error
        }
    }
    // endregion: save-or-rollback
}
