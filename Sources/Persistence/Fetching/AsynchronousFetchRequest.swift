import Foundation

/// A fetch that runs away from the context's queue and hands its results back on it, with a Foundation
/// `Progress` to watch and cancel (Core Data's `NSAsynchronousFetchRequest`).
///
/// ```swift
/// let request = AsynchronousFetchRequest(fetchRequest: Movie.fetchRequest()) { result in
///     // On the context's queue.
///     if let movies = result.finalResult { show(movies) } else { report(result.operationError) }
/// }
/// let loading = Progress(totalUnitCount: 1)
/// loading.becomeCurrent(withPendingUnitCount: 1)   // the fetch's progress becomes its child
/// let running = try context.execute(request)
/// loading.resignCurrent()
/// loading.fractionCompleted                        // moves as the rows are read
/// loading.cancel()                                 // the completion then gets error 3072 and no objects
/// ```
///
/// - `execute` checks the request (entity, keys, predicate, result type) and throws at once if it is wrong;
///   otherwise it returns immediately. The store is read on a background queue; errors found there arrive as
///   ``PersistentStoreAsynchronousResult/operationError``.
/// - ``PersistentStoreAsynchronousResult/progress`` is there only when a `Progress` was current on the calling
///   thread while `execute` ran, and is then that progress's child (Foundation's implicit progress tree); otherwise
///   it is `nil`, as in Core Data. It counts rows: its total is the number of matching rows, and its completed count
///   grows while they stream in.
/// - The completion block runs on the context's queue. The objects in ``AsynchronousFetchResult/finalResult``
///   are registered in the executing context, one per ID as always, exactly as ``ManagedObjectContext/fetch(_:)``
///   would return them — unsaved changes of the context (and of its parents, for a child context) included, and
///   read from the context's query generation when it is pinned to one.
/// - Cancelling (``PersistentStoreAsynchronousResult/cancel()``, the result's progress, or the current progress it
///   is a child of) before the completion runs stops the read; the completion gets
///   `CocoaError.Code.userCancelled` and no object is registered.
/// - Result types: managed objects and object IDs. Dictionary and count results are refused (use `fetch(_:)`).
public final class AsynchronousFetchRequest<Result: FetchRequestResult>: PersistentStoreRequest, CustomStringConvertible {
    /// Called once, on the context's queue, with the finished (or failed, or cancelled) result.
    public typealias CompletionBlock = (AsynchronousFetchResult<Result>) -> Void

    /// What to fetch.
    public let fetchRequest: FetchRequest<Result>
    /// Runs once, on the context's queue, when the fetch is over.
    public let completionBlock: CompletionBlock?

    public var requestType: PersistentStoreRequestType { .fetchRequestType }

    /// Called on the reading queue after each progress update (every ``rowsPerProgressUpdate`` rows and at the
    /// end): lets tests watch the rows stream and cancel at a known point.
    var progressObserver: (@Sendable (Progress) -> Void)?

    /// How many rows are read between two progress updates: often enough to move a progress bar smoothly, rarely
    /// enough that `Progress`'s locking costs nothing next to reading the rows.
    static var rowsPerProgressUpdate: Int { 64 }

    /// A request that runs `fetchRequest` and hands the result to `completionBlock` on the context's queue.
    public init(fetchRequest: FetchRequest<Result>, completionBlock: CompletionBlock? = nil) {
        self.fetchRequest = fetchRequest
        self.completionBlock = completionBlock
    }

    public var description: String { "AsynchronousFetchRequest(\(fetchRequest))" }
}

/// Lets the untyped `execute(_:)` start an asynchronous fetch whatever its `Result`.
protocol AsynchronousFetchStarting {
    func start(in context: ManagedObjectContext) throws -> PersistentStoreResult
}

extension AsynchronousFetchRequest: AsynchronousFetchStarting {
    func start(in context: ManagedObjectContext) throws -> PersistentStoreResult {
        try context.startAsynchronousFetch(self)
    }
}
