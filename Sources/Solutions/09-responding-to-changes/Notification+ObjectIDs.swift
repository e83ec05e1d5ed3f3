import Foundation
import Persistence

// region: helpers
/// Reading a context notification's user info without repeating the casts at every observer.
extension Notification {
    /// The IDs of the objects a context notification lists under `key` (a set of objects, or of IDs); empty when
    /// it lists none. The user info is keyed by the key's *raw value*, a string: `userInfo[key]` finds nothing.
    public func objectIDs(_ key: ManagedObjectContext.NotificationKey) -> Set<ManagedObjectID> {
        switch userInfo?[key.rawValue] {
        case let objects as Set<ManagedObject>: return Set(objects.map(\.objectID))
        case let ids as Set<ManagedObjectID>: return ids
        default: return []
        }
    }

    /// The IDs of the objects the notification lists as inserted.
    public var insertedObjectIDs: Set<ManagedObjectID> { objectIDs(.insertedObjects) }
    /// The IDs of the objects the notification lists as updated.
    public var updatedObjectIDs: Set<ManagedObjectID> { objectIDs(.updatedObjects) }
    /// The IDs of the objects the notification lists as deleted.
    public var deletedObjectIDs: Set<ManagedObjectID> { objectIDs(.deletedObjects) }
}
// endregion: helpers
