import Synchronization

extension ManagedObjectModel {
    /// What a model does with a programmer's mistake that Core Data raises an exception for: a change to a model,
    /// entity or property after the model is in use (Core Data's `NSInternalInconsistencyException`, "Can't modify
    /// an immutable model"), or an entity made its own subentity.
    @_spi(TestHarness) public enum ProgrammingErrorHandling: Sendable {
        /// Stop the program with the error's message, as Core Data's exception stops an app. The default.
        case stop
        /// Hand the error to `report` and go on without the change. For a test harness, which turns a mistake in
        /// the code under test into a failed test rather than a dead process. Not for apps: Core Data has no such
        /// mode.
        case report(@Sendable (PersistenceError) -> Void)
    }

    private static let handling = Mutex<ProgrammingErrorHandling>(.stop)

    /// What programming errors in building a model do, for the whole process: stop the program (the default) or be
    /// reported, the change not made.
    @_spi(TestHarness) public static var programmingErrorHandling: ProgrammingErrorHandling {
        get { handling.withLock { $0 } }
        set { handling.withLock { $0 = newValue } }
    }

    /// Reports a change of `what` to a model in use, as ``programmingErrorHandling`` says.
    static func refuseChange(of what: String, entityName: String?, key: String?) {
        reportProgrammingError("Can't modify an immutable model: the \(what) cannot change once the model is used by a coordinator (a container or a PersistentStoreCoordinator made with it). Finish the model before you hand it over.",
                               entityName: entityName, key: key)
    }

    /// Stops with `message`, or reports it as an `NSError`, as ``programmingErrorHandling`` says.
    static func reportProgrammingError(_ message: String, entityName: String?, key: String? = nil) {
        switch programmingErrorHandling {
        case .stop:
            fatalError(message)
        case .report(let report):
            report(PersistenceError(.coreData, message, entityName: entityName, key: key))
        }
    }

    /// Refuses a change of the model itself once it is in use.
    func mayChange(_ key: String) -> Bool {
        guard isFrozen else { return true }
        Self.refuseChange(of: "\(key) of the model", entityName: nil, key: nil)
        return false
    }
}
