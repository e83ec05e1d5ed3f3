import KataSupport
import Persistence

/// Lesson 1's ``BookManager`` with known mistakes (see `Decoy`).
public struct BookManager {
    public let context: ManagedObjectContext

    public init(context: ManagedObjectContext) {
        self.context = context
    }

    @discardableResult
    public func createBook(title: String, author: String? = nil) throws -> Book {
        let book = Book(context: context)
        book.title = title
        book.author = author
        // Mistake: the book is only in the context; nothing reaches the store.
        if Decoy.isActive("create-without-save") { return book }
        try context.save()
        return book
    }

    public func book(titled title: String) throws -> Book? {
        let request = Book.fetchRequest()
        // Mistake: no predicate, so the first book comes back whatever its title.
        if !Decoy.isActive("find-ignores-title") {
            request.predicate = try FetchPredicate(format: "title == %@", title)
        }
        request.fetchLimit = 1
        return try context.fetch(request).first
    }

    public func rename(_ book: Book, to newTitle: String) throws {
        book.title = newTitle
        // Mistake: the new title stays in memory; the store keeps the old one.
        if Decoy.isActive("rename-without-save") { return }
        try context.save()
    }

    public func delete(_ book: Book) throws {
        context.delete(book)
        try context.save()
    }

    public func allBooks() throws -> [Book] {
        let request = Book.fetchRequest()
        // Mistake: no sort order, so the books come back in the store's order.
        if !Decoy.isActive("unsorted-list") {
            request.sortDescriptors = [FetchSortDescriptor(\Book.title)]
        }
        return try context.fetch(request)
    }
}
