import Foundation
import KataSupport
import Persistence

extension ManagedObjectContext {
    /// The reference lookup with mistakes behind `Decoy.isActive`.
    public func reading(with id: ManagedObjectID) throws -> Reading? {
        if Decoy.isActive("lookup-with-object-with") {
            return object(with: id) as? Reading
        }
        if Decoy.isActive("lookup-temporary-trusted"), id.isTemporaryID {
            // Mistake: "a temporary ID has no row to read yet, so existingObject would throw": an unsaved object's
            // ID is trusted and turned into an object without a check, although another context may hold it.
            return object(with: id) as? Reading
        }
        if Decoy.isActive("lookup-registered-only") {
            return registeredObject(for: id) as? Reading
        }
        if Decoy.isActive("lookup-refreshes-first"), let registered = registeredObject(for: id) {
            // Mistake: "to be sure the store is read", the registered object is refreshed first, which throws
            // away the caller's unsaved changes to it.
            refresh(registered, mergeChanges: false)
        }
        if Decoy.isActive("lookup-every-error-is-gone") {
            // Mistake: every error becomes "gone", a store that cannot be read included.
            return try? existingObject(with: id) as? Reading
        }
        do {
            return try existingObject(with: id) as? Reading
        } catch let error as CocoaError where error.code == .managedObjectReferentialIntegrity {
            return nil
        } catch is CocoaError where Decoy.isActive("lookup-every-cocoa-error-is-gone") {
            // Mistake: any Core Data error is taken for "gone", whatever its code.
            return nil
        }
    }
}
