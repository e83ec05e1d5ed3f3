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

/// Lesson 1 — Testing Core Data code. Katas 1–2: a manager that works in the context it is handed; 3–4: a test
/// stack on a private in-memory store; 5: two managers on two stacks never share a book.
final class Kata01Testing: KataCase {
    override class var lesson: Int { 1 }
    override class var folder: String { "01-testing" }
    override class func makeModel() throws -> ManagedObjectModel { try BookshelfModel.shared() }

    // MARK: The injected manager

    func test01_createBookSavesItInTheInjectedContext() {
        kata(1, in: "BookManager.swift", "createBook(title:author:)") {
            let manager = BookManager(context: context)
            let book = try manager.createBook(title: "Dune", author: "Frank Herbert")
            try expect(book.managedObjectContext === context, "createBook(title:author:) returned a book that "
                + (book.managedObjectContext == nil ? "belongs to no context" : "belongs to another context")
                + ", not to the context the manager was given. Work in the injected `context` — a manager that "
                + "builds a stack of its own cannot be tested.")
            try expect(book.title == "Dune" && book.author == "Frank Herbert",
                       "createBook(title:author:) returned a book titled \"\(book.title)\" by \(book.author ?? "nobody"); "
                        + "expected \"Dune\" by Frank Herbert.")
            try expect(!context.hasChanges, "after createBook(title:author:) the book is still an unsaved change "
                + "of the context: insert, then save the same context.")
            let stored = try storedValues(\Book.title)
            try expect(stored == ["Dune"], "after createBook(title:author:) the injected store holds \(stored), not "
                + "[\"Dune\"]: the book went to another store.")

            // A second copy of a title (another edition, a book given twice) is a book of its own.
            let copy = try manager.createBook(title: "Dune", author: "Frank Herbert")
            let copies = try storedValues(\Book.title)
            try expect(copy !== book && copies == ["Dune", "Dune"], "createBook(title: \"Dune\") called a second time "
                + (copy === book ? "handed back the book already on the shelf" : "left \(copies) in the store")
                + ", where the shelf should now hold two books called \"Dune\". The method creates: a shelf may hold "
                + "two copies or two editions of one title, and a manager that finds instead of creating loses the "
                + "second one without a word.")

            // A save that fails: a save writes every change of the context, and another book in it has no title.
            let untitled = Book(context: context)
            defer { context.rollback() }
            var failed = false
            do { try manager.createBook(title: "Emma") } catch { failed = true }
            try expect(failed, "createBook(title:author:) returned normally although its save failed (another book "
                + "in the context has no title, which the model requires: Core Data error 1570). The caller must "
                + "hear of a failed save — on a device the user would see the book as saved, and it would be gone "
                + "at the next launch.")
            try expect(untitled.managedObjectContext === context && context.insertedObjects.contains(untitled),
                       "after its save failed, createBook(title:author:) had also thrown away the caller's other "
                + "unsaved book: the context was rolled back or reset. Reporting the failure is the method's job; "
                + "what to do with the rest of the context's changes is the caller's — on a device, a rollback here "
                + "discards whatever else the user was in the middle of editing.")
        }
    }

