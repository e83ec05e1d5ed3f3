@_spi(ModelBuilding) import Persistence

/// The first version of lesson 16's model, `BirdLog`, as the app's first release shipped it: one entity, `Sighting`
/// — a species seen, how many birds, free notes and when. Stores on users' devices were written with it, so it never
/// changes again; every later version is a new model (``Sighting`` is the class of the current one, not of this).
///
/// ```text
/// Sighting   species: String   count: Integer 16 = 1   notes: String?   seenAt: Date
/// ```
public enum BirdLogVersion1 {
    /// The model's name, as a container knows it.
    public static let name = "BirdLog"

    // region: version-1
    /// A new instance of version 1. Prefer ``model()``.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Sighting", properties: [
                .attribute("species", .string, optional: false),
                .attribute("count", .integer16, optional: false, defaultValue: 1),
                .attribute("notes", .string),
                .attribute("seenAt", .date, optional: false),
            ]),
        ])
    }
    // endregion: version-1

    /// The process's one instance of version 1 (lesson 2: one model instance, however many containers).
    public static func model() throws -> ManagedObjectModel {
        try instance.get()
    }

    private static let instance = Result { try make() }
}
