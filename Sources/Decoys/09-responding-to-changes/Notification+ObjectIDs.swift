import Foundation
import Persistence

/// Lesson 9's notification helpers with a known mistake (see `Decoy`).
extension Notification {
    public func objectIDs(_ key: ManagedObjectContext.NotificationKey) -> Set<ManagedObjectID> {
        // Mistake: the user info is keyed by strings; the enum case itself finds nothing.
        let value = Decoy.isActive("log-key-without-raw-value") ? userInfo?[AnyHashable(key)] : userInfo?[key.rawValue]
        switch value {
        case let objects as Set<ManagedObject>: return Set(objects.map(\.objectID))
        case let ids as Set<ManagedObjectID>: return ids
        default: return []
        }
    }

    public var insertedObjectIDs: Set<ManagedObjectID> { objectIDs(.insertedObjects) }
    public var updatedObjectIDs: Set<ManagedObjectID> { objectIDs(.updatedObjects) }
    public var deletedObjectIDs: Set<ManagedObjectID> { objectIDs(.deletedObjects) }
}
