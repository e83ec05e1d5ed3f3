import Foundation
import KataSupport
import Persistence

/// The arrangement of *Practical Core Data* (document 000): a private-queue *writer* context on the coordinator,
/// the only context that writes to the store, and a main-queue context for the UI that is its child. The UI
/// context's save only hands its changes to the writer, in memory; the writer's save writes them to the store on
/// the writer's own queue.
public final class WriterStack: Sendable {
    /// The private-queue context on the coordinator: it alone saves to the store.
    public let writerContext: ManagedObjectContext
    /// A main-queue child of ``writerContext``: reads, edits, and everything the UI shows.
    public let mainContext: ManagedObjectContext

    /// Takes a loaded container (the app's, or a test's in-memory one) and sets up the two contexts.
    public init(container: PersistentContainer) throws {
        writerContext = ManagedObjectContext(.privateQueue)
        writerContext.persistentStoreCoordinator = container.persistentStoreCoordinator
        writerContext.name = "writer"
        mainContext = ManagedObjectContext(.mainQueue)
        mainContext.parent = writerContext
        mainContext.name = "main"
    }

    /// Call on the main queue. Gives the main context's new objects permanent IDs, saves the main context into the
    /// writer, then saves the writer on its own queue and calls `completion` there, once, with the outcome. When the
    /// writer's save fails, the writer is rolled back — which drops what the main context handed it — and the main
    /// context, which believes those changes saved, is reset on its queue; the failure is reported from there.
    public func save(completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let main = mainContext
        let writer = writerContext
        do {
            // A child's objects keep their temporary IDs when the parent later writes them: fix the IDs now.
            try main.obtainPermanentIDs(for: Array(main.insertedObjects))
            try main.save()                            // into the writer, in memory: quick
        } catch {
            completion(.failure(error))
            return
        }
        writer.perform {                               // the disk write, off the main queue
            do {
                try writer.save()
                completion(.success(()))
            } catch {
                writer.rollback()
                // The main context's objects would claim a save that reached neither the writer nor the store.
                main.perform { main.reset(); completion(.failure(error)) }
            }
        }
    }
}
