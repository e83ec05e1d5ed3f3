import Persistence

/// A book on a shelf: the one entity of lesson 1's model (see ``BookshelfModel``).
public final class Book: ManagedObject {
    /// Mandatory: a book without a title cannot be saved (Core Data error 1570).
    @Managed public var title: String
    @Managed public var author: String?

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<Book> {
        FetchRequest<Book>(entityName: "Book")
    }
}
