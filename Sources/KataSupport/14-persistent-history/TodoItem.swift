import Persistence

/// A to-do item: the one entity of lesson 14's model (see ``TodoModel``). The app edits items on screen, its
/// home-screen widget ticks them off from another process, and a calendar import brings reminders in by the hundred.
public final class TodoItem: ManagedObject {
    /// What to do ("Buy milk").
    @Managed public var title: String
    /// Whether it is done.
    @Managed public var done: Bool

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<TodoItem> {
        FetchRequest<TodoItem>(entityName: "TodoItem")
    }
}
