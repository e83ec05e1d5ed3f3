/// A change to one post that arrives from the server (a push notification, say): the values to set, `nil` for the
/// ones the server did not change.
public struct PostUpdate: Sendable, Equatable {
    public var title: String?
    public var likes: Int64?

    public init(title: String? = nil, likes: Int64? = nil) {
        self.title = title
        self.likes = likes
    }
}
