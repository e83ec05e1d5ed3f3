import KataSupport
import Persistence

/// A manager that writes on a background context and reads on the main one, whose objects the UI may use.
/// Both contexts are injected, so a test can pass the two contexts of a fresh in-memory store.
///
/// Lesson 1, katas 8–10. Check with `swift run lessons check 1`.
public final class BackgroundBookManager {
    /// Reads happen here; the books this manager returns must belong to this context.
    public let mainContext: ManagedObjectContext
    /// Inserts, deletes and saves happen here, on the context's own queue.
    public let backgroundContext: ManagedObjectContext

    public init(mainContext: ManagedObjectContext, backgroundContext: ManagedObjectContext) {
        self.mainContext = mainContext
        self.backgroundContext = backgroundContext
    }

    /// Inserts a book on the background context, saves it there, and returns its permanent ID.
    @discardableResult
    public func addBook(title: String, author: String? = nil) throws -> ManagedObjectID {
        throw KataNotDone(lesson: 1)
    }

    /// The book with exactly this title, as an object of the main context, or nil.
    public func book(titled title: String) throws -> Book? {
        throw KataNotDone(lesson: 1)
    }

    /// Every book, sorted by title, as objects of the main context.
    public func allBooks() throws -> [Book] {
        throw KataNotDone(lesson: 1)
    }

    /// Deletes `book` — an object of the main context — through the background context, and saves there.
    public func deleteBook(_ book: Book) throws {
        throw KataNotDone(lesson: 1)
    }
}
