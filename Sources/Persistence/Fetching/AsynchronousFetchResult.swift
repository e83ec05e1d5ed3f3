import Foundation

/// A running or finished ``AsynchronousFetchRequest`` (Core Data's `NSAsynchronousFetchResult`): returned by
/// `execute(_:)` at once, typed as ``PersistentStoreResult`` (cast it to this class, or to
/// ``PersistentStoreAsynchronousResult`` for its progress and ``PersistentStoreAsynchronousResult/cancel()``), and
/// handed to the completion block, typed, when the fetch is over.
///
/// ``finalResult`` and ``PersistentStoreAsynchronousResult/operationError`` are set on the context's queue just
/// before the completion block runs; read them there (or later on that queue).
public final class AsynchronousFetchResult<Result: FetchRequestResult>: PersistentStoreAsynchronousResult {
    /// The asynchronous request that was executed (as Core Data's, whose result hands back the
    /// `NSAsynchronousFetchRequest`; its own ``AsynchronousFetchRequest/fetchRequest`` is the fetch).
    public let fetchRequest: AsynchronousFetchRequest<Result>
    /// The fetched objects (or IDs), or `nil` while running and when the fetch failed or was cancelled.
    public internal(set) var finalResult: [Result]?

    /// The result of `request`, executed by `context`, reading with `progress`.
    init(fetchRequest: AsynchronousFetchRequest<Result>, context: ManagedObjectContext, progress: Progress) {
        self.fetchRequest = fetchRequest
        super.init(context: context, progress: progress)
    }
}
