import Foundation
import KataSupport
import Persistence

extension ManagedObjectContext {
    // region: lookup
    /// This context's reading for `id`, read from the store now if the context does not have it yet; nil when
    /// the reading no longer exists (deleted, or never saved). Call it on the context's queue.
    /// - Throws: what the store reports when it cannot be read.
    public func reading(with id: ManagedObjectID) throws -> Reading? {
        do {
            return try existingObject(with: id) as? Reading
        } catch let error as CocoaError where error.code == .managedObjectReferentialIntegrity {
            return nil                              // 133000: no row for this ID
        }
    }
    // endregion: lookup
}
