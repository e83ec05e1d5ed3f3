import Synchronization

extension FetchPredicate {
    /// What a predicate does with a programmer's mistake that Core Data raises an exception for: a malformed format
    /// given to ``FetchPredicate/init(format:_:)``, a variable ``FetchPredicate/withSubstitutionVariables(_:)`` has
    /// no fitting value for, or a predicate that cannot be evaluated against the object given
    /// to ``FetchPredicate/evaluate(with:)`` (an unknown key, a string compared with a number).
    @_spi(TestHarness) public enum ProgrammingErrorHandling: Sendable {
        /// Stop the program with the error's message, as Core Data's exception (`NSInvalidArgumentException`,
        /// `NSUnknownKeyException`) stops an app. The default.
        case stop
        /// Hand the error to `report` and go on: a malformed format makes a predicate that fails with the parser's
        /// error wherever it is used (a fetch throws it, ``FetchPredicate/predicateFormat`` shows it), and
        /// `evaluate(with:)` answers `false`. For a test harness, which turns a mistake in the code under test into
        /// a failed test rather than a dead process. Not for apps: Core Data has no such mode.
        case report(@Sendable (FetchPredicateError) -> Void)
    }

    private static let handling = Mutex<ProgrammingErrorHandling>(.stop)

    /// What programming errors in predicates do, for the whole process: stop the program (the default) or be
    /// reported and fail where the predicate is used.
    @_spi(TestHarness) public static var programmingErrorHandling: ProgrammingErrorHandling {
        get { handling.withLock { $0 } }
        set { handling.withLock { $0 = newValue } }
    }

    /// The tree a malformed format makes, as ``programmingErrorHandling`` says.
    static func handleMalformedFormat(_ error: FetchPredicateError) -> PredicateNode {
        malformedNode(error, stoppingWith: "FetchPredicate(format:) was given a malformed format (use FetchPredicate(parsing:) for a format that may be)")
    }

    /// The tree a failed substitution makes, as ``programmingErrorHandling`` says.
    static func handleSubstitutionError(_ error: FetchPredicateError) -> PredicateNode {
        malformedNode(error, stoppingWith: "FetchPredicate.withSubstitutionVariables(_:) could not substitute the variables (use withSubstitutionVariables(checking:) to get the error instead)")
    }

    /// Stops with `message` and the error, or reports the error and makes a tree that fails with it wherever the
    /// predicate is used.
    private static func malformedNode(_ error: FetchPredicateError, stoppingWith message: String) -> PredicateNode {
        switch programmingErrorHandling {
        case .stop:
            fatalError("\(message): \(error)")
        case .report(let report):
            report(error)
            return .malformed(MalformedFormat(error: error))
        }
    }

    /// What `evaluate(with:)` answers after `error`, as ``programmingErrorHandling`` says.
    static func handleEvaluationError(_ error: any Error) -> Bool {
        let reported = error as? FetchPredicateError ?? FetchPredicateError(.evaluation, "\(error)")
        switch programmingErrorHandling {
        case .stop:
            fatalError("FetchPredicate.evaluate(with:) could not evaluate the predicate (use evaluate(checking:) to get the error instead): \(reported)")
        case .report(let report):
            report(reported)
            return false
        }
    }
}
