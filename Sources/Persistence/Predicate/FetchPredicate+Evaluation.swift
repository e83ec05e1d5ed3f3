extension FetchPredicate {
    /// Whether `object` satisfies the predicate, evaluated in memory with the same meaning as in a fetch, nil and
    /// type rules included.
    ///
    /// - Throws: ``FetchPredicateError`` (`.evaluation`) when a value cannot be used as the predicate asks —
    ///   comparing a string with a number, `BEGINSWITH` on a number, a variable with no value — naming the key
    ///   path; and, unchanged, whatever `object` throws for a key it does not have.
    public func evaluate(with object: any PredicateEvaluable) throws -> Bool {
        do {
            return try PredicateEvaluator(root: object).evaluate(expression)
        } catch let failure as PredicateEvaluator.Failure {
            throw FetchPredicateError(.evaluation, failure.message, format: predicateFormat, keyPath: failure.keyPath)
        }
    }
}
