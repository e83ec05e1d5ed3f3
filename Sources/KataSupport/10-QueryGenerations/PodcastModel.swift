import Persistence

/// Lesson 10's model, `Podcast`: one entity, `Episode`, filled page by page by an import from a feed.
public enum PodcastModel {
    public static let name = "Podcast"

    /// A new model instance each call.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(name: "Episode", managedObjectClass: Episode.self, properties: [
                .attribute("number", .integer32, defaultValue: 0),
                .attribute("title", .string, optional: false),
                .attribute("listened", .boolean, defaultValue: false),
            ]),
        ])
    }
}
