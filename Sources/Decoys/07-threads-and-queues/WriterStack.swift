import Foundation
import KataSupport
import Persistence

/// The arrangement of *Practical Core Data* (document 000): a private-queue *writer* context on the coordinator,
/// the only context that writes to the store, and a main-queue context for the UI that is its child.
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
        if Decoy.isActive("writer-child-is-the-view-context") {
            mainContext = container.viewContext          // already on the coordinator; re-parented here
        } else {
            mainContext = ManagedObjectContext(.mainQueue)
        }
        mainContext.parent = writerContext
        mainContext.name = "main"
    }

    /// Call on the main queue. Gives the main context's new objects permanent IDs, saves the main context into the
    /// writer, then saves the writer on its own queue and calls `completion` there, once, with the outcome.
    public func save(completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let main = mainContext
        let writer = writerContext
        do {
            if !Decoy.isActive("main-keeps-temporary-ids") && !Decoy.isActive("permanent-ids-after-the-save") {
                try main.obtainPermanentIDs(for: Array(main.insertedObjects))
            }
            if Decoy.isActive("main-save-failure-dropped") {
                try? main.save()                        // a refused UI save goes unnoticed; the writer saves nothing
            } else if !Decoy.isActive("main-context-never-saves") {
                try main.save()
            }
            if Decoy.isActive("permanent-ids-after-the-save") {
                // Too late: after the save the context has no inserted objects left to give permanent IDs.
                try main.obtainPermanentIDs(for: Array(main.insertedObjects))
            }
        } catch {
            completion(.failure(error))
            return
        }
        if Decoy.isActive("writer-never-saves") {
            // The main context's save looks like the end of it; the changes wait in the writer, in memory.
            completion(.success(()))
            return
        }
        if Decoy.isActive("writer-saved-on-the-main-queue") {
            // performAndWait from the main thread: the main queue waits while the store is written.
            do {
                try writer.performAndWait { try writer.save() }
                completion(.success(()))
            } catch {
                completion(.failure(error))
            }
            return
        }
        if Decoy.isActive("completion-called-twice") {
            completion(.success(()))                   // early: nothing is in the store yet
        }
        if Decoy.isActive("writer-failure-reported-as-success") {
            // Off the main queue and once, but a failed store write is reported as a success.
            writer.perform {
                try? writer.save()
                completion(.success(()))
            }
            return
        }
        if Decoy.isActive("writer-failure-not-rolled-back") {
            // Reports the failure, but leaves the failed changes in the writer for every later save to meet.
            writer.perform {
                do {
                    try writer.save()
                    completion(.success(()))
                } catch {
                    completion(.failure(error))
                }
            }
            return
        }
        writer.perform {
            do {
                try writer.save()
                completion(.success(()))
            } catch {
                writer.rollback()
                if Decoy.isActive("writer-failure-leaves-the-ui-context") {
                    // Rolled back and reported, but the UI context still shows what failed, as if it were saved.
                    completion(.failure(error))
                    return
                }
                main.perform {
                    main.reset()
                    completion(.failure(error))
                }
            }
        }
    }
}
