import Persistence

/// A podcast episode: the one entity of lesson 7's model (see ``PodcastModel``).
public final class Episode: ManagedObject {
    /// Mandatory: an episode without a title cannot be saved (Core Data error 1570).
    @Managed public var title: String
    /// Whether it has been listened to; `false` for a new episode.
    @Managed public var listened: Bool
}
