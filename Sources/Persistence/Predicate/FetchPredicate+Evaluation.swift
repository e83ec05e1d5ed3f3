extension FetchPredicate {
    /// Whether `object` satisfies the predicate, evaluated in memory with the same meaning as in a fetch, nil and
    /// type rules included — Core Data's `evaluate(with:)`.
    ///
    /// One difference from a fetch's store, as in Core Data: here a comparison with nil (`rating >= 5` for an object
    /// with no rating) is false and its `NOT` true, while the store's SQL leaves both unknown and leaves the object
    /// out. A fetch evaluates the context's unsaved objects this way too. A case of its own for nil
    /// (`rating == nil OR NOT (rating >= 5)`) answers the same everywhere.
    ///
    /// As NSPredicate, it takes any value whose keys key-value coding can read, and plain values for `SELF`:
    /// - a managed object;
    /// - a dictionary (`[String: Any]`, `NSDictionary`): a key path reads its entries, nested dictionaries and the
    ///   managed objects in them included; a key it does not hold reads nil;
    /// - an array or a set (`[Any]`, `Set`, `NSArray`, `NSSet`, `NSOrderedSet`): `SELF CONTAINS x`, `x IN SELF`,
    ///   `ANY SELF > 3`, `SELF.@count`, `SELF.@sum.self`, and a key read from each element (`ANY SELF.name == 'x'`);
    /// - a plain value for `SELF`: a string (`SELF MATCHES '[A-Z]{2}'`), a number of any type or `NSNumber`, a
    ///   Boolean, a date, data, a UUID, a URL, a decimal or `NSDecimalNumber`;
    /// - nil or `NSNull`: `SELF` is nil, and so is every key path.
    ///
    /// ```swift
    /// let codes = ["NO", "se", "DK"].filter { FetchPredicate(format: "SELF MATCHES %@", "[A-Z]{2}").evaluate(with: $0) }
    /// let adults = people.filter { FetchPredicate(format: "age >= 18 AND address.city == %@", "Oslo").evaluate(with: $0) }
    /// ```
    ///
    /// A predicate that cannot be evaluated against `object` — an unknown key of a managed object, a string compared
    /// with a number, `BEGINSWITH` on a number, a variable with no value, a key read from a value that has none (a
    /// string, or a Swift struct: Apple raises `NSUnknownKeyException`, as key-value coding cannot read it) — is a
    /// programming error: Core Data raises an exception, and this stops the program with the error's message unless
    /// ``programmingErrorHandling`` says otherwise. ``evaluate(checking:)`` throws the error instead.
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
    /// - Throws: ``FetchPredicateError`` (`.evaluation`) when a value cannot be used as the predicate asks, naming
    ///   the key path — also when a key is read from a value that has no keys, naming its type and the key; and,
    ///   unchanged, whatever a managed object throws for a key its entity does not have.
    @_spi(PredicateParsing) public func evaluate(checking object: Any?) throws -> Bool {
        do {
            return try PredicateEvaluator(root: PredicateValue(converting: object)).evaluate(expression)
        } catch let failure as PredicateEvaluator.Failure {
            throw FetchPredicateError(.evaluation, failure.message, format: predicateFormat, keyPath: failure.keyPath)
        }
    }
}
