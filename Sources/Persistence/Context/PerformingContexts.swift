import Foundation
internal import CPersistenceSupport

/// The contexts whose `performAndWait` blocks are running on the current thread, innermost last. Only nesting across
/// contexts needs it (see ``ManagedObjectContext/isOnQueue``).
///
/// A child context asks its parent for every object it reads, each time through `performAndWait`, so this is read
/// and changed often: the stack is found through a C thread-local pointer. The thread's dictionary keeps it alive
/// and frees it when the thread ends (the pointer is never read again after that).
enum PerformingContexts {
    private static let key = "Persistence.PerformingContexts"

    private final class Stack {
        var contexts: [ObjectIdentifier] = []
    }

    @inline(__always)
    private static var current: Stack? {
        persistence_get_performing_contexts().map { Unmanaged<Stack>.fromOpaque($0).takeUnretainedValue() }
    }

    private static var stack: Stack {
        if let stack = current { return stack }
        let stack = Stack()
        Thread.current.threadDictionary[key] = stack
        persistence_set_performing_contexts(Unmanaged.passUnretained(stack).toOpaque())
        return stack
    }

    static func push(_ context: ManagedObjectContext) {
        stack.contexts.append(ObjectIdentifier(context))
    }

    static func pop() {
        _ = current?.contexts.popLast()
    }

    static func contains(_ context: ManagedObjectContext) -> Bool {
        guard let stack = current, !stack.contexts.isEmpty else { return false }
        return stack.contexts.contains(ObjectIdentifier(context))
    }
}
