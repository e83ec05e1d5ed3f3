import KataSupport
import Persistence

/// Keeps the books of a shelf: create, find, rename, delete, list — on the context it is given.
///
/// Lesson 1, katas 1–5. Each function below still throws ``KataNotDone``; replace that line with your code.
/// Check with `swift run lessons check 1`.
public struct BookManager {
    /// The context every call works in. It is injected: the manager never builds a stack of its own.
    public let context: ManagedObjectContext

    public init(context: ManagedObjectContext) {
        self.context = context
    }

    /// Inserts a book with this title and author into `context`, saves, and returns the book.
    @discardableResult
    public func createBook(title: String, author: String? = nil) throws -> Book {
        throw KataNotDone(lesson: 1)
    }

    /// The book whose title is exactly `title`, or nil when there is none.
    public func book(titled title: String) throws -> Book? {
        throw KataNotDone(lesson: 1)
    }

    /// Gives `book` a new title and saves it.
    public func rename(_ book: Book, to newTitle: String) throws {
        throw KataNotDone(lesson: 1)
    }

    /// Deletes `book` and saves.
    public func delete(_ book: Book) throws {
        throw KataNotDone(lesson: 1)
    }

    /// Every book, sorted by title (an empty array when there are none).
    public func allBooks() throws -> [Book] {
        throw KataNotDone(lesson: 1)
    }
}
