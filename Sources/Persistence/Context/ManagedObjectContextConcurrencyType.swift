/// The queue a context works on, as ``ManagedObjectContext/concurrencyType`` reports it and
/// ``ManagedObjectContext/init(concurrencyType:)`` takes it: Core Data's `NSManagedObjectContextConcurrencyType`,
/// with its raw values. Core Data's third case, `confinementConcurrencyType`, deprecated since iOS 9, is not here.
public enum ManagedObjectContextConcurrencyType: UInt, Sendable {
    /// A private serial queue of the context's own; every use goes through `perform` or `performAndWait`.
    case privateQueueConcurrencyType = 1
    /// The main queue; use the context from the main thread.
    case mainQueueConcurrencyType = 2
}
