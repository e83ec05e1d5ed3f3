import Synchronization

extension ManagedObjectContext {
    private static let misuseReporter = Mutex<(@Sendable (PersistenceError) -> Void)?>(nil)

    /// Called with each mistake this context recorded — a mistake Core Data raises an exception for at the call
    /// (an object inserted into or deleted from a context it does not belong to, a class missing from the model…)
    /// — that no `save()` threw before a rollback, a reset or the context's end dropped it. On a device the app
    /// would have stopped at the call; a test harness sets this to fail the test instead, so code that never saves
    /// the context cannot pass. Nil (the default) reports nothing. For the whole process.
    @_spi(TestHarness) public static var unthrownMisuseHandler: (@Sendable (PersistenceError) -> Void)? {
        get { misuseReporter.withLock { $0 } }
        set { misuseReporter.withLock { $0 = newValue } }
    }

    /// Remembers a mistake reported by API that cannot throw; ``save()`` throws it.
    func recordMisuse(_ error: PersistenceError) {
        misuseErrors.append(error)
    }

    /// The first recorded mistake, to throw: from then on the recorded ones have reached the caller.
    func misuseToThrow() -> PersistenceError? {
        guard let first = misuseErrors.first else { return nil }
        misuseThrown = true
        return first
    }

    /// Drops the recorded mistakes (rollback, reset, the context's end), first handing the one no save threw to
    /// ``unthrownMisuseHandler``.
    func dropMisuse() {
        if !misuseThrown, let first = misuseErrors.first, let report = Self.unthrownMisuseHandler { report(first) }
        misuseErrors.removeAll()
        misuseThrown = false
    }
}
