/// The value of one key of a ``PredicateEvaluable``.
///
/// Not `Sendable`: it holds the objects themselves, which belong to one context. It exists only while a
/// predicate is being evaluated.
enum PredicateValue {
    /// An attribute's value. A to-one relationship with no object is `.value(.null)`.
    case value(PersistentValue)
    /// The object of a to-one relationship.
    case object(any PredicateEvaluable)
    /// The objects of a to-many relationship, in any order.
    case objects([any PredicateEvaluable])

    /// A to-one relationship with no object (or a nil attribute): `.value(.null)`.
    static var null: PredicateValue { .value(.null) }
}
