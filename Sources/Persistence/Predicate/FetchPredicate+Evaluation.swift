extension FetchPredicate {
    /// Whether `object` satisfies the predicate, evaluated in memory with the same meaning as in a fetch, nil and
    /// type rules included — Core Data's `evaluate(with:)`. `object` is a managed object, or nil (every key
    /// path reads nil).
    ///
    /// A predicate that cannot be evaluated against `object` — an unknown key, a string compared with a number,
    /// `BEGINSWITH` on a number, a variable with no value, an object that is not a managed object — is a
    /// programming error: Core Data raises an exception, and this stops the program with the error's message
    /// unless ``programmingErrorHandling`` says otherwise. ``evaluate(checking:)`` throws the error instead.
    public func evaluate(with object: Any?) -> Bool {
        do {
            return try evaluate(checking: object)
        } catch {
            return Self.handleEvaluationError(error)
        }
    }

    /// Whether `object` satisfies the predicate, as ``evaluate(with:)`` answers, throwing what it would stop on.
    /// Persistence-only (Core Data raises an exception), so in the `PredicateParsing` SPI group with
    /// ``init(parsing:_:)``.
    ///
    /// - Throws: ``FetchPredicateError`` (`.evaluation`) when a value cannot be used as the predicate asks,
    ///   naming the key path, or when `object` is neither a managed object nor nil; and, unchanged, whatever
    ///   `object` throws for a key it does not have.
    @_spi(PredicateParsing) public func evaluate(checking object: Any?) throws -> Bool {
        let root: any PredicateEvaluable
        switch object {
        case let evaluable as any PredicateEvaluable: root = evaluable
        case nil: root = NothingToEvaluate()
        case let other?:
            throw FetchPredicateError(.evaluation, "a predicate evaluates managed objects and dictionary rows, not \(type(of: other))",
                                      format: predicateFormat)
        }
        do {
            return try PredicateEvaluator(root: root).evaluate(expression)
        } catch let failure as PredicateEvaluator.Failure {
            throw FetchPredicateError(.evaluation, failure.message, format: predicateFormat, keyPath: failure.keyPath)
        }
    }
}

/// What `evaluate(with: nil)` evaluates against: every key reads nil.
private struct NothingToEvaluate: PredicateEvaluable {
    func predicateValue(forKey key: String) throws -> PredicateValue { .value(.null) }
    var predicateObjectID: ManagedObjectID? { nil }
}
