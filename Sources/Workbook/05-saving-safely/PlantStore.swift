import Foundation
import KataSupport
import Persistence

/// A store of plants that works on a private queue of its own and reports through completions — the shape of an
/// item store behind an app's feature. A change that cannot be saved must not stay behind in its context.
///
/// Lesson 5, katas 4–7. Check with `swift run lessons check 5`.
public final class PlantStore {
    /// The store's own private-queue context; use it only inside `context.perform`.
    public let context: ManagedObjectContext

    public init(container: PersistentContainer) {
        context = container.newBackgroundContext()
    }

    /// Inserts one plant per draft and saves them, on the context's queue. Calls `completion` with nil when they
    /// were saved; otherwise rolls the context back and calls it with the error.
    public func insert(_ drafts: [PlantDraft], completion: @escaping StoreCompletion) {
        completion(KataNotDone(lesson: 5))
    }

    /// Deletes every plant and saves, on the context's queue. Calls `completion` with nil when that was saved;
    /// otherwise rolls the context back and calls it with the error, leaving the store able to delete next time.
    public func deleteAll(completion: @escaping StoreCompletion) {
        completion(KataNotDone(lesson: 5))
    }
}
