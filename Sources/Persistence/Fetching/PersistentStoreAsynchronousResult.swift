import Foundation

/// The result of a request that runs on after `execute(_:)` returns (Core Data's
/// `NSPersistentStoreAsynchronousResult`): the base of ``AsynchronousFetchResult``, with what does not depend on the
/// fetch's result type — its context, its progress, its error, and ``cancel()``.
///
/// ``operationError`` is set on the context's queue; read it there. ``progress`` and ``cancel()`` may be used from
/// any thread.
public class PersistentStoreAsynchronousResult: PersistentStoreResult {
    /// The context that executed the request, on whose queue the request finishes. The result holds it, so the
    /// context lives at least as long as the fetch.
    public let managedObjectContext: ManagedObjectContext
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
    /// Why the request produced nothing: the store's error, or `CocoaError.Code.userCancelled`; `nil` while
    /// running and after success.
    public internal(set) var operationError: (any Error)?
    /// The request's own count of rows and its cancellation, whether or not ``progress`` hands it out.
    let readProgress: Progress

    /// A result of `context` reading with `progress`, which it hands out only when a progress is current on this
    /// thread (the one `progress` was then made a child of, by `Progress(totalUnitCount:)`).
    init(context: ManagedObjectContext, progress: Progress) {
        managedObjectContext = context
        readProgress = progress
        self.progress = Progress.current() == nil ? nil : progress
    }

    /// Whether ``cancel()`` (or a cancelled parent progress) stopped the request.
    var isCancelled: Bool { readProgress.isCancelled }

    /// Stops the request, if it is still running: the completion block gets a cancellation error and no objects.
    public func cancel() {
        readProgress.cancel()
    }
}
