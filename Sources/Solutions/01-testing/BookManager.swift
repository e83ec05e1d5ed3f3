import KataSupport
import Persistence

/// Adds and finds the books of a shelf, in whatever context it is given: the app hands it the container's
/// `viewContext`, a test the context of a fresh in-memory store. It never builds a stack of its own — that is
/// what makes it testable.
public struct BookManager {
    /// The context every call works in. Injected: the manager never builds a stack of its own.
    public let context: ManagedObjectContext

    public init(context: ManagedObjectContext) {
        self.context = context
    }

    // region: create
    /// Inserts a new book and saves it; a title already on the shelf makes a second book.
    @discardableResult
    public func createBook(title: String, author: String? = nil) throws -> Book {
        let book = Book(context: context)
        book.title = title
        book.author = author
        try context.save()
        return book
    }
    // endregion: create

    // region: find
    /// The book with exactly this title, or nil.
    public func book(titled title: String) throws -> Book? {
        let request: FetchRequest<Book> = Book.fetchRequest()
        request.predicate = FetchPredicate(format: "title == %@", title)
        request.fetchLimit = 1
        return try context.fetch(request).first
    }
    // endregion: find
}
