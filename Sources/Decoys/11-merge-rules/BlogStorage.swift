import Foundation
import KataSupport
import Persistence

/// The reference `BlogStorage` with known mistakes behind `Decoy.isActive` (see `lessons/manifest.json`).
public final class BlogStorage: Sendable {
    public let container: PersistentContainer

    public init(container: PersistentContainer) {
        self.container = container
    }

    public var viewContext: ManagedObjectContext { container.viewContext }

    public func backgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        if Decoy.isActive("background-task-on-view-context") {
            let viewContext = container.viewContext
            viewContext.perform { block(viewContext) }
            return
        }
        if Decoy.isActive("background-task-child-of-view-context") {
            let context = ManagedObjectContext(.privateQueue)
            context.parent = container.viewContext
            context.perform { block(context) }
            return
        }
        // Mistake: "background" taken to mean a global dispatch queue: the context is new and private, but the
        // block runs on a queue that is not the context's own.
        if Decoy.isActive("background-task-on-global-queue") {
            let context = container.newBackgroundContext()
            DispatchQueue.global().async { block(context) }
            return
        }
        // Mistake: the block goes onto the context's queue with performAndWait, which waits — and, called from the
        // main thread, may run the block right there.
        if Decoy.isActive("background-task-perform-and-wait") {
            let context = container.newBackgroundContext()
            context.performAndWait { block(context) }
            return
        }
        container.performBackgroundTask(block)
    }

    public func save(in context: ManagedObjectContext) -> SaveStatus {
        if Decoy.isActive("save-off-queue") {
            return save(context)
        }
        // Mistake: perform runs the block later, so the status returned is the one set before it ran.
        if Decoy.isActive("save-in-async-perform") {
            nonisolated(unsafe) var status = SaveStatus.hasNoChanges
            context.perform { status = self.save(context) }
            return status
        }
        return context.performAndWait { save(context) }
    }

    private func save(_ context: ManagedObjectContext) -> SaveStatus {
        guard context.hasChanges || Decoy.isActive("saved-without-changes") else { return .hasNoChanges }
        do {
            try context.save()
            return .saved
        } catch {
            if Decoy.isActive("failed-save-resets") {
                context.reset()
            } else if !Decoy.isActive("failed-save-without-rollback") {
                context.rollback()
            }
            return .failed(error)
        }
    }
}
