import Foundation
import KataSupport
import Persistence

/// The reference `ReadingDataSource` with mistakes behind `Decoy.isActive`.
public final class ReadingDataSource: @unchecked Sendable {
    public let container: PersistentContainer
    public let station: String

    private let lock = NSLock()
    private var fetchedIDs: [ManagedObjectID] = []
    private var objects: [ManagedObjectID: Reading] = [:]
    /// The readings made so far by row, for decoy reading-at-kept-by-row.
    private var objectsByRow: [Int: Reading] = [:]
    // For the decoy that keeps the background context's objects instead of their IDs.
    private var backgroundReadings: [Reading] = []

    public init(container: PersistentContainer, station: String) {
        self.container = container
        self.station = station
    }

    public var readingIDs: [ManagedObjectID] {
        lock.withLock { fetchedIDs }
    }

    public var numberOfReadings: Int { readingIDs.count }

    public func fetch(completion: @escaping @Sendable ((any Error)?) -> Void) {
        let onView = Decoy.isActive("ids-fetched-on-view-context")
        let context = onView ? container.viewContext : container.newBackgroundContext()
        let station = self.station
        let work: @Sendable () -> Void = {
            do {
                if Decoy.isActive("objects-handed-across") {
                    let request: FetchRequest<Reading> = Reading.fetchRequest()
                    request.predicate = FetchPredicate(format: "station == %@", station)
                    request.sortDescriptors = [FetchSortDescriptor(key: "takenAt", ascending: true)]
                    let readings = try context.fetch(request)
                    self.lock.withLock {
                        self.backgroundReadings = readings
                        self.fetchedIDs = readings.map(\.objectID)
                    }
                    completion(nil)
                    return
                }
                if Decoy.isActive("ids-from-filled-objects") {
                    // Mistake: fetches the readings themselves, filled, and keeps only their IDs.
                    let request: FetchRequest<Reading> = Reading.fetchRequest()
                    request.predicate = FetchPredicate(format: "station == %@", station)
                    request.sortDescriptors = [FetchSortDescriptor(key: "takenAt", ascending: true)]
                    request.returnsObjectsAsFaults = false
                    let ids = try context.fetch(request).map(\.objectID)
                    self.lock.withLock { self.fetchedIDs = ids }
                    completion(nil)
                    return
                }
                if Decoy.isActive("ids-station-filtered-in-swift") {
                    // Mistake: fetches every station's readings and keeps the IDs of this station's in Swift, which
                    // needs the objects (and their values) to know each one's station.
                    let request: FetchRequest<Reading> = Reading.fetchRequest()
                    request.sortDescriptors = [FetchSortDescriptor(key: "takenAt", ascending: true)]
                    let ids = try context.fetch(request).filter { $0.station == station }.map(\.objectID)
                    self.lock.withLock { self.fetchedIDs = ids }
                    completion(nil)
                    return
                }
                if Decoy.isActive("ids-from-faulting-objects") {
                    // Mistake: fetches the readings themselves, as faults (nothing is read from them, so no value
                    // arrives), and keeps only their IDs: every row is still read and an object made for each.
                    let request: FetchRequest<Reading> = Reading.fetchRequest()
                    request.predicate = FetchPredicate(format: "station == %@", station)
                    request.sortDescriptors = [FetchSortDescriptor(key: "takenAt", ascending: true)]
                    let ids = try context.fetch(request).map(\.objectID)
                    self.lock.withLock { self.fetchedIDs = ids }
                    completion(nil)
                    return
                }
                let request = FetchRequest<ManagedObjectID>(entityName: "Reading")
                request.resultType = .managedObjectIDResultType
                if Decoy.isActive("ids-station-in-format") {
                    request.predicate = FetchPredicate(format: "station == '\(station)'")   // an apostrophe ends it
                } else if Decoy.isActive("ids-station-ignoring-case") {
                    request.predicate = FetchPredicate(format: "station ==[c] %@", station)
                } else if Decoy.isActive("ids-station-like") {
                    request.predicate = FetchPredicate(format: "station LIKE %@", station)
                } else {
                    request.predicate = FetchPredicate(format: "station == %@", station)
                }
                if !Decoy.isActive("ids-unsorted") {
                    request.sortDescriptors = [FetchSortDescriptor(key: "takenAt", ascending: true)]
                }
                if Decoy.isActive("fetch-error-swallowed-by-try") {
                    // Mistake: a failed fetch becomes an empty list, and the completion reports success.
                    let ids = (try? context.fetch(request)) ?? []
                    self.lock.withLock { self.fetchedIDs = ids }
                    completion(nil)
                    return
                }
                let ids = try context.fetch(request)
                self.lock.withLock { self.fetchedIDs = ids }
                completion(nil)
            } catch {
                completion(error)
            }
        }
        if Decoy.isActive("fetch-off-queue") {
            DispatchQueue.global().async(execute: work)
        } else if Decoy.isActive("fetch-waits") {
            // Mistake: the right queue, but the caller is held until the fetch and the completion are done.
            context.performAndWait(work)
        } else {
            context.perform(work)
        }
    }

    public func reading(at index: Int) throws -> Reading? {
        let ids = readingIDs
        // Mistake: "never crash on a bad row": an index out of range is clamped to the nearest row, whose
        // reading is handed out for a row that does not exist.
        let index = Decoy.isActive("index-clamped") && !ids.isEmpty ? min(max(index, 0), ids.count - 1) : index
        guard ids.indices.contains(index) else { return nil }
        let id = ids[index]
        if Decoy.isActive("objects-handed-across") {
            return lock.withLock { backgroundReadings[index] }
        }
        let viewContext = container.viewContext
        if Decoy.isActive("reading-at-without-cache") {
            // Mistake: keeps nothing, and looks every row up again in the view context.
            return try viewContext.reading(with: id)
        }
        if Decoy.isActive("reading-at-registry-as-cache") {
            // Mistake: counts on the view context to keep each reading, asking it first with registeredObject(for:)
            // instead of keeping the readings itself. An unchanged object that nobody else holds is gone from the
            // context, so each row is looked up and read again.
            if let registered = viewContext.registeredObject(for: id) as? Reading, !registered.isDeleted {
                return registered
            }
            return try viewContext.reading(with: id)
        }
        if Decoy.isActive("reading-at-kept-by-row") {
            // Mistake: keeps the readings by row number; once a new fetch has moved the rows, a row hands out the
            // reading that used to be there.
            if let kept = objectsByRow[index], kept.managedObjectContext === viewContext, !kept.isDeleted {
                return kept
            }
            guard let reading = try viewContext.reading(with: id) else { return nil }
            objectsByRow[index] = reading
            return reading
        }
        if let kept = objects[id], kept.managedObjectContext === viewContext, !kept.isDeleted {
            return kept
        }
        if Decoy.isActive("everything-materialised") {
            // Makes every reading of the list at the first call, instead of the one asked for.
            for other in ids where objects[other] == nil {
                if let reading = try viewContext.reading(with: other) { objects[other] = reading }
            }
            return objects[id]
        }
        guard let reading = try viewContext.reading(with: id) else { return nil }
        objects[id] = reading
        return reading
    }
}
