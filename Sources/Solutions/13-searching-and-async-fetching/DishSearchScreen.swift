import Foundation
import KataSupport
import Persistence

/// The search screen of a cookbook app, on the container's main-queue context. Each search runs as an asynchronous
/// fetch, so the screen stays responsive and can show its progress; a new search, or closing the screen, cancels
/// the one still running, so a slow, stale answer never replaces a newer one.
///
/// `@unchecked Sendable` so that blocks for the main queue may capture it: its state is read and written on the
/// main queue only, the queue of its context.
public final class DishSearchScreen: @unchecked Sendable {
    /// The screen's context: the container's `viewContext` (main queue).
    public let context: ManagedObjectContext
    /// The container, for a context of the screen's own that searches in the background.
    public let container: PersistentContainer
    /// The dishes the screen shows, objects of ``context``, as of the last search that finished.
    public private(set) var results: [Dish] = []
    /// Called on the main queue each time ``results`` changes.
    public var resultsDidChange: (() -> Void)?

    /// The progress of the search still running, if any: cancelling it stops that search.
    private var running: Progress?
    /// The background context ``searchInBackground(_:)`` fetches in. The screen keeps it: a context that is gone
    /// has no queue to run a completion on, so its fetches would never report back.
    private lazy var searchContext = container.newBackgroundContext()

    public init(container: PersistentContainer) {
        self.container = container
        context = container.viewContext
    }

    // region: search
    /// Starts searching for the dishes matching `text` and returns at once with the search's progress; the results
    /// replace ``results`` on the main queue when the fetch is done. A search still running is cancelled first.
    @discardableResult
    public func search(_ text: String) throws -> Progress {
        running?.cancel()                       // it stops, or its answer is ignored (see below)
        let matching = try DishSearch.fetchRequest(matching: text)
        // A progress of the screen's own, current while the request executes: the fetch's progress becomes its
        // child. (On Apple platforms the result's `progress` is nil unless a progress is current at that moment.)
        let progress = Progress(totalUnitCount: 1)
        let request = AsynchronousFetchRequest(fetchRequest: matching) { [weak self] result in
            // On the context's queue: the main queue, for the viewContext. A fetch that had read all its rows
            // before its search was cancelled has left the progress tree and still brings its dishes: the
            // screen's own progress says whether they are still wanted.
            guard let self, !progress.isCancelled, let dishes = result.finalResult else { return }
            self.results = dishes
            self.resultsDidChange?()
        }
        progress.becomeCurrent(withPendingUnitCount: 1)
        defer { progress.resignCurrent() }
        _ = try context.execute(request)
        running = progress
        return progress
    }
    // endregion: search

    // region: cancel-search
    /// Stops the search still running, if any (the user closed the screen): ``results`` stay as they are.
    public func cancelSearch() {
        running?.cancel()
        running = nil
    }
    // endregion: cancel-search

    // region: search-in-background
    /// Like ``search(_:)``, but the fetch runs in a background context of the screen's own, which hands only object
    /// IDs to the main queue: the screen's context then registers the dishes lazily, as faults, instead of
    /// materialising every match on the main queue when the fetch completes.
    @discardableResult
    public func searchInBackground(_ text: String) throws -> Progress {
        running?.cancel()
        let dishes = try DishSearch.fetchRequest(matching: text)
        let ids = FetchRequest<ManagedObjectID>(entityName: "Dish")
        ids.resultType = .managedObjectIDResultType
        ids.predicate = dishes.predicate
        ids.sortDescriptors = dishes.sortDescriptors

        let background = searchContext
        let progress = Progress(totalUnitCount: 1)
        try background.performAndWait {
            let request = AsynchronousFetchRequest(fetchRequest: ids) { [weak self] result in
                // On the background context's queue: no place to touch the screen or its context.
                guard let self, let found = result.finalResult else { return }
                self.context.perform {              // only the IDs cross to the main queue
                    guard !progress.isCancelled else { return }     // a newer search replaced this one
                    self.results = found.compactMap { self.context.object(with: $0) as? Dish }
                    self.resultsDidChange?()
                }
            }
            // Current on the thread that executes the request: the background context's queue.
            progress.becomeCurrent(withPendingUnitCount: 1)
            defer { progress.resignCurrent() }
            _ = try background.execute(request)
        }
        running = progress
        return progress
    }
    // endregion: search-in-background
}
