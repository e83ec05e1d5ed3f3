import Persistence

/// A podcast episode: the one entity of the model lessons 7 and 10 share (see ``PodcastModel``).
public final class Episode: ManagedObject {
    /// Its place in the feed: 1, 2, 3… (0 until set).
    @Managed public var number: Int
    /// Mandatory: an episode without a title cannot be saved (Core Data error 1570).
    @Managed public var title: String
    /// Whether it has been listened to; `false` for a new episode.
    @Managed public var listened: Bool

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<Episode> {
        FetchRequest<Episode>(entityName: "Episode")
    }
}
