import Persistence

/// An episode of a podcast feed: the entity of lesson 10's `Podcast` model (see ``PodcastModel``).
public final class Episode: ManagedObject {
    /// Its place in the feed: 1, 2, 3…
    @Managed public var number: Int
    @Managed public var title: String
    /// Whether the listener has heard it.
    @Managed public var listened: Bool
}
