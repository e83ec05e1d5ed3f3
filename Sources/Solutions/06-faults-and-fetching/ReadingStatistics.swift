import Foundation
import KataSupport
import Persistence

/// Questions about many readings at once: the readings of a period, their average, how many were below a
/// temperature. Each reads the store through ``context``; none changes anything.
public final class ReadingStatistics {
    /// The context the statistics read through; use it on its queue.
    public let context: ManagedObjectContext

    public init(context: ManagedObjectContext) {
        self.context = context
    }

    // region: readings
    /// The readings of `station` taken from `start` up to, but not including, `end`, oldest first — fetched
    /// filled, since every one of them is about to be read.
    public func readings(of station: String, from start: Date, before end: Date) throws -> [Reading] {
        let request: FetchRequest<Reading> = Reading.fetchRequest()
        request.predicate = FetchPredicate(format: "station == %@ AND takenAt >= %@ AND takenAt < %@",
                                               station, start, end)
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Reading.takenAt, ascending: true)]
        request.returnsObjectsAsFaults = false      // each object arrives with its values: no fault to fire later
        return try context.fetch(request)
    }
    // endregion: readings

    // region: average
    /// The mean temperature of those readings, or nil when there are none.
    public func averageCelsius(of station: String, from start: Date, before end: Date) throws -> Double? {
        let readings = try readings(of: station, from: start, before: end)
        guard !readings.isEmpty else { return nil }
        return readings.reduce(0) { $0 + $1.celsius } / Double(readings.count)
    }
    // endregion: average

    // region: count
    /// How many readings of `station` were strictly below `celsius`, counted by the store: no object is made.
    public func count(of station: String, below celsius: Double) throws -> Int {
        let request: FetchRequest<Reading> = Reading.fetchRequest()
        // %@ stands for an object: the Double goes in as an NSNumber (on Apple a bare Double there crashes).
        request.predicate = FetchPredicate(format: "station == %@ AND celsius < %@", station, NSNumber(value: celsius))
        return try context.count(for: request)
    }
    // endregion: count
}
