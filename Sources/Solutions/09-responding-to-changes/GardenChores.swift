import Foundation
import KataSupport
import Persistence

/// Work on every plant at once, done in SQL by a batch request.
public final class GardenChores {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    // region: water-everything
    /// Sets every plant's `wateredOn` to `date` with one batch update in a background context, then merges the
    /// change into the view context, which a batch request never tells. Returns how many plants were watered.
    public func waterEveryPlant(on date: Date) throws -> Int {
        let background = container.newBackgroundContext()
        let watered = try background.performAndWait {
            let request = BatchUpdateRequest(entityName: "Plant")
            request.propertiesToUpdate = ["wateredOn": date]
            request.resultType = .updatedObjectIDsResultType      // the IDs, to tell the contexts
            let result = try background.execute(request) as? BatchUpdateResult
            return result?.result as? [ManagedObjectID] ?? []
        }
        // No did-save notification was posted: describe the change as one, by IDs, and merge it.
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [ManagedObjectContext.NotificationKey.updatedObjects.rawValue: watered],
            into: [container.viewContext])
        return watered.count
    }
    // endregion: water-everything
}
