import Foundation
import KataSupport
import Persistence
import XCTest
// The code under test: your starters, or (for `lessons verify`) the reference solutions or the decoys.
#if Solutions
import Solutions
#elseif Decoys
import Decoys
#else
import Workbook
#endif

/// Lesson 1 — Testing Core Data code. Katas 1–5: an injected manager on a fresh in-memory store; 6–7: a test
/// stack; 8–10: a manager that writes in the background and reads on the main context.
final class Kata01Testing: KataCase {
    override class var lesson: Int { 1 }
    override class var folder: String { "01-Testing" }
    override class func makeModel() throws -> ManagedObjectModel { try BookshelfModel.shared() }

    /// The titles the store really holds, read through a new context so nothing cached in the manager's
    /// context can answer instead.
    private func storedTitles(in container: PersistentContainer? = nil) throws -> [String] {
        let reader = (container ?? self.container).newBackgroundContext()
        return try reader.performAndWait {
            let request = Book.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(\Book.title)]
            return try reader.fetch(request).map(\.title)
        }
    }

    // MARK: The injected manager

    func test01_createBookSavesIt() {
        kata(1, in: "BookManager.swift", "createBook(title:author:)") {
            let manager = BookManager(context: context)
            let book = try manager.createBook(title: "Dune", author: "Frank Herbert")
            try expect(book.title == "Dune" && book.author == "Frank Herbert",
                       "createBook(title:author:) returned a book titled \"\(book.title)\" by \(book.author ?? "nobody"); "
                        + "expected \"Dune\" by Frank Herbert.")
            let stored = try storedTitles()
            try expect(stored == ["Dune"], "after createBook(title:author:) the store holds \(stored), not [\"Dune\"]: "
                + "insert the book into the manager's context, then save that context.")
            try expect(!context.hasChanges, "the context still has unsaved changes after createBook(title:author:).")
        }
    }

    func test02_findsABookByTitle() {
        kata(2, in: "BookManager.swift", "book(titled:)") {
            let manager = BookManager(context: context)
            for title in ["Dune", "Emma", "Ulysses"] { try manager.createBook(title: title) }
            let emma = try manager.book(titled: "Emma")
            try expect(emma?.title == "Emma", "book(titled: \"Emma\") returned "
                + (emma.map { "\"\($0.title)\"" } ?? "nil") + ": fetch with a predicate on the title.")
            let missing = try manager.book(titled: "Middlemarch")
            try expect(missing == nil, "book(titled: \"Middlemarch\") returned \"\(missing?.title ?? "")\"; "
                + "no book has that title, so it must return nil.")
        }
    }

    func test03_renameSavesTheNewTitle() {
        kata(3, in: "BookManager.swift", "rename(_:to:)") {
            let manager = BookManager(context: context)
            let book = try manager.createBook(title: "Dune")
            try manager.rename(book, to: "Dune Messiah")
            let stored = try storedTitles()
            try expect(stored == ["Dune Messiah"], "after rename(_:to:) the store holds \(stored), not "
                + "[\"Dune Messiah\"]: change the title, then save.")
            try expect(try manager.book(titled: "Dune") == nil, "book(titled: \"Dune\") still finds the old title.")
        }
    }

    func test04_deleteRemovesTheBookFromTheStore() {
        kata(4, in: "BookManager.swift", "delete(_:)") {
            let manager = BookManager(context: context)
            let books = try ["Dune", "Emma", "Ulysses"].map { try manager.createBook(title: $0) }
            try manager.delete(books[1])
            let stored = try storedTitles()
            try expect(stored == ["Dune", "Ulysses"], "after deleting \"Emma\" the store holds \(stored), not "
                + "[\"Dune\", \"Ulysses\"]: delete the object from the context, then save.")
        }
    }

    func test05_allBooksAreSortedByTitle() {
        kata(5, in: "BookManager.swift", "allBooks()") {
            let manager = BookManager(context: context)
            let none = try manager.allBooks()
            try expect(none.isEmpty, "allBooks() on an empty store returned \(none.count) books.")
            for title in ["Ulysses", "Dune", "Emma"] { try manager.createBook(title: title) }
            let titles = try manager.allBooks().map(\.title)
            try expect(titles == ["Dune", "Emma", "Ulysses"], "allBooks() returned \(titles); expected "
                + "[\"Dune\", \"Emma\", \"Ulysses\"]: give the fetch request a sort descriptor on the title.")
        }
    }

    // MARK: The test stack

    func test06_testStackLoadsAnEmptyInMemoryStore() {
        kata(6, in: "TestStack.swift", "init()") {
            let stack = try TestStack()
            let urls = stack.container.persistentStoreCoordinator.persistentStoreURLs
            try expect(urls == [URL(fileURLWithPath: "/dev/null")], "the test stack's store is at "
                + "\(urls.map(\.path)); a test store belongs in memory: give its description the URL /dev/null, "
                + "then load it.")
            let count = try stack.mainContext.count(for: Book.fetchRequest())
            try expect(count == 0, "a new test stack already holds \(count) books; it must start empty.")
            let book = Book(context: stack.mainContext)
            book.title = "Dune"
            try stack.mainContext.save()
            try expect(try storedTitles(in: stack.container) == ["Dune"],
                       "a book saved through the test stack's mainContext did not reach its store.")
        }
    }

    func test07_twoTestStacksNeverShareData() {
        kata(7, in: "TestStack.swift", "init()") {
            let first = try TestStack()
            let second = try TestStack()
            let book = Book(context: first.mainContext)
            book.title = "Dune"
            try first.mainContext.save()
            let seen = try storedTitles(in: second.container)
            try expect(seen.isEmpty, "a second test stack sees \(seen) saved by the first: each stack needs a store "
                + "of its own, which /dev/null gives every container.")
        }
    }

    // MARK: The background manager

    func test08_addBookWritesOnTheBackgroundContext() {
        kata(8, in: "BackgroundBookManager.swift", "addBook(title:author:)") {
            let background = container.newBackgroundContext()
            let manager = BackgroundBookManager(mainContext: context, backgroundContext: background)
            let id = try manager.addBook(title: "Dune")
            try expect(!id.isTemporaryID, "addBook(title:author:) returned a temporary ID: save before taking the "
                + "book's objectID.")
            let stored = try storedTitles()
            try expect(stored == ["Dune"], "after addBook(title:author:) the store holds \(stored), not [\"Dune\"].")
            let madeInBackground = background.performAndWait {
                background.registeredObjects.contains { ($0 as? Book)?.title == "Dune" }
            }
            let madeOnMain = context.registeredObjects.contains { ($0 as? Book)?.title == "Dune" }
            try expect(madeInBackground && !madeOnMain, "the book was made in the "
                + (madeOnMain ? "main" : "wrong") + " context: insert it into backgroundContext, inside "
                + "backgroundContext.performAndWait { … }, and save there.")
        }
    }

    func test09_readsReturnObjectsOfTheMainContext() {
        kata(9, in: "BackgroundBookManager.swift", "book(titled:)") {
            let background = container.newBackgroundContext()
            let manager = BackgroundBookManager(mainContext: context, backgroundContext: background)
            for title in ["Emma", "Dune"] { try manager.addBook(title: title) }
            let dune = try require(try manager.book(titled: "Dune"), "book(titled: \"Dune\") found nothing after "
                + "addBook(title: \"Dune\").")
            try expect(dune.managedObjectContext === context, "book(titled:) returned an object of "
                + "\(dune.managedObjectContext?.name ?? "another context"), not of mainContext: fetch on mainContext, "
                + "whose objects the UI may use.")
            try expect(try manager.book(titled: "Ulysses") == nil, "book(titled: \"Ulysses\") must be nil.")
            let all = try manager.allBooks()
            try expect(all.map(\.title) == ["Dune", "Emma"], "allBooks() returned \(all.map(\.title)), not "
                + "[\"Dune\", \"Emma\"] sorted by title.")
            try expect(all.allSatisfy { $0.managedObjectContext === context },
                       "allBooks() must return objects of mainContext.")
        }
    }

    func test10_deleteBookCrossesContextsByObjectID() {
        kata(10, in: "BackgroundBookManager.swift", "deleteBook(_:)") {
            let background = container.newBackgroundContext()
            let manager = BackgroundBookManager(mainContext: context, backgroundContext: background)
            for title in ["Dune", "Emma", "Ulysses"] { try manager.addBook(title: title) }
            let emma = try require(try manager.book(titled: "Emma"), "book(titled: \"Emma\") found nothing.")
            try manager.deleteBook(emma)
            let stored = try storedTitles()
            try expect(stored == ["Dune", "Ulysses"], "after deleteBook(_:) the store holds \(stored): the "
                + "background context must delete its own copy of the book — look it up by the book's objectID — "
                + "and save.")
            let listed = try manager.allBooks().map(\.title)
            try expect(listed == ["Dune", "Ulysses"], "allBooks() still lists \(listed) after the delete.")
        }
    }
}
