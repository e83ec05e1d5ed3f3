@_spi(ModelBuilding) import Persistence

/// A train leaving the station: the example's one entity. The departure board shows the trains in sections by
/// platform, the earliest first on each.
final class Departure: ManagedObject {
    /// The train's name on the board ("IC 512").
    @Managed var train: String
    /// Where it goes.
    @Managed var destination: String
    /// The platform it leaves from ("1"): the board's sections.
    @Managed var platform: String
    /// When it leaves, in minutes after midnight (08:02 is 482).
    @Managed var time: Int
    /// What the board says beside it: "on time", "delayed", "boarding".
    @Managed var status: String

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    class func fetchRequest() -> FetchRequest<Departure> {
        FetchRequest<Departure>(entityName: "Departure")
    }
}

/// The example's model, `Station`.
enum StationModel {
    static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Departure", managedObjectClass: Departure.self, properties: [
                .attribute("train", .string, optional: false),
                .attribute("destination", .string, defaultValue: ""),
                .attribute("platform", .string, defaultValue: "1"),
                .attribute("time", .integer32, defaultValue: 0),
                .attribute("status", .string, defaultValue: "on time"),
            ]),
        ])
    }
}
