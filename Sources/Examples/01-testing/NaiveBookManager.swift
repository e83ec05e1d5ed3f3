import Foundation
import KataSupport
import Persistence

// region: naive-manager
/// The naive way: the manager builds its own stack on the app's store file. Every instance — in the app and
/// in every test — opens the same file, so whatever one test saves, the next one finds.
struct NaiveBookManager {
    let context: ManagedObjectContext
    private let container: PersistentContainer

    init() throws {
        container = PersistentContainer(name: BookshelfModel.name, managedObjectModel: try BookshelfModel.shared())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: Self.storeURL)]
        container.loadPersistentStores { _, error in
            if let error { fatalError("Unresolved error \(error)") }     // what sample code does
        }
        context = container.viewContext
    }

    func createBook(title: String) throws {
        let book = Book(context: context)
        book.title = title
        try context.save()
    }

    func allTitles() throws -> [String] {
        let request: FetchRequest<Book> = Book.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Book.title, ascending: true)]
        return try context.fetch(request).map(\.title)
    }
}
// endregion: naive-manager

extension NaiveBookManager {
    /// The app's store. (A real app would use the default folder; the example keeps to a temporary one so that
    /// it never touches your files.)
    static let storeURL = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-lesson01-books.sqlite")
}
