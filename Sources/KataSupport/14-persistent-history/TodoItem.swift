import Persistence
import Synchronization

/// A to-do item: the one entity of lesson 14's model (see ``TodoModel``). The app edits items on screen, its
/// home-screen widget ticks them off from another process, and a calendar import brings reminders in by the hundred.
public final class TodoItem: ManagedObject {
    /// What to do ("Buy milk").
    @Managed public var title: String
    /// Whether it is done.
    @Managed public var done: Bool

    /// The katas' hook: runs once, on the context's queue, the next time an item of `context` turns from a fired
    /// object into a fault (a refresh), and is then cleared. Kata 9 writes to the store at that moment. The app
    /// never sets it.
    public static func onNextRefresh(in context: ManagedObjectContext?, _ hook: (@Sendable () -> Void)?) {
        refreshHook.withLock { $0 = hook.map { (context.map(ObjectIdentifier.init), $0) } }
    }

    private static let refreshHook = Mutex<(ObjectIdentifier?, @Sendable () -> Void)?>(nil)

    override public func didTurnIntoFault() {
        super.didTurnIntoFault()
        let mine = managedObjectContext.map(ObjectIdentifier.init)
        let hook: (@Sendable () -> Void)? = Self.refreshHook.withLock { pending in
            guard let (context, hook) = pending, context == mine else { return nil }
            pending = nil
            return hook
        }
        hook?()
    }

    /// A request for this entity, typed: the class method Xcode's code generation writes.
    public class func fetchRequest() -> FetchRequest<TodoItem> {
        FetchRequest<TodoItem>(entityName: "TodoItem")
    }
}
