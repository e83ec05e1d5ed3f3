import Foundation
import KataSupport
import Persistence

// region: naive-manager
/// The naive way: the manager builds its own stack on the app's store file. Every instance — in the app and
/// in every test — opens the same file, so whatever one test saves, the next one finds.
struct NaiveTodoManager {
    let context: ManagedObjectContext
    private let container: PersistentContainer

    init() throws {
        container = PersistentContainer(name: TodoModel.name, managedObjectModel: try TodoModel.shared())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: Self.storeURL)]
        container.loadPersistentStores { _, error in
            if let error { fatalError("Unresolved error \(error)") }     // what sample code does
        }
        context = container.viewContext
    }

    func add(_ title: String) throws {
        let item = TodoItem(context: context)
        item.title = title
        try context.save()
    }

    func allTitles() throws -> [String] {
        let request: FetchRequest<TodoItem> = TodoItem.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \TodoItem.title, ascending: true)]
        return try context.fetch(request).map(\.title)
    }
}
// endregion: naive-manager

extension NaiveTodoManager {
    /// The app's store. (A real app would use the default folder; the example keeps to a temporary one so that
    /// it never touches your files.)
    static let storeURL = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-lesson01-todos.sqlite")
}
