import Foundation
import KataSupport
import Persistence

/// A list of one station's readings for a screen that shows a few at a time: it fetches only their object IDs,
/// on a background context, and makes a reading on the main context when a row is about to be shown.
///
/// `fetch(completion:)` may be called from any thread; `reading(at:)` only on the main queue, since the readings
/// it returns belong to the container's `viewContext`.
///
/// Lesson 6, katas 5–6. Check with `swift run lessons check 6`.
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

    /// Fetches the IDs of the station's readings, oldest first, on a new background context. Calls `completion` on
    /// that context's queue: nil once ``readingIDs`` holds them, or the error.
    /// (Store them with `lock.withLock { fetchedIDs = ids }`.)
    public func fetch(completion: @escaping @Sendable ((any Error)?) -> Void) {
        completion(KataNotDone(lesson: 6))
    }

    /// The reading at `index`, made on the main context the first time it is asked for and kept after that;
    /// nil when `index` is out of range or the reading no longer exists. Call it on the main queue.
    public func reading(at index: Int) throws -> Reading? {
        throw KataNotDone(lesson: 6)
    }
}
