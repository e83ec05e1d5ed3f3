import Foundation
import KataSupport
import Persistence

/// A list of one station's readings for a screen that shows a few at a time: it fetches only their object IDs,
/// on a background context, and makes a reading on the main context when a row is about to be shown.
///
/// `fetch(completion:)` may be called from any thread; `reading(at:)` only on the main queue, since the readings
/// it returns belong to the container's `viewContext`.
public final class ReadingDataSource: @unchecked Sendable {
    public let container: PersistentContainer
    public let station: String

    // Written by the fetch on a background queue, read on the main queue: guarded by the lock.
    private let lock = NSLock()
    private var fetchedIDs: [ManagedObjectID] = []
    // The readings made so far, by ID; touched on the main queue only.
    private var objects: [ManagedObjectID: Reading] = [:]

    public init(container: PersistentContainer, station: String) {
        self.container = container
        self.station = station
    }

    /// The IDs of the last fetch, oldest reading first.
    public var readingIDs: [ManagedObjectID] {
        lock.withLock { fetchedIDs }
    }

    public var numberOfReadings: Int { readingIDs.count }

    // region: fetch
    /// Fetches the IDs of the station's readings, oldest first, on a new background context. Calls `completion` on
    /// that context's queue: nil once ``readingIDs`` holds them, or the error.
    public func fetch(completion: @escaping @Sendable ((any Error)?) -> Void) {
        let context = container.newBackgroundContext()
        let station = self.station
        context.perform {
            do {
                let request = FetchRequest<ManagedObjectID>(entityName: "Reading")
                request.resultType = .managedObjectIDResultType      // IDs only: no objects for the main context
                request.predicate = FetchPredicate(format: "station == %@", station)
                request.sortDescriptors = [FetchSortDescriptor(key: "takenAt", ascending: true)]
                let ids = try context.fetch(request)
                self.lock.withLock { self.fetchedIDs = ids }
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }
    // endregion: fetch

    // region: reading-at
    /// The reading at `index`, made on the main context the first time it is asked for and kept after that;
    /// nil when `index` is out of range or the reading no longer exists. Call it on the main queue.
    public func reading(at index: Int) throws -> Reading? {
        let ids = readingIDs
        guard ids.indices.contains(index) else { return nil }
        let id = ids[index]
        let viewContext = container.viewContext
        if let kept = objects[id], kept.managedObjectContext === viewContext, !kept.isDeleted {
            return kept
        }
        guard let reading = try viewContext.reading(with: id) else { return nil }
        objects[id] = reading
        return reading
    }
    // endregion: reading-at
}
