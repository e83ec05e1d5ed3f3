import Persistence

extension ManagedObjectContext {
    /// Lesson 5's `saveOrRollback()` with a known mistake (see `Decoy`).
    public func saveOrRollback() throws {
        do {
            try save()
        } catch {
            // Mistake: the error is passed on, and the invalid changes stay in the context.
            if !Decoy.isActive("save-without-rollback") { rollback() }
            throw error
        }
    }
}
