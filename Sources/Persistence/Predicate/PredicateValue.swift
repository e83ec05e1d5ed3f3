/// A value a predicate meets while it is evaluated: the object or value it is evaluated with, or the value of one
/// key of a ``PredicateEvaluable``.
///
/// Not `Sendable`: it holds the objects themselves, which belong to one context. It exists only while a
/// predicate is being evaluated. ``init(converting:)`` makes one from any value `evaluate(with:)` is given.
enum PredicateValue {
    /// An attribute's value, or a plain value (a string, a number, a date…). A to-one relationship with no object
    /// is `.value(.null)`.
    case value(PersistentValue)
    /// The object of a to-one relationship, or an object whose keys a predicate reads (a managed object, a
    /// dictionary).
    case object(any PredicateEvaluable)
    /// The objects of a to-many relationship, in any order.
    case objects([any PredicateEvaluable])
    /// An array, set or ordered set that is not a relationship, element by element. A key read from it is read
    /// from each element, as key-value coding reads a key of an `NSArray`.
    case collection([PredicateValue])
    /// A value that has no keys to read and no kind a predicate compares — a Swift struct, enum or class of
    /// another type — known by its type's name. It is not nil, and that is all a predicate can learn of it.
    case opaque(typeName: String)

    /// A to-one relationship with no object (or a nil attribute): `.value(.null)`.
    static var null: PredicateValue { .value(.null) }
}
