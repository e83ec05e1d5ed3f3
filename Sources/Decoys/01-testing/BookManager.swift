import Foundation
import KataSupport
import Persistence

/// Lesson 1's ``BookManager`` with known mistakes (see `Decoy`).
public struct BookManager {
    public let context: ManagedObjectContext

    public init(context: ManagedObjectContext) {
        self.context = context
    }

    /// Mistake (`manager-builds-own-stack`): the naive manager's habit — one stack of its own, on one store file,
    /// shared by every manager in the process, whatever context it was given.
    nonisolated(unsafe) private static var ownStack: PersistentContainer?

    private var workingContext: ManagedObjectContext {
        guard Decoy.isActive("manager-builds-own-stack") else { return context }
        if let stack = Self.ownStack { return stack.viewContext }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-decoy-own-stack.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        let stack = PersistentContainer(name: BookshelfModel.name, managedObjectModel: try! BookshelfModel.shared())
        stack.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        stack.loadPersistentStores { _, _ in }
        Self.ownStack = stack
        return stack.viewContext
    }

    @discardableResult
    public func createBook(title: String, author: String? = nil) throws -> Book {
        let context = workingContext
        // Mistake: the work is sent to another thread "to keep the main thread free", but the context is a
        // main-queue context: its objects may only be used on the main queue.
        if Decoy.isActive("create-off-queue") {
            nonisolated(unsafe) var made: Book?
            nonisolated(unsafe) var failure: (any Error)?
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let book = Book(context: context)
                book.title = title
                book.author = author
                do { try context.save() } catch { failure = error }
                made = book
                done.signal()
            }
            done.wait()
            if let failure { throw failure }
            return made!
        }
        // Mistake: "find or create" — a book with that title already on the shelf is handed back instead of a new
        // one, so a second copy (another edition, another author) can never be added.
        if Decoy.isActive("create-finds-existing") {
            let request: FetchRequest<Book> = Book.fetchRequest()
            request.predicate = FetchPredicate(format: "title == %@", title)
            request.fetchLimit = 1
            if let existing = try context.fetch(request).first { return existing }
        }
        let book = Book(context: context)
        book.title = title
        book.author = author
        // Mistake: the book is only in the context; nothing reaches the store.
        if Decoy.isActive("create-without-save") { return book }
        // Mistake: `try?` keeps a failed save from the caller, who shows the book as saved when it is not.
        if Decoy.isActive("create-ignores-save-error") {
            try? context.save()
            return book
        }
        // Mistake: a failed save is "cleaned up" by rolling the context back before rethrowing — which also throws
        // away every other unsaved change the caller had in that context.
        if Decoy.isActive("create-rolls-back-on-failure") {
            do { try context.save() } catch {
                context.rollback()
                throw error
            }
            return book
        }
        try context.save()
        return book
    }

    public func book(titled title: String) throws -> Book? {
        // Mistake: the context is saved first "so that the fetch sees everything" — a fetch sees unsaved changes
        // anyway, and this one commits whatever the caller had not meant to save yet.
        if Decoy.isActive("find-saves-first") { try workingContext.save() }
        // Mistake: every book is fetched and Swift picks the one with the title; the store never filters.
        if Decoy.isActive("find-in-swift") {
            return try workingContext.fetch(Book.fetchRequest()).first { $0.title == title }
        }
        // Mistake: a loose match in the fetch (contains, any case or accent), finished by an exact comparison in
        // Swift — the right book, but the store returns every near-namesake and the context registers them all.
        if Decoy.isActive("find-loose-then-exact-in-swift") {
            let request: FetchRequest<Book> = Book.fetchRequest()
            request.predicate = FetchPredicate(format: "title CONTAINS[cd] %@", title)
            return try workingContext.fetch(request).first { $0.title == title }
        }
        // Mistake: the context's registered objects are searched first, "to save a trip to the store", and the fetch
        // only runs when none matches — a book the caller deleted (not saved yet) is still registered, and comes back.
        if Decoy.isActive("find-registered-first") {
            let known = workingContext.registeredObjects.compactMap { $0 as? Book }.first { $0.title == title }
            if let known { return known }
            let request: FetchRequest<Book> = Book.fetchRequest()
            request.predicate = FetchPredicate(format: "title == %@", title)
            request.fetchLimit = 1
            return try workingContext.fetch(request).first
        }
        // Mistake: the argument is trimmed "to be helpful", so "Dune " finds "Dune" — a title the user did not type.
        let title = Decoy.isActive("find-trims-title") ? title.trimmingCharacters(in: .whitespaces) : title
        let request: FetchRequest<Book> = Book.fetchRequest()
        // Mistakes: the title pasted into the format (an apostrophe ends the quoted string); no predicate at all;
        // a prefix match; a match that ignores case.
        if Decoy.isActive("find-title-in-format") {
            request.predicate = FetchPredicate(format: "title == '\(title)'")
        } else if Decoy.isActive("find-by-prefix") {
            request.predicate = FetchPredicate(format: "title BEGINSWITH %@", title)
        } else if Decoy.isActive("find-ignoring-case") {
            request.predicate = FetchPredicate(format: "title ==[c] %@", title)
        } else if Decoy.isActive("find-with-like") {
            // Mistake: LIKE reads `?` and `*` in the title as wildcards.
            request.predicate = FetchPredicate(format: "title LIKE %@", title)
        } else if Decoy.isActive("find-with-matches") {
            // Mistake: MATCHES reads the title as a regular expression, so `+`, `(`, `.` are not themselves.
            request.predicate = FetchPredicate(format: "title MATCHES %@", title)
        } else if !Decoy.isActive("find-ignores-title") {
            request.predicate = FetchPredicate(format: "title == %@", title)
        }
        request.fetchLimit = 1
        return try workingContext.fetch(request).first
    }
}
