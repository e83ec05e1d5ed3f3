/// One question to ``ManagedObject/value(forUndefinedKey:)`` whose asker must know whether the class answered it or
/// the default implementation did — where Core Data's default raises `NSUnknownKeyException`, Persistence's answers
/// nil, which alone cannot tell "no such key" from "the value is nil".
///
/// The default implementation marks the lookup in force on this thread, if any; a fetched results controller puts
/// one in force around each question (``ManagedObject/answer(forUndefinedKey:)``) and nothing else pays for it.
// Unchecked Sendable: a lookup is made, marked and read on one thread, within one call.
final class UndefinedKeyLookup: @unchecked Sendable {
    /// The lookup in force: set by ``ManagedObject/answer(forUndefinedKey:)`` for the length of one question.
    @TaskLocal static var current: UndefinedKeyLookup?

    /// `true` once the default implementation was reached — by the question itself, or by a lookup the override
    /// made on the way (as a raised exception would end the whole question in Core Data).
    var reachedDefault = false
}
