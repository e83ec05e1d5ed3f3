import Foundation
import KataSupport
import Persistence

/// Questions about many readings at once: the readings of a period, their average, how many were below a
/// temperature. Each reads the store through ``context``; none changes anything.
///
/// Lesson 6, katas 1–3. Check with `swift run lessons check 6`.
public final class ReadingStatistics {
    /// The context the statistics read through; use it on its queue.
    public let context: ManagedObjectContext

    public init(context: ManagedObjectContext) {
        self.context = context
    }

    /// The readings of `station` taken from `start` up to, but not including, `end`, oldest first. Every one of
    /// them is about to be read, so they should arrive filled with their values, not as faults.
    public func readings(of station: String, from start: Date, before end: Date) throws -> [Reading] {
        throw KataNotDone(lesson: 6)
    }

    /// The mean temperature of those readings, or nil when there are none.
    public func averageCelsius(of station: String, from start: Date, before end: Date) throws -> Double? {
        throw KataNotDone(lesson: 6)
    }

    /// How many readings of `station` were strictly below `celsius`. Let the store count them: no reading
    /// should be made as an object just to be counted.
    public func count(of station: String, below celsius: Double) throws -> Int {
        throw KataNotDone(lesson: 6)
    }
}
