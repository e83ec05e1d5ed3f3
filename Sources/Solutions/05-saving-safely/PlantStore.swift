import Foundation
import KataSupport
import Persistence

/// A store of plants on a private queue of its own, reporting through completions. Every failed save is rolled
/// back before it is reported, so the store's context is clean for the next call.
public final class PlantStore {
    public let context: ManagedObjectContext

    public init(container: PersistentContainer) {
        context = container.newBackgroundContext()
    }

    // region: insert
    public func insert(_ drafts: [PlantDraft], completion: @escaping StoreCompletion) {
        let context = self.context
        context.perform {
            do {
                for draft in drafts {
                    let plant = Plant(context: context)
                    if let name = draft.name { plant.name = name }
                    plant.wateredOn = draft.wateredOn
                }
                try context.save()
                completion(nil)
            } catch {
                context.rollback()        // the failed insert must not stay behind for the next save
                completion(error)
            }
        }
    }
    // endregion: insert

    // region: delete
    public func deleteAll(completion: @escaping StoreCompletion) {
        let context = self.context
        context.perform {
            do {
                for plant in try context.fetch(Plant.fetchRequest()) { context.delete(plant) }
                try context.save()
                completion(nil)
            } catch {
                context.rollback()        // the plants come back in the context, with the values it last read
                // After a conflict those values are stale, and the next deleteAll would conflict again: read the
                // objects again from the store.
                if (error as? CocoaError)?.code == .managedObjectMerge { context.refreshAllObjects() }
                completion(error)
            }
        }
    }
    // endregion: delete
}
