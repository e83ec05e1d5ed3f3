import Foundation
import KataSupport
import Persistence

/// Lesson 9's ``GardenChores`` with known mistakes (see `Decoy`).
public final class GardenChores {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    public func waterEveryPlant(on date: Date) throws -> Int {
        let background = container.newBackgroundContext()
        // Mistake: every plant is loaded, changed and saved, instead of one batch update in SQL.
        if Decoy.isActive("batch-by-fetch-and-save") {
            let count = try background.performAndWait {
                let plants = try background.fetch(Plant.fetchRequest())
                for plant in plants { plant.wateredOn = date }
                try background.save()
                return plants.count
            }
            container.viewContext.refreshAllObjects()
            return count
        }
        // Mistake: the batch runs in the view context, on the main queue the screen needs; it merges the IDs into
        // that same context afterwards, as the lesson asks.
        let runner = Decoy.isActive("batch-on-view-context") ? container.viewContext : background
        let watered = try runner.performAndWait {
            let request = BatchUpdateRequest(entityName: "Plant")
            request.propertiesToUpdate = ["wateredOn": date]
            request.resultType = .updatedObjectIDsResultType
            let result = try runner.execute(request) as? BatchUpdateResult
            return result?.result as? [ManagedObjectID] ?? []
        }
        // Mistake: nothing is merged; the view context keeps its old values.
        if Decoy.isActive("batch-without-merge") { return watered.count }
        // Mistake: the whole view context is refreshed instead of merging the IDs the batch changed.
        if Decoy.isActive("batch-refresh-all") {
            container.viewContext.refreshAllObjects()
            return watered.count
        }
        // Mistake: the new value is copied into the view context's objects in Swift instead of being merged.
        if Decoy.isActive("batch-values-set-in-swift") {
            for id in watered { (container.viewContext.registeredObject(for: id) as? Plant)?.wateredOn = date }
            return watered.count
        }
        // Mistake: each updated plant is refreshed by hand instead of merging the IDs; on Apple a refresh may read the
        // coordinator's cached row, which the batch went past.
        if Decoy.isActive("batch-refresh-each") {
            let view = container.viewContext
            for id in watered { view.refresh(view.object(with: id), mergeChanges: true) }
            return watered.count
        }
        // Mistake: as above, but the refresh throws away the view context's unsaved changes to those plants.
        if Decoy.isActive("batch-refresh-each-discarding") {
            let view = container.viewContext
            for id in watered { view.refresh(view.object(with: id), mergeChanges: false) }
            return watered.count
        }
        // Mistake: the dictionary is keyed by the NotificationKey case, not by its raw value: the merge finds nothing.
        if Decoy.isActive("batch-key-without-raw-value") {
            ManagedObjectContext.mergeChanges(
                fromRemoteContextSave: [AnyHashable(ManagedObjectContext.NotificationKey.updatedObjects): watered],
                into: [container.viewContext])
            return watered.count
        }
        // Mistake: the IDs are listed as inserted; the view context holds those objects already.
        var key = Decoy.isActive("batch-ids-as-inserted") ? ManagedObjectContext.NotificationKey.insertedObjects
            : .updatedObjects
        // Mistake: the IDs are listed as deleted, as for a batch delete: the watered plants leave the view context.
        if Decoy.isActive("batch-ids-as-deleted") { key = .deletedObjects }
        // Mistake: merged into the context that ran the request, not the one the screen reads.
        let target = Decoy.isActive("batch-merge-into-background") ? background : container.viewContext
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: [key.rawValue: watered], into: [target])
        return watered.count
    }
}
