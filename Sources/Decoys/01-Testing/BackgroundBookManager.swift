import KataSupport
import Persistence

/// Lesson 1's ``BackgroundBookManager`` with known mistakes (see `Decoy`).
public final class BackgroundBookManager {
    public let mainContext: ManagedObjectContext
    public let backgroundContext: ManagedObjectContext

    public init(mainContext: ManagedObjectContext, backgroundContext: ManagedObjectContext) {
        self.mainContext = mainContext
        self.backgroundContext = backgroundContext
    }

    @discardableResult
    public func addBook(title: String, author: String? = nil) throws -> ManagedObjectID {
        // Mistake: the write happens on the main context, blocking the UI it was meant to spare.
        let writer = Decoy.isActive("writes-on-main-context") ? mainContext : backgroundContext
        return try writer.performAndWait {
            let book = Book(context: writer)
            book.title = title
            book.author = author
            try writer.save()
            return book.objectID
        }
    }

    public func book(titled title: String) throws -> Book? {
        let request = Book.fetchRequest()
        request.predicate = try FetchPredicate(format: "title == %@", title)
        request.fetchLimit = 1
        // Mistake: fetched on the background context, so the UI gets an object of the wrong queue.
        let reader = Decoy.isActive("reads-on-background-context") ? backgroundContext : mainContext
        return try reader.performAndWait { try reader.fetch(request).first }
    }

    public func allBooks() throws -> [Book] {
        let request = Book.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(\Book.title)]
        return try mainContext.performAndWait { try mainContext.fetch(request) }
    }

    public func deleteBook(_ book: Book) throws {
        let id = book.objectID
        try backgroundContext.performAndWait {
            // Mistake: the main context's object is handed to the background context as it is.
            let target = Decoy.isActive("deletes-object-of-another-context")
                ? book : try backgroundContext.existingObject(with: id)
            backgroundContext.delete(target)
            try backgroundContext.save()
        }
    }
}
