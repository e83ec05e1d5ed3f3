import Foundation
import Persistence

// region: reading
/// One temperature reading of a weather station: the entity of lesson 6's `Weather` model (see ``WeatherModel``).
public final class Reading: ManagedObject {
    /// The station's name, e.g. "Harbour".
    @Managed public var station: String
    @Managed public var takenAt: Date
    /// The temperature, in degrees Celsius.
    @Managed public var celsius: Double

    /// Called when the reading's values arrive from the store: during the fetch for a request that returns filled
    /// objects, when the fault fires for one that returns faults (Core Data's `awakeFromFetch()`).
    public override func awakeFromFetch() {
        super.awakeFromFetch()
        Reading.arrivals.note(self)
    }

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<Reading> {
        FetchRequest<Reading>(entityName: "Reading")
    }
}
// endregion: reading

/// Lets the example and the katas watch readings receive their values (``Reading/awakeFromFetch()``): one
/// observer at a time, called on the queue of the reading's context.
public final class ReadingArrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var observer: ((Reading) -> Void)?

    /// Calls `block` for every reading whose values arrive from now on; nil stops.
    public func observe(_ block: ((Reading) -> Void)?) {
        lock.withLock { observer = block }
    }

    func note(_ reading: Reading) {
        let block = lock.withLock { observer }
        block?(reading)
    }
}

extension Reading {
    /// Where readings report that their values arrived.
    public static let arrivals = ReadingArrivals()
}
