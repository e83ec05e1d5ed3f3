/// Something whose keys a predicate reads in memory: a managed object, or a dictionary.
///
/// Internal: Core Data reads an object's values through key-value coding, which has no protocol to name.
///
/// `FetchPredicate.evaluate(with:)` reads values one key at a time through ``predicateValue(forKey:)``, following
/// key paths through the related objects it returns. ``PredicateObjectConvertible/predicateObjectID`` gives the
/// identity used by `SELF == %@`, `director == %@`, `%@ IN actors` and `actors CONTAINS %@`.
protocol PredicateEvaluable: PredicateObjectConvertible {
    /// The value of one key: an attribute's value, the related object of a to-one (`.value(.null)` when there is
    /// none), or the related objects of a to-many.
    ///
    /// - Throws: an error of the conformer's choosing for a key it does not have; evaluation passes it on unchanged.
    func predicateValue(forKey key: String) throws -> PredicateValue

    /// What the object is, for error messages: "object" unless the conformer says otherwise.
    var predicateKindName: String { get }
}

extension PredicateEvaluable {
    var predicateKindName: String { "object" }
}
