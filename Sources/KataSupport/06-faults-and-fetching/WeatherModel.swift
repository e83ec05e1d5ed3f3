@_spi(ModelBuilding) import Persistence

/// Lesson 6's model, `Weather`: one entity, `Reading`, many of them — a weather station's log, where one question
/// ("how warm was March?") touches thousands of objects.
public enum WeatherModel {
    public static let name = "Weather"

    /// A new model instance. Prefer ``shared()``.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Reading", managedObjectClass: Reading.self, properties: [
                .attribute("station", .string, optional: false),
                .attribute("takenAt", .date, optional: false),
                .attribute("celsius", .double, optional: false),
            ]),
        ])
    }

    /// The process's one instance of the model.
    public static func shared() throws -> ManagedObjectModel {
        try instance.get()
    }

    // A static `let` is initialised once, thread-safely; the `Result` keeps a failure instead of trapping.
    private static let instance = Result { try make() }
}
