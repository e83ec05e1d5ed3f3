import Foundation

/// The contexts whose `performAndWait` blocks are running on the current thread, innermost last. Only nesting across
/// contexts needs it (see ``ManagedObjectContext/isOnQueue``), so it lives in the thread's dictionary rather than on
/// any hot path.
enum PerformingContexts {
    private static let key = "Persistence.PerformingContexts"

    private final class Stack {
        var contexts: [ObjectIdentifier] = []
    }

    private static var stack: Stack {
        if let stack = Thread.current.threadDictionary[key] as? Stack { return stack }
        let stack = Stack()
        Thread.current.threadDictionary[key] = stack
        return stack
    }

    static func push(_ context: ManagedObjectContext) {
        stack.contexts.append(ObjectIdentifier(context))
    }

    static func pop() {
        _ = stack.contexts.popLast()
    }

    static func contains(_ context: ManagedObjectContext) -> Bool {
        guard let stack = Thread.current.threadDictionary[key] as? Stack else { return false }
        return stack.contexts.contains(ObjectIdentifier(context))
    }
}
