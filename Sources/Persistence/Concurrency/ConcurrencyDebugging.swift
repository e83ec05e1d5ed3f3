internal import CPersistenceSupport
import Foundation
import Synchronization

/// Detects a context, or one of its objects, used off the context's queue — Core Data's concurrency debugger
/// (`-com.apple.CoreData.ConcurrencyDebug 1`).
///
/// Off by default. Turn it on with the environment variable `PERSISTENCE_CONCURRENCY_DEBUG=1`, or in code with
/// ``isEnabled``. A violation calls ``violationHandler``; without one it stops the program, as Core Data does — so a
/// test or kata installs a handler and asserts on what it receives instead.
///
/// Persistence-only, so declared in the `ConcurrencyDebugging` SPI group: a file sees it through
/// `@_spi(ConcurrencyDebugging) import Persistence` (on Apple platforms the launch argument switches it; Core Data
/// has no API for it).
@_spi(ConcurrencyDebugging) public enum ConcurrencyDebugging {
    private static let handler = Mutex<(@Sendable (ConcurrencyViolation) -> Void)?>(nil)

    /// Whether contexts and objects check the queue they are used on.
    public static var isEnabled: Bool {
        // Kept in C: read on every property access, where a Swift static pays a lazy-initialisation check.
        get { persistence_concurrency_debugging_enabled() != 0 }
        set { persistence_set_concurrency_debugging(newValue ? 1 : 0) }
    }

    /// Called with each violation, on the thread that committed it; `nil` stops the program.
    public static var violationHandler: (@Sendable (ConcurrencyViolation) -> Void)? {
        get { handler.withLock { $0 } }
        set { handler.withLock { $0 = newValue } }
    }

    /// Runs `body` with checking on and `handler` installed, then restores both: the way a test observes violations.
    public static func withViolationHandler<T>(_ handler: @escaping @Sendable (ConcurrencyViolation) -> Void,
                                               _ body: () throws -> T) rethrows -> T {
        let previousEnabled = isEnabled
        let previousHandler = violationHandler
        isEnabled = true
        violationHandler = handler
        defer {
            isEnabled = previousEnabled
            violationHandler = previousHandler
        }
        return try body()
    }

    static func report(_ violation: ConcurrencyViolation) {
        if let handler = violationHandler {
            handler(violation)
        } else {
            fatalError("Persistence concurrency violation: \(violation)")
        }
    }
}

/// One use of a context or managed object off its context's queue.
@_spi(ConcurrencyDebugging) public struct ConcurrencyViolation: Sendable, CustomStringConvertible {
    /// The context's name or description.
    public let context: String
    /// What was done: `fetch(_:)`, `save()`, `Movie.title`…
    public let operation: String
    /// Whether the offending code ran on the main thread.
    public let onMainThread: Bool

    public var description: String {
        "\(operation) was used off the queue of \(context) (on \(onMainThread ? "the main thread" : "a background thread")). Use perform(_:) or performAndWait(_:), and pass objectIDs between contexts."
    }
}

extension ManagedObjectContext {
    /// Reports a violation when debugging is on and the caller is not on this context's queue.
    @inline(__always)
    func checkQueue(_ operation: @autoclosure () -> String) {
        guard ConcurrencyDebugging.isEnabled, !isOnQueue else { return }
        ConcurrencyDebugging.report(ConcurrencyViolation(context: name ?? description, operation: operation(),
                                                         onMainThread: Thread.isMainThread))
    }
}

extension ManagedObject {
    /// Reports a violation when debugging is on and the object is used off its context's queue.
    @inline(__always)
    func checkQueue(_ key: @autoclosure () -> String) {
        guard ConcurrencyDebugging.isEnabled, let context = managedObjectContext else { return }
        context.checkQueue("\(entity.entityName).\(key())")
    }
}
