/// A value that a predicate argument stands for as a plain constant, converted when the predicate is made (as
/// ``PredicateObjectConvertible`` turns an object into its ID): a ``PersistentHistoryToken`` is its transaction's
/// number, an ``EntityDescription`` its name in ``EntityDescription/predicateConstant``'s form. Only history
/// requests give these constants a meaning (`token > %@`, `changedEntity == %@`).
protocol PredicateConstantConvertible {
    var predicateConstant: PersistentValue { get }
}
