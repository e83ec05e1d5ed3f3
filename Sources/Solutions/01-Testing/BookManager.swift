import KataSupport
import Persistence

/// Keeps the books of a shelf: create, find, rename, delete, list. It works on the context it is given and
/// saves after each change, so tests hand it a context of a fresh in-memory store and the app hands it the
/// container's `viewContext`.
public struct BookManager {
    /// The context every call works in. Injected: the manager never builds a stack of its own.
    public let context: ManagedObjectContext

    public init(context: ManagedObjectContext) {
        self.context = context
    }

    // region: create
    /// Inserts a book and saves it.
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
        let request = Book.fetchRequest()
        request.predicate = try FetchPredicate(format: "title == %@", title)
        request.fetchLimit = 1
        return try context.fetch(request).first
    }
    // endregion: find

    /// Gives `book` a new title and saves it.
    public func rename(_ book: Book, to newTitle: String) throws {
        book.title = newTitle
        try context.save()
    }

    /// Deletes `book` and saves.
    public func delete(_ book: Book) throws {
        context.delete(book)
        try context.save()
    }

    /// Every book, by title.
    public func allBooks() throws -> [Book] {
        let request = Book.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(\Book.title)]
        return try context.fetch(request)
    }
}
