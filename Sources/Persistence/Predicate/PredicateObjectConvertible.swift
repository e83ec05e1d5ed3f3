/// A value that stands for a managed object when passed to a predicate: `FetchPredicate(format: "director == %@",
/// someDirector)` converts `someDirector` to its ``predicateObjectID`` when the predicate is made, so the predicate
/// keeps only the ID and stays `Sendable`.
///
/// `ManagedObject` conforms (internal, as ``PredicateEvaluable`` is). Objects compare by ID, so an object passed
/// before it was saved (a temporary ID) does not match the same object after saving, as in Core Data.
protocol PredicateObjectConvertible {
    /// The object's identity, or nil when the value has none (a dictionary row); passing a value whose ID is nil as
    /// an argument is an argument error.
    var predicateObjectID: ManagedObjectID? { get }
}
