import Persistence

/// A blog post: one of the two entities of lesson 11's model (see ``BlogModel``).
public final class Post: ManagedObject {
    /// Mandatory: a post without a title cannot be saved (Core Data error 1570).
    @Managed public var title: String
    /// The text; empty for a new post.
    @Managed public var body: String
    /// How many readers liked it — a number the server keeps and pushes to the app; 0 for a new post.
    @Managed public var likes: Int64
    /// Who wrote it; a post may have no author yet.
    @Managed public var author: User?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<Post> {
        FetchRequest<Post>(entityName: "Post")
    }
}
