import KataSupport
import Persistence

extension ManagedObjectContext {
    /// Saves; when the save fails — for any reason — rolls the context back to its last saved state and throws the
    /// save's error. After a conflict (another context saved the same object first), the same change made again
    /// must then save.
    ///
    /// Lesson 5, kata 1. Check with `swift run lessons check 5`.
    public func saveOrRollback() throws {
        throw KataNotDone(lesson: 5)
    }
}
