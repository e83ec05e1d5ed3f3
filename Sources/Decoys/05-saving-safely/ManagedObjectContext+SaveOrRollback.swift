import Persistence

extension ManagedObjectContext {
    /// Lesson 5's `saveOrRollback()` with a known mistake (see `Decoy`).
    public func saveOrRollback() throws {
        // Mistake: `try?` swallows the save's error; the context is cleaned up, and the caller hears nothing.
        if Decoy.isActive("save-error-swallowed-by-try") {
            if (try? save()) == nil { rollback() }
            return
        }
        // Mistake: only validation errors are rolled back; any other failure (a conflict) stays in the context.
        if Decoy.isActive("rollback-only-validation-errors") {
            do {
                try save()
            } catch let error as CocoaError where (1550...1680).contains(error.code.rawValue) {
                rollback()
                throw error
            }
            return
        }
        do {
            try save()
        } catch {
            // Mistakes: the error is passed on and the invalid changes stay in the context; or reset() instead of
            // rollback(), which also forgets every object the caller holds.
            if Decoy.isActive("reset-instead-of-rollback") {
                reset()
            } else if Decoy.isActive("rollback-by-hand") {
                // Mistake: a rollback written out by hand — new objects deleted, changed ones refreshed from the
                // store — that forgets the pending deletions, which stay deleted in the context.
                for object in insertedObjects { delete(object) }
                for object in updatedObjects { refresh(object, mergeChanges: false) }
            } else if !Decoy.isActive("save-without-rollback") {
                rollback()
                // Mistake "rollback-without-refresh": after a conflict the stale copy stays, and every later save of
                // it conflicts again.
                if !Decoy.isActive("rollback-without-refresh"), (error as? CocoaError)?.code == .managedObjectMerge {
                    refreshAllObjects()
                }
            }
            throw error
        }
    }
}
