import Synchronization

extension FetchPredicate {
    /// What ``FetchPredicate/init(format:_:)`` does with a format that does not parse.
    public enum MalformedFormatHandling: Sendable {
        /// Stop the program with the parser's message, as Core Data raises `NSInvalidArgumentException` for a
        /// malformed `NSPredicate(format:)`. The default.
        case stop
        /// Make a predicate that fails with the parser's error wherever it is used (a fetch throws it, evaluating
        /// throws it, ``FetchPredicate/predicateFormat`` shows it), after handing the error to `report`: for a
        /// test harness, which turns a mistake in the code under test into a failed test rather than a dead
        /// process. Not for apps: Core Data has no such mode.
        case failWhenUsed(report: @Sendable (FetchPredicateError) -> Void)
    }

    private static let handling = Mutex<MalformedFormatHandling>(.stop)

    /// What a malformed format given to ``FetchPredicate/init(format:_:)`` does, for the whole process: stop the
    /// program (the default) or fail where the predicate is used.
    public static var malformedFormatHandling: MalformedFormatHandling {
        get { handling.withLock { $0 } }
        set { handling.withLock { $0 = newValue } }
    }

    /// The tree a malformed format makes, as ``malformedFormatHandling`` says.
    static func handleMalformedFormat(_ error: FetchPredicateError) -> PredicateNode {
        switch malformedFormatHandling {
        case .stop:
            fatalError("FetchPredicate(format:) was given a malformed format (use FetchPredicate(parsing:) for a format that may be): \(error)")
        case .failWhenUsed(let report):
            report(error)
            return .malformed(MalformedFormat(error: error))
        }
    }
}
