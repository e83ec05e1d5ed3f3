import Persistence

/// A user who writes posts: one of the two entities of lesson 11's model (see ``BlogModel``).
public final class User: ManagedObject {
    /// Mandatory: a user without a name cannot be saved (Core Data error 1570).
    @Managed public var name: String
    /// The posts this user wrote (the inverse of ``Post/author``).
    @Managed public var posts: Set<Post>

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<User> {
        FetchRequest<User>(entityName: "User")
    }
}
