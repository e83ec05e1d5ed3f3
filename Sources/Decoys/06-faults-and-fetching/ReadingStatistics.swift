import Foundation
import KataSupport
import Persistence

/// The reference `ReadingStatistics` with mistakes behind `Decoy.isActive`.
public final class ReadingStatistics {
    public let context: ManagedObjectContext

    public init(context: ManagedObjectContext) {
        self.context = context
    }

    public func readings(of station: String, from start: Date, before end: Date) throws -> [Reading] {
        let request: FetchRequest<Reading> = Reading.fetchRequest()
        if Decoy.isActive("period-end-included") {
            request.predicate = FetchPredicate(format: "station == %@ AND takenAt >= %@ AND takenAt <= %@",
                                                   station, start, end)
        } else if Decoy.isActive("period-filtered-in-swift") {
            request.predicate = FetchPredicate(format: "station == %@", station)
        } else if Decoy.isActive("station-ignored") {
            request.predicate = FetchPredicate(format: "takenAt >= %@ AND takenAt < %@", start, end)
        } else if Decoy.isActive("readings-station-ignoring-case") {
            // Mistake: "be forgiving about case": another station whose name differs only in case is mixed in.
            request.predicate = FetchPredicate(format: "station ==[c] %@ AND takenAt >= %@ AND takenAt < %@",
                                               station, start, end)
        } else if Decoy.isActive("readings-station-like") {
            // Mistake: LIKE reads the name as a pattern, so a * in it matches other stations' names.
            request.predicate = FetchPredicate(format: "station LIKE %@ AND takenAt >= %@ AND takenAt < %@",
                                               station, start, end)
        } else if Decoy.isActive("readings-station-in-format") {
            // Mistake: the station's name pasted into the format; an apostrophe ends the quoted string.
            request.predicate = FetchPredicate(format: "station == '\(station)' AND takenAt >= %@ AND takenAt < %@",
                                               start, end)
        } else {
            request.predicate = FetchPredicate(format: "station == %@ AND takenAt >= %@ AND takenAt < %@",
                                                   station, start, end)
        }
        // Mistake: no sort descriptor; the readings are sorted in Swift after the fetch.
        if !Decoy.isActive("readings-sorted-in-swift") {
            request.sortDescriptors = [FetchSortDescriptor(keyPath: \Reading.takenAt, ascending: true)]
        }
        if !Decoy.isActive("faults-left-on") {
            request.returnsObjectsAsFaults = false
        }
        if Decoy.isActive("faults-fired-by-hand") {
            // Mistake: the request returns faults, and every one is fired by reading a value.
            request.returnsObjectsAsFaults = true
            let readings = try context.fetch(request)
            for reading in readings { _ = reading.celsius }
            return readings
        }
        let readings = try context.fetch(request)
        if Decoy.isActive("readings-sorted-in-swift") {
            return readings.sorted { $0.takenAt < $1.takenAt }
        }
        if Decoy.isActive("period-filtered-in-swift") {
            // Mistake: the period is chosen in Swift, after every reading of the station was fetched.
            return readings.filter { $0.takenAt >= start && $0.takenAt < end }
        }
        return readings
    }

    public func averageCelsius(of station: String, from start: Date, before end: Date) throws -> Double? {
        if Decoy.isActive("average-of-faults") {
            // Mistake: a fetch of its own, with the request's defaults: every reading comes back a fault and
            // fires, one by one, when the sum reads its celsius.
            let request: FetchRequest<Reading> = Reading.fetchRequest()
            request.predicate = FetchPredicate(format: "station == %@ AND takenAt >= %@ AND takenAt < %@",
                                               station, start, end)
            let readings = try context.fetch(request)
            guard !readings.isEmpty else { return nil }
            return readings.reduce(0) { $0 + $1.celsius } / Double(readings.count)
        }
        let readings = try readings(of: station, from: start, before: end)
        guard !readings.isEmpty else { return Decoy.isActive("average-of-nothing-is-zero") ? 0 : nil }
        return readings.reduce(0) { $0 + $1.celsius } / Double(readings.count)
    }

    public func count(of station: String, below celsius: Double) throws -> Int {
        let request: FetchRequest<Reading> = Reading.fetchRequest()
        let comparison = Decoy.isActive("freezing-point-counted") ? "<=" : "<"
        let limit = NSNumber(value: celsius)
        request.predicate = FetchPredicate(format: "station == %@ AND celsius \(comparison) %@", station, limit)
        // Mistakes: the station's name pasted into the format (an apostrophe ends the quoted string); a prefix match;
        // a match that ignores case; a pattern match; the Double itself given for %@.
        if Decoy.isActive("count-station-in-format") {
            request.predicate = FetchPredicate(format: "station == '\(station)' AND celsius < %@", limit)
        } else if Decoy.isActive("count-station-prefix") {
            request.predicate = FetchPredicate(format: "station BEGINSWITH %@ AND celsius < %@", station, limit)
        } else if Decoy.isActive("count-station-ignoring-case") {
            request.predicate = FetchPredicate(format: "station ==[c] %@ AND celsius < %@", station, limit)
        } else if Decoy.isActive("count-station-like") {
            request.predicate = FetchPredicate(format: "station LIKE %@ AND celsius < %@", station, limit)
        } else if Decoy.isActive("count-double-for-object") {
            request.predicate = FetchPredicate(format: "station == %@ AND celsius < %@", station, celsius)
        }
        if Decoy.isActive("count-by-fetching") {
            return try context.fetch(request).count
        }
        if Decoy.isActive("count-fetches-then-resets") {
            // Mistake: fetches to count, then resets the context "so the objects leave no trace" — and takes the
            // caller's unsaved work with them.
            let count = try context.fetch(request).count
            context.reset()
            return count
        }
        if Decoy.isActive("count-filtered-in-swift") {
            // Mistake: asks the store for the station's readings and picks the cold ones in Swift.
            let ofStation: FetchRequest<Reading> = Reading.fetchRequest()
            ofStation.predicate = FetchPredicate(format: "station == %@", station)
            return try context.fetch(ofStation).filter { $0.celsius < celsius }.count
        }
        if Decoy.isActive("count-then-resets") {
            // Mistake: lets the store count, then resets the context "so that nothing is left over" — taking the
            // caller's unsaved work with it.
            let count = try context.count(for: request)
            context.reset()
            return count
        }
        if Decoy.isActive("count-without-pending-changes") {
            // Mistake: "only what is saved counts": the caller's unsaved readings are left out of the count.
            request.includesPendingChanges = false
        }
        if Decoy.isActive("count-in-new-context") {
            // Mistake: counts in a background context of its own "so the caller's context is not touched" — and
            // misses the caller's unsaved readings.
            guard let coordinator = context.persistentStoreCoordinator else { return 0 }
            let counter = ManagedObjectContext(.privateQueue)
            counter.persistentStoreCoordinator = coordinator
            return try counter.performAndWait { try counter.count(for: request) }
        }
        return try context.count(for: request)
    }
}
