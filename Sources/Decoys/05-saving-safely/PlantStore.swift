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
        let completion = Self.onMainQueueIfDecoyed(completion)
        let work: @Sendable () -> Void = {
            do {
                // Mistake: the drafts are checked in Swift, and a made-up validation error is reported without
                // a save ever being tried: the error names no object and no key, and the rule now lives twice.
                if Decoy.isActive("insert-drafts-checked-in-swift"), drafts.contains(where: { $0.name == nil }) {
                    return completion(CocoaError(.validationMissingMandatoryProperty))
                }
                for draft in drafts {
                    let plant = Plant(context: context)
                    // Mistake: a missing name becomes an empty one, which the model accepts as a name.
                    if Decoy.isActive("empty-name-for-missing") {
                        plant.name = draft.name ?? ""
                    } else if let name = draft.name {
                        plant.name = name
                    }
                    // Mistake: only the name is copied; the watering date the user entered is lost.
                    if !Decoy.isActive("insert-drops-watered-on") { plant.wateredOn = draft.wateredOn }
                }
                // Mistake: `try?` swallows the save's error, and the caller is told the plants were saved.
                if Decoy.isActive("insert-try-swallows-error") {
                    if (try? context.save()) == nil { context.rollback() }
                    return completion(nil)
                }
                try context.save()
                completion(nil)
            } catch {
                // Mistake: the error is reported, but the invalid plant stays in the context and spoils every
                // later save.
                // Mistake: the caller hears of the failure before the context is cleaned up.
                if Decoy.isActive("completion-before-rollback") {
                    completion(error)
                    return context.rollback()
                }
                // Mistake: reset() instead of rollback(): the context is clean, but every plant it held is forgotten.
                if Decoy.isActive("insert-resets") {
                    context.reset()
                } else if !Decoy.isActive("insert-without-rollback") {
                    context.rollback()
                }
                completion(error)
            }
        }
        // Mistake: the work runs on the caller's thread, not on the queue of the context it uses.
        if Decoy.isActive("insert-off-queue") { return work() }
        // Mistake: the work runs on the context's queue, but the caller is held until it is done.
        if Decoy.isActive("insert-waits") { return context.performAndWait(work) }
        context.perform(work)
    }

    public func deleteAll(completion: @escaping StoreCompletion) {
        let context = self.context
        let completion = Self.onMainQueueIfDecoyed(completion)
        let work: @Sendable () -> Void = {
            do {
                for plant in try context.fetch(Plant.fetchRequest()) { context.delete(plant) }
                // Mistake: the plants are marked deleted in the context, and the store never hears of it.
                if Decoy.isActive("delete-all-without-save") { return completion(nil) }
                try context.save()
                completion(nil)
            } catch {
                // Mistake: the failure is reported, but the plants stay deleted in the context (not in the store).
                // Mistake: reset() instead of rollback(): the context is clean, but every plant it held is forgotten,
                // and whoever shows one holds an object that belongs to no context.
                if Decoy.isActive("delete-resets") {
                    context.reset()
                } else if !Decoy.isActive("delete-without-rollback") {
                    context.rollback()
                    // Mistake "delete-rollback-without-refresh": only rolled back, the store's context keeps the
                    // stale copy the conflict was about, and every later deleteAll conflicts again.
                    if !Decoy.isActive("delete-rollback-without-refresh"),
                       (error as? CocoaError)?.code == .managedObjectMerge {
                        context.refreshAllObjects()
                    }
                }
                // Mistake: the failure is rolled back but reported as success.
                completion(Decoy.isActive("delete-error-swallowed") ? nil : error)
            }
        }
        // Mistake: the caller is held until the deletion is saved.
        if Decoy.isActive("delete-all-waits") { return context.performAndWait(work) }
        context.perform(work)
    }

    /// Mistake: the completion is sent to the main queue "for the UI", not called on the store's queue as its
    /// documentation promises; whoever it tells then touches the store's context from the wrong thread.
    private static func onMainQueueIfDecoyed(_ completion: @escaping StoreCompletion) -> StoreCompletion {
        guard Decoy.isActive("completion-on-main-queue") else { return completion }
        return { error in DispatchQueue.main.async { completion(error) } }
    }
}
