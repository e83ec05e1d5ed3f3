import Foundation
import KataSupport
import Persistence

// Lesson 4's runnable example: the context as a scratch pad, on lesson 1's bookshelf (a `Book` with a mandatory
// title and an optional author). Every change — insert, update, delete — lives in the context until it is saved;
// another context, reading the store, sees nothing before that. `swift run lessons run 4`.

let container = PersistentContainer(name: BookshelfModel.name, managedObjectModel: try BookshelfModel.make())
container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
container.loadPersistentStores { _, error in
    if let error { print("could not load the store: \(error)") }
}
let context = container.viewContext
/// A second context on the same store: it shows what the store holds, nothing more.
let observer = container.newBackgroundContext()

func storeHolds() throws -> String {
    try observer.performAndWait {
        // Forget what it read before and read the store afresh. Safe only because this context holds no edits and
        // nobody keeps its objects: reset() drops unsaved changes and leaves every object it handed out unusable,
        // so never reset a context a screen or a caller works in just to read.
        observer.reset()
        let request: FetchRequest<Book> = Book.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Book.title, ascending: true)]
        let books = try observer.fetch(request)
        return books.isEmpty ? "nothing" : books.map { "\($0.title) (\($0.author ?? "author unknown"))" }
            .joined(separator: ", ")
    }
}

/// Titles as a reader writes them: Swift's array description would escape the apostrophe of Ender's Game.
func titles(_ books: [Book]) -> String { "[" + books.map(\.title).joined(separator: ", ") + "]" }

print("1. Add: insert into the context, then save")
// region: add
for (title, author) in [("Solaris", "Stanisław Lem"), ("Dune", "Frank Herbert"), ("Ender's Game", nil)] {
    let book = Book(context: context)               // made and inserted in one step
    book.title = title
    book.author = author                            // nil: not known yet
}
// endregion: add
print("   before save — the context has changes: \(context.hasChanges); the store holds \(try storeHolds())")
try context.save()
print("   after save  — the context has changes: \(context.hasChanges); the store holds \(try storeHolds())")

print("")
print("2. Fetch: a request, optionally a predicate and sort descriptors, run by a context")
// region: fetch
let everything: FetchRequest<Book> = Book.fetchRequest()   // the type spelt out; every book, in no promised order
let shelfOrder: FetchRequest<Book> = Book.fetchRequest()
shelfOrder.sortDescriptors = [FetchSortDescriptor(keyPath: \Book.author, ascending: true),
                              FetchSortDescriptor(keyPath: \Book.title, ascending: true)]
let oneTitle: FetchRequest<Book> = Book.fetchRequest()
oneTitle.predicate = FetchPredicate(format: "title == %@", "Ender's Game")  // the apostrophe travels as a value
let authorUnknown: FetchRequest<Book> = Book.fetchRequest()
authorUnknown.predicate = FetchPredicate(format: "author == nil")
// endregion: fetch
print("   no sort descriptor:        \(titles(try context.fetch(everything))) (an order you cannot rely on)")
print("   by author, then by title:  \(titles(try context.fetch(shelfOrder)))")
print("   title == \"Ender's Game\":   \(titles(try context.fetch(oneTitle)))")
print("   author == nil:             \(titles(try context.fetch(authorUnknown)))")

print("")
print("3. Update: change the object; the context notices, the save writes it")
// region: update
let enders = try context.fetch(oneTitle)[0]
enders.author = "Orson Scott Card"
print("   updated objects in the context: \(titles(context.updatedObjects.compactMap { $0 as? Book }))")
print("   before save — the store holds \(try storeHolds())")
try context.save()                                // without it, the change lives in this context only
// endregion: update
print("   after save  — the store holds \(try storeHolds())")

print("")
print("4. Delete: mark the object deleted, then save")
// region: delete
let solaris = try context.fetch(shelfOrder).last!   // by author, Lem comes last
context.delete(solaris)
print("   deleted in the context: \(solaris.isDeleted); its own context no longer fetches it: "
      + "\(titles(try context.fetch(shelfOrder)))")
// endregion: delete
print("   before save — the store holds \(try storeHolds())")
try context.save()
print("   after save  — the store holds \(try storeHolds()); the deleted object's context: "
      + "\(solaris.managedObjectContext == nil ? "none" : "still the view context")")

print("")
print("5. The same record, one object per context")
// region: two-contexts
let mine = try context.fetch(oneTitle)[0]
let theirs = try observer.performAndWait { try observer.fetch(oneTitle)[0] }
print("   same record: \(mine.objectID == theirs.objectID); same object: \(mine === theirs)")
mine.title = "Ender's Game (1985)"                  // not saved: only this context's object changes
print("   this context says \"\(mine.title)\"; the other context's object says \"\(observer.performAndWait { theirs.title })\"")
context.rollback()
// endregion: two-contexts
