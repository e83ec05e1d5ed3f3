import Foundation
import KataSupport
import Persistence

/// Lesson 5's ``PlantStore`` with known mistakes (see `Decoy`).
public final class PlantStore {
    public let context: ManagedObjectContext

    public init(container: PersistentContainer) {
        context = container.newBackgroundContext()
    }

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
                // Mistake: the error is reported, but the invalid plant stays in the context and spoils every
                // later save.
                if !Decoy.isActive("insert-without-rollback") { context.rollback() }
                completion(error)
            }
        }
    }

    public func deleteAll(completion: @escaping StoreCompletion) {
        let context = self.context
        context.perform {
            do {
                for plant in try context.fetch(Plant.fetchRequest()) { context.delete(plant) }
                try context.save()
                completion(nil)
            } catch {
                // Mistake: the failure is reported, but the plants stay deleted in the context (not in the store).
                if !Decoy.isActive("delete-without-rollback") { context.rollback() }
                // Mistake: the failure is rolled back but reported as success.
                completion(Decoy.isActive("delete-error-swallowed") ? nil : error)
            }
        }
    }
}