    func test02_findsABookByItsExactTitle() {
        kata(2, in: "BookManager.swift", "book(titled:)") {
            let manager = BookManager(context: context)
            let shelf = ["Dune Messiah", "Dune", "Emma", "Ender's Game", "Émile", "Whom", "C++ Primer"]
            for title in shelf { try manager.createBook(title: title) }
            let emma = try manager.book(titled: "Emma")
            try expect(emma?.title == "Emma", "book(titled: \"Emma\") returned "
                + (emma.map { "\"\($0.title)\"" } ?? "nil") + ": the predicate must compare the title with the "
                + "argument, not return the first book.")
            let dune = try manager.book(titled: "Dune")
            try expect(dune?.title == "Dune", "book(titled: \"Dune\") returned "
                + (dune.map { "\"\($0.title)\"" } ?? "nil") + (dune?.title == "Dune Messiah"
                    ? ": a title that only starts with \"Dune\". BEGINSWITH and CONTAINS match part of a title; "
                        + "== matches all of it." : ": fetch with a predicate on the title."))
            let lower = try manager.book(titled: "emma")
            try expect(lower == nil, "book(titled: \"emma\") found \"\(lower?.title ?? "")\"; titles differ in case "
                + "here, so nothing matches. ==[c] ignores case; plain == does not.")
            let missing = try manager.book(titled: "Middlemarch")
            try expect(missing == nil, "book(titled: \"Middlemarch\") returned \"\(missing?.title ?? "")\"; "
                + "no book has that title, so it must return nil.")
            let spaced = try manager.book(titled: "Dune ")
            try expect(spaced == nil, "book(titled: \"Dune \") found \"\(spaced?.title ?? "")\"; no book has that "
                + "title: the shelf has \"Dune\", without the space at the end. A title is compared as it was typed — "
                + "trimming the argument finds a book the user did not ask for, and a stored title that does end in a "
                + "space could then never be found.")
            let ender = try manager.book(titled: "Ender's Game")
            try expect(ender?.title == "Ender's Game", "book(titled: \"Ender's Game\") returned "
                + (ender.map { "\"\($0.title)\"" } ?? "nil") + ": a title with an apostrophe must be found like any "
                + "other. A title written into the format string itself ends the quoted string at its apostrophe; "
                + "a value passed as an argument of the format is never read as part of the format.")
            let plain = try manager.book(titled: "Emile")
            try expect(plain == nil, "book(titled: \"Emile\") found \"\(plain?.title ?? "")\"; the shelf has "
                + "\"Émile\", with an accent, so nothing matches. [d] ignores accents; plain == does not.")
            // Titles are typed by users: a question mark or a plus sign is part of the title, not a pattern.
            let who = try manager.book(titled: "Who?")
            try expect(who == nil, "book(titled: \"Who?\") found \"\(who?.title ?? "")\"; no book has that title. "
                + "LIKE reads `?` and `*` in its argument as wildcards, so a title with a question mark finds other "
                + "books; == compares the characters as they are.")
            let primer = try manager.book(titled: "C++ Primer")
            try expect(primer?.title == "C++ Primer", "book(titled: \"C++ Primer\") returned "
                + (primer.map { "\"\($0.title)\"" } ?? "nil") + ": a title with a `+` in it must be found like any "
                + "other. MATCHES reads its argument as a regular expression, where `+` means \"one or more\"; "
                + "== compares the characters as they are.")

            // A fetch sees what the context holds unsaved, so finding a book needs no save — and must not save:
            // the caller's unsaved edit is theirs to save or discard.
            let draft = Book(context: context)
            draft.title = "Persuasion"
            let pending = try manager.book(titled: "Persuasion")
            let unsaved = try storedValues(\Book.title).contains("Persuasion") == false
            try expect(pending === draft && context.hasChanges && unsaved, "book(titled: \"Persuasion\"), asked "
                + "while that book was an unsaved insert of the context, "
                + (pending === draft ? "" : "did not return it, and ")
                + (unsaved && context.hasChanges ? "" : "saved the context: the caller's unsaved book is now in the store. ")
                + "A fetch sees the context's unsaved inserts and changes (includesPendingChanges is true by default); "
                + "a lookup must leave the caller's context as it found it.")
            context.rollback()

            // A book the caller has deleted, not saved yet, is gone as far as this context is concerned.
            let doomed = try XCTUnwrap(dune, "book(titled: \"Dune\") found nothing above")
            context.delete(doomed)
            let deleted = try manager.book(titled: "Dune")
            try expect(deleted == nil, "book(titled: \"Dune\"), asked after the caller deleted that book in the "
                + "context (not saved yet), returned " + (deleted === doomed ? "the deleted book" : "\"\(deleted?.title ?? "")\"")
                + ". A fetch leaves out what the context has deleted; a search of the objects the context has "
                + "registered does not. On a device the screen would open a book the user has just removed.")
            context.rollback()

            // The fetch, not Swift, must pick the book: a context that has seen nothing yet and keeps every object
            // it registers (retainsRegisteredObjects; by default a context lets go of unchanged objects nobody holds)
            // holds afterwards exactly what the fetch brought back.
            // "Dune" has a near-namesake on the shelf ("Dune Messiah"), which a loose match would bring back too.
            for title in ["Emma", "Dune"] {
                let fresh = ManagedObjectContext(.mainQueue)
                fresh.persistentStoreCoordinator = container.persistentStoreCoordinator
                fresh.retainsRegisteredObjects = true
                let found = try BookManager(context: fresh).book(titled: title)
                let registered = fresh.registeredObjects.compactMap { ($0 as? Book)?.title }.sorted()
                try expect(found?.title == title && registered.count <= 1, "book(titled: \"\(title)\") in a new "
                    + "context returned \(found.map { "\"\($0.title)\"" } ?? "nil") and left \(registered) registered "
                    + "in that context, where the one it returns is all a fetch needs to bring back. The store should "
                    + "do the whole choosing: an exact comparison in the fetch request's predicate (and a fetch limit), "
                    + "not every book, or every book whose title merely resembles it, searched again in Swift.")
            }
        }
    }

    // MARK: The test stack

    func test03_testStackLoadsAnEmptyInMemoryStore() {
        kata(3, in: "TestStack.swift", "init(storeURL:)") {
            let stack = try TestStack()
            let stores = stack.container.persistentStoreCoordinator.persistentStores
            let urls = stores.compactMap(\.url)
            try expect(urls == [URL(fileURLWithPath: "/dev/null")], urls.isEmpty
                ? "the test stack has no store: load it (loadPersistentStores) before returning from init(storeURL:)."
                : "the test stack's store is at \(urls.map(\.path)); a test store belongs in memory: give its "
                    + "description the URL /dev/null, then load it.")
            let types = stores.map(\.type)
            try expect(types == [NSSQLiteStoreType], "the test stack's store is of type \(types), not SQLite. On Apple "
                + "platforms Core Data's in-memory store type is not SQLite: batch requests fail there, and it "
                + "accepts predicates the app's SQLite store refuses, so tests pass that the app fails. An SQLite "
                + "store whose URL is /dev/null is in memory too.")
            let count = try stack.mainContext.count(for: Book.fetchRequest())
            try expect(count == 0, "a new test stack already holds \(count) books; it must start empty.")
            let book = Book(context: stack.mainContext)
            book.title = "Dune"
            try stack.mainContext.save()
            try expect(try storedValues(\Book.title, in: stack.container) == ["Dune"],
                       "a book saved through the test stack's mainContext did not reach its store.")

            // A store on a file, reopened as after a relaunch: a second stack on the same file finds what the first
            // one saved there.
            let place = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-kata01-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: place) }
            let file = place.appendingPathComponent("Bookshelf.sqlite")
            do {
                let before = try TestStack(storeURL: file)
                let emma = Book(context: before.mainContext)
                emma.title = "Emma"
                try before.mainContext.save()
            }
            let reopened = try TestStack(storeURL: file)
            let described = reopened.container.persistentStoreDescriptions.compactMap(\.url)
            try expect(described == [file], "TestStack(storeURL: \(file.path)) described its store at "
                + "\(described.map(\.path)): a URL the test hands in is where the store goes; /dev/null is for "
                + "when it hands in none.")
            let reread = try storedValues(\Book.title, in: reopened.container)
            try expect(reread == ["Emma"], "a stack saved \"Emma\" into \(file.lastPathComponent), and a second "
                + "TestStack(storeURL:) on the same file finds \(reread): the file was emptied or replaced when the "
                + "second stack opened it. A test hands in a file for exactly this case — a store reopened after a "
                + "relaunch — so open the store in it as it is; starting empty is what /dev/null is for.")

            // A store that cannot be made: a plain file stands where its folder should be. (Not a read-only folder:
            // permissions do not stop root, which many CI machines run as.)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-kata01-\(UUID().uuidString)")
            try Data("a file, not a folder".utf8).write(to: folder)
            defer { try? FileManager.default.removeItem(at: folder) }
            let blocked = folder.appendingPathComponent("Bookshelf.sqlite")
            var made: TestStack?
            do { made = try TestStack(storeURL: blocked) } catch {
                let expected = try storeError(at: blocked), thrown = error as NSError
                try expect(thrown.domain == expected.domain && thrown.code == expected.code, "TestStack(storeURL: "
                    + "\(blocked.path)) threw \(thrown.domain) \(thrown.code) (\(thrown.localizedDescription)); "
                    + "expected the error loadPersistentStores reported, unchanged: \(expected.domain) "
                    + "\(expected.code). A test that fails with an error of the stack's own no longer says which file "
                    + "problem it was.")
            }
            if let made {
                let described = made.container.persistentStoreDescriptions.compactMap(\.url)
                try expect(described == [blocked], "TestStack(storeURL: \(blocked.path)) described its store at "
                    + "\(described.map(\.path)): a URL the test hands in is where the store goes; /dev/null is for "
                    + "when it hands in none.")
                try expect(false, "TestStack(storeURL:) returned a stack for \(blocked.path), where no store can be "
                    + "made: loadPersistentStores reported an error and the stack kept it to itself. Every test using "
                    + "that stack would then fail later, with messages that do not name the cause; a stack that "
                    + "cannot load must throw what loading reported.")
            }
        }
    }

    /// The error loading a store at `url` reports here. Apple does not document which code Core Data gives for a
    /// place where no store can be made, so the kata compares with this rather than with a number. An empty model
    /// claims no class, so it cannot disturb the learner's stacks.
    private func storeError(at url: URL) throws -> NSError {
        let container = PersistentContainer(name: "Bookshelf", managedObjectModel: ManagedObjectModel())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        var reported: NSError?
        container.loadPersistentStores { _, error in reported = error as NSError? }
        return try XCTUnwrap(reported, "no store can be made at \(url.path), yet loading one reported no error")
    }

    func test04_twoTestStacksNeverShareData() {
        kata(4, in: "TestStack.swift", "init(storeURL:)") {
            let first = try TestStack()
            let second = try TestStack()
            let book = Book(context: first.mainContext)
            book.title = "Dune"
            try first.mainContext.save()
            let seen = try storedValues(\Book.title, in: second.container)
            try expect(seen.isEmpty, "a second test stack sees \(seen) saved by the first: each stack needs a store "
                + "of its own, which /dev/null gives every container.")
            try expect(first.container.managedObjectModel === second.container.managedObjectModel, "each test stack "
                + "builds a model of its own. On Apple platforms, with two loaded models claiming Book, Book(context:) "
                + "logs \"Multiple NSEntityDescriptions claim the NSManagedObject subclass 'Book'\" and may make the "
                + "book for the other model's entity: tests that pass alone fail together. Build the model once and hand "
                + "that one instance to every stack.")
        }
    }

    // MARK: Isolation

    func test05_managersOnTwoStacksNeverShareBooks() {
        kata(5, in: "BookManager.swift", "book(titled:)") {
            let first = BookManager(context: context)
            let other = try Self.makeInMemoryContainer(model: try BookshelfModel.shared())
            let second = BookManager(context: other.viewContext)
            try first.createBook(title: "Dune")
            let seen = try second.book(titled: "Dune")
            try expect(seen == nil, "a manager given another store's context found \"\(seen?.title ?? "")\", "
                + "which was saved through the first manager: both managers work in one place of their own instead "
                + "of the context each was given.")
            try expect(try first.book(titled: "Dune")?.title == "Dune", "the first manager cannot find the book it "
                + "just saved.")
        }
    }
}
