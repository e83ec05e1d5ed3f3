import Foundation

/// A running or finished ``AsynchronousFetchRequest`` (Core Data's `NSAsynchronousFetchResult`): returned by
/// `execute` at once, and handed to the completion block when the fetch is over.
///
/// ``finalResult`` and ``operationError`` are set on the context's queue just before the completion block runs;
/// read them there (or later on that queue). ``progress`` and ``cancel()`` may be used from any thread.
public final class AsynchronousFetchResult<Result>: PersistentStoreResult, @unchecked Sendable {
    /// The request's fetch request.
    public let fetchRequest: FetchRequest<Result>
    /// Rows read so far (`completedUnitCount`) of the rows that match (`totalUnitCount`, -1 until counted);
    /// cancel it to stop the fetch.
    ///
    /// The reading queue updates it while it holds the store, since the rows come from one read of one snapshot:
    /// whatever runs on its updates (a parent progress's handlers, key-value observers on Apple platforms) must not
    /// wait on the same coordinator. Read it from elsewhere, or hand the work to another queue.
    public let progress: Progress
    /// The fetched objects (or IDs), or `nil` while running and when the fetch failed or was cancelled.
    public internal(set) var finalResult: [Result]?
    /// Why there is no ``finalResult``: the store's error, or ``PersistenceError/Code/userCancelled``.
    public internal(set) var operationError: (any Error)?

    init(fetchRequest: FetchRequest<Result>, progress: Progress) {
        self.fetchRequest = fetchRequest
        self.progress = progress
    }

    /// Stops the fetch, if it is still running: the completion block gets a cancellation error and no objects.
    public func cancel() {
        progress.cancel()
    }
}
