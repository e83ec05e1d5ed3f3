@_spi(ModelBuilding) import Persistence

/// The model of lessons 7 and 10, written in code: one entity, `Episode`, with its number in the feed, a mandatory
/// title and a `listened` flag that starts out `false`. Built once and shared (``shared()``), as lesson 2 explains.
public enum PodcastModel {
    /// The model's name, as a container knows it.
    public static let name = "Podcast"

    /// A new model instance. Prefer ``shared()``.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Episode", managedObjectClass: Episode.self, properties: [
                .attribute("number", .integer32, defaultValue: 0),
                .attribute("title", .string, optional: false),
                .attribute("listened", .boolean, optional: false, defaultValue: false),
            ]),
        ])
    }

    /// The process's one instance of the model.
    public static func shared() throws -> ManagedObjectModel {
        try instance.get()
    }

    private static let instance = Result { try make() }
}
