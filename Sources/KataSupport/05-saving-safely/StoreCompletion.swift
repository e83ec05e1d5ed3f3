/// How a store that works on its own queue reports the end of an insert or a delete: nil when the change was saved,
/// the error otherwise. It is called on the store's queue.
public typealias StoreCompletion = @Sendable ((any Error)?) -> Void
