import Foundation
import Persistence

/// One temperature reading of a weather station: the entity of lesson 6's `Weather` model (see ``WeatherModel``).
public final class Reading: ManagedObject {
    /// The station's name, e.g. "Harbour".
    @Managed public var station: String
    @Managed public var takenAt: Date
    /// The temperature, in degrees Celsius.
    @Managed public var celsius: Double
}
