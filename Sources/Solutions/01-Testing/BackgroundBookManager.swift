import KataSupport
import Persistence

/// A manager that keeps heavy work off the main thread: it writes on a background context and reads on the main
/// one, whose objects the UI may use. Both contexts are injected, so a test can pass the two contexts of a fresh
/// in-memory store and check what happened where.
public final class BackgroundBookManager {
    /// Reads happen here; the books it returns belong to this context.
    public let mainContext: ManagedObjectContext
    /// Inserts, deletes and saves happen here, on the context's own queue.
    public let backgroundContext: ManagedObjectContext

    public init(mainContext: ManagedObjectContext, backgroundContext: ManagedObjectContext) {
        self.mainContext = mainContext
        self.backgroundContext = backgroundContext
    }

    // region: add
    /// Inserts a book on the background context and saves it there; returns its (permanent) ID.
    @discardableResult
    public func addBook(title: String, author: String? = nil) throws -> ManagedObjectID {
        try backgroundContext.performAndWait {
            let book = Book(context: backgroundContext)
            book.title = title
            book.author = author
            try backgroundContext.save()
            return book.objectID
        }
    }
    // endregion: add

    /// The book with this title, as an object of the main context.
    public func book(titled title: String) throws -> Book? {
        let request = Book.fetchRequest()
        request.predicate = try FetchPredicate(format: "title == %@", title)
        request.fetchLimit = 1
        return try mainContext.performAndWait { try mainContext.fetch(request).first }
    }

    /// Every book by title, as objects of the main context.
    public func allBooks() throws -> [Book] {
        let request = Book.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(\Book.title)]
        return try mainContext.performAndWait { try mainContext.fetch(request) }
    }

    // region: delete
    /// Deletes a book the caller got from the main context. Only its ID crosses to the background context,
    /// which looks up its own copy of the object.
    public func deleteBook(_ book: Book) throws {
        let id = book.objectID
        try backgroundContext.performAndWait {
            let mine = try backgroundContext.existingObject(with: id)
            backgroundContext.delete(mine)
            try backgroundContext.save()
        }
    }
    // endregion: delete
}
