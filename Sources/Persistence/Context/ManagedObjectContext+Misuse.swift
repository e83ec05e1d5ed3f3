import Synchronization

extension ManagedObjectContext {
    private static let misuseReporter = Mutex<(@Sendable (PersistenceError) -> Void)?>(nil)

    /// Called with the first mistake a context recorded — a mistake Core Data raises an exception for at the call
    /// (an object inserted into or deleted from a context it does not belong to, a class missing from the model…)
    /// — when a rollback, a reset or the context's end drops it, whether or not a `save()` threw it meanwhile. On a
    /// device the app would have stopped at the call; a test harness sets this to fail the test instead, so code
    /// that never saves the context, or catches the save's error and carries on (`try? context.save()`), cannot
    /// pass. Nil (the default) reports nothing. For the whole process.
    @_spi(TestHarness) public static var droppedMisuseHandler: (@Sendable (PersistenceError) -> Void)? {
        get { misuseReporter.withLock { $0 } }
        set { misuseReporter.withLock { $0 = newValue } }
    }

    /// Remembers a mistake reported by API that cannot throw; ``save()`` throws it.
    func recordMisuse(_ error: PersistenceError) {
        misuseErrors.append(error)
    }

    /// The first recorded mistake, to throw. It stays recorded: each save throws it again until a rollback or a
    /// reset drops it.
    func misuseToThrow() -> PersistenceError? {
        misuseErrors.first
    }

    /// Drops the recorded mistakes (rollback, reset, the context's end), first handing the first one to
    /// ``droppedMisuseHandler``.
    func dropMisuse() {
        if let first = misuseErrors.first, let report = Self.droppedMisuseHandler { report(first) }
        misuseErrors.removeAll()
    }
}
