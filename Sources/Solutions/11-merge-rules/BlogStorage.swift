import Foundation
import KataSupport
import Persistence

/// The app's storage, shaped by document 002's first rule: the main thread uses the container's `viewContext`;
/// work in the background gets a private context of its own through ``backgroundTask(_:)``, and
/// ``save(in:)`` reports what a save did instead of throwing.
public final class BlogStorage: Sendable {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    /// The main-queue context, for everything the UI shows and edits.
    public var viewContext: ManagedObjectContext { container.viewContext }

    // region: background-task
    /// Runs `block` on the queue of a new private-queue context attached to the store, and returns at once.
    /// Whatever the block saves goes straight to the store.
    public func backgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        container.performBackgroundTask(block)
    }
    // endregion: background-task

    // region: save-in
    /// Saves `context` on its own queue and says what happened: ``SaveStatus/hasNoChanges`` when there was nothing
    /// to write, ``SaveStatus/saved``, or ``SaveStatus/failed(_:)`` with the error — after rolling the context back
    /// to its last save, so the bad change does not make every later save fail too.
    public func save(in context: ManagedObjectContext) -> SaveStatus {
        context.performAndWait {
            guard context.hasChanges else { return .hasNoChanges }
            do {
                try context.save()
                return .saved
            } catch {
                context.rollback()
                return .failed(error)
            }
        }
    }
    // endregion: save-in
}
