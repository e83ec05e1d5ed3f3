import Foundation

/// A running or finished ``AsynchronousFetchRequest`` (Core Data's `NSAsynchronousFetchResult`): returned by
/// `execute` at once, and handed to the completion block when the fetch is over.
///
/// ``finalResult`` and ``operationError`` are set on the context's queue just before the completion block runs;
/// read them there (or later on that queue). ``progress`` and ``cancel()`` may be used from any thread.
public final class AsynchronousFetchResult<Result>: PersistentStoreResult, @unchecked Sendable {
    /// The asynchronous request that was executed (as Core Data's, whose result hands back the
    /// `NSAsynchronousFetchRequest`; its own ``AsynchronousFetchRequest/fetchRequest`` is the fetch).
    public let fetchRequest: AsynchronousFetchRequest<Result>
    /// The fetch's progress, when a `Progress` was current on the calling thread as the request executed (it is
    /// then that progress's child); `nil` otherwise — as in Core Data, whose `progress` is optional and is there
    /// only under a current progress. Rows read so far (`completedUnitCount`) of the rows that match
    /// (`totalUnitCount`, -1 until counted); cancel it to stop the fetch.
    ///
    /// To watch a fetch, make a progress of your own current around `execute` and keep that one: it moves when the
    /// fetch's does, and cancelling it cancels the fetch.
    ///
    /// The reading queue updates it while it holds the store, since the rows come from one read of one snapshot:
    /// whatever runs on its updates (a parent progress's handlers, key-value observers on Apple platforms) must not
    /// wait on the same coordinator. Read it from elsewhere, or hand the work to another queue.
    public let progress: Progress?
    /// The fetch's own count of rows and its cancellation, whether or not ``progress`` hands it out.
    let readProgress: Progress
    /// The fetched objects (or IDs), or `nil` while running and when the fetch failed or was cancelled.
    public internal(set) var finalResult: [Result]?
    /// Why there is no ``finalResult``: the store's error, or ``PersistenceError/Code/userCancelled``.
    public internal(set) var operationError: (any Error)?

    /// A result reading with `progress`, which it hands out only when a progress is current on this thread (the
    /// one `progress` was then made a child of, by `Progress(totalUnitCount:)`).
    init(fetchRequest: AsynchronousFetchRequest<Result>, progress: Progress) {
        self.fetchRequest = fetchRequest
        readProgress = progress
        self.progress = Progress.current() == nil ? nil : progress
    }

    /// Whether ``cancel()`` (or a cancelled parent progress) stopped the fetch.
    var isCancelled: Bool { readProgress.isCancelled }

    /// Stops the fetch, if it is still running: the completion block gets a cancellation error and no objects.
    public func cancel() {
        readProgress.cancel()
    }
}
