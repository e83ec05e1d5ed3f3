import Foundation
import KataSupport
import Persistence

/// Lesson 13's ``DishSearchScreen`` with known mistakes (see `Decoy`).
public final class DishSearchScreen: @unchecked Sendable {
    public let context: ManagedObjectContext
    public let container: PersistentContainer
    public private(set) var results: [Dish] = []
    public var resultsDidChange: (() -> Void)?

    private var running: Progress?
    private lazy var searchContext = container.newBackgroundContext()

    public init(container: PersistentContainer) {
        self.container = container
        context = container.viewContext
    }

    @discardableResult
    public func search(_ text: String) throws -> Progress {
        // Mistake: an ordinary fetch on the main queue; the screen waits for it, and the progress is over at once.
        if Decoy.isActive("search-synchronous") {
            let dishes = try context.fetch(try DishSearch.fetchRequest(matching: text))
            results = dishes
            resultsDidChange?()
            let progress = Progress(totalUnitCount: Int64(dishes.count))
            progress.completedUnitCount = Int64(dishes.count)
            return progress
        }
        // Mistake: an ordinary fetch, put off until the main queue's next turn: search(_:) returns at once, but the
        // rows are then read on the main queue, which waits for them; the progress is completed by hand.
        if Decoy.isActive("search-deferred-synchronous") {
            running?.cancel()
            let own = Progress(totalUnitCount: 1)
            nonisolated(unsafe) let matching = try DishSearch.fetchRequest(matching: text)
            DispatchQueue.main.async { [weak self] in
                guard let self, !own.isCancelled, let dishes = try? self.context.fetch(matching) else { return }
                own.completedUnitCount = 1
                self.results = dishes
                self.resultsDidChange?()
            }
            running = own
            return own
        }
        // Mistake: a real asynchronous fetch, but the screen's progress was never current while it started: it is
        // completed by hand in the completion, and cancelling it never reaches the fetch.
        if Decoy.isActive("search-progress-completed-by-hand") {
            running?.cancel()
            let own = Progress(totalUnitCount: 1)
            let matching = try DishSearch.fetchRequest(matching: text)
            let request = AsynchronousFetchRequest(fetchRequest: matching) { [weak self] result in
                guard let self, !own.isCancelled, let dishes = result.finalResult else { return }
                own.completedUnitCount = 1
                self.results = dishes
                self.resultsDidChange?()
            }
            _ = try context.execute(request)
            running = own
            return own
        }
        // Mistake: the search still running goes on, and its late answer replaces the newer one.
        if !Decoy.isActive("search-keeps-previous") { running?.cancel() }
        let progress = Progress(totalUnitCount: 1)
        let matching = try DishSearch.fetchRequest(matching: text)
        let request = AsynchronousFetchRequest(fetchRequest: matching) { [weak self] result in
            guard let self else { return }
            // Mistake: a cancelled search empties the list and reports it as new results.
            if Decoy.isActive("cancelled-search-clears-results") {
                self.results = result.finalResult ?? []
                self.resultsDidChange?()
                return
            }
            // Mistake: only a missing finalResult is taken for a cancelled search; a fetch that had read its rows
            // before the cancel reached it still brings its dishes, and they replace the newer search's.
            if Decoy.isActive("search-ignores-own-cancel") {
                guard let dishes = result.finalResult else { return }
                self.results = dishes
                self.resultsDidChange?()
                return
            }
            guard !progress.isCancelled, let dishes = result.finalResult else { return }
            self.results = dishes
            self.resultsDidChange?()
        }
        // Mistake: a progress of the screen's own, never made current, so the fetch's progress is not its child.
        if Decoy.isActive("search-progress-detached") {
            let own = Progress(totalUnitCount: 1)
            running = (try context.execute(request) as? PersistentStoreAsynchronousResult)?.progress
            return own
        }
        // Mistake: the screen returns the fetch's own progress. No progress is current, so on Apple's platforms (and
        // here) the result has none, and the stand-in never moves.
        if Decoy.isActive("search-returns-fetch-progress") {
            let result = try context.execute(request) as? PersistentStoreAsynchronousResult
            let fetchProgress = result?.progress ?? Progress(totalUnitCount: 1)
            running = fetchProgress
            return fetchProgress
        }
        progress.becomeCurrent(withPendingUnitCount: 1)
        defer { progress.resignCurrent() }
        _ = try context.execute(request)
        running = progress
        return progress
    }

    public func cancelSearch() {
        // Mistake: the screen forgets the search but does not cancel it.
        if !Decoy.isActive("cancel-forgets-only") { running?.cancel() }
        running = nil
    }

    @discardableResult
    public func searchInBackground(_ text: String) throws -> Progress {
        // Mistake: the search runs in the view context after all, which materialises every dish on the main queue.
        if Decoy.isActive("background-search-on-view-context") { return try search(text) }
        // Mistake: the search still running goes on, and its late answer replaces the newer one.
        if !Decoy.isActive("background-keeps-previous") { running?.cancel() }
        let dishes = try DishSearch.fetchRequest(matching: text)
        let ids = FetchRequest<ManagedObjectID>(entityName: "Dish")
        ids.resultType = .managedObjectIDResultType
        ids.predicate = dishes.predicate
        ids.sortDescriptors = dishes.sortDescriptors

        let background = searchContext
        // Mistake: an ordinary fetch of the IDs on the background queue, and a progress of the screen's own that is
        // completed by hand when the results reach the main queue: it says nothing while the rows are read, and
        // cancelling it cannot stop the read.
        if Decoy.isActive("background-sync-fetch-progress-by-hand") {
            let own = Progress(totalUnitCount: 1)
            nonisolated(unsafe) let request = ids
            let reader = background
            background.perform { [weak self] in
                guard let self, let found = try? reader.fetch(request) else { return }
                self.context.perform {
                    guard !own.isCancelled else { return }
                    own.completedUnitCount = 1
                    self.results = found.compactMap { self.context.object(with: $0) as? Dish }
                    self.resultsDidChange?()
                }
            }
            running = own
            return own
        }
        // Mistake: the background context's objects are fetched and handed to the main queue as they are.
        if Decoy.isActive("background-objects-to-main") {
            return try background.performAndWait {
                let request = AsynchronousFetchRequest(fetchRequest: dishes) { [weak self] result in
                    guard let self, let found = result.finalResult else { return }
                    nonisolated(unsafe) let objects = found
                    self.context.perform {
                        self.results = objects
                        self.resultsDidChange?()
                    }
                }
                let result = try background.execute(request) as? PersistentStoreAsynchronousResult
                return result?.progress ?? Progress(totalUnitCount: 1)
            }
        }
        let progress = Progress(totalUnitCount: 1)
        let request = AsynchronousFetchRequest(fetchRequest: ids) { [weak self] result in
            guard let self, let found = result.finalResult else { return }
            // Mistake: the results are set on the background context's queue, not on the main queue.
            if Decoy.isActive("background-results-off-main") {
                self.results = found.compactMap { self.context.object(with: $0) as? Dish }
                self.resultsDidChange?()
                return
            }
            self.context.perform {
                // Mistake: the main-queue block does not ask whether its search was cancelled meanwhile.
                if !Decoy.isActive("background-ignores-own-cancel") {
                    guard !progress.isCancelled else { return }
                }
                // Mistake: each ID is checked against the store on the main queue — a fetch per dish — instead of
                // becoming a fault the screen fills when it shows the dish.
                if Decoy.isActive("background-existing-object-per-id") {
                    self.results = found.compactMap { try? self.context.existingObject(with: $0) as? Dish }
                } else {
                    self.results = found.compactMap { self.context.object(with: $0) as? Dish }
                }
                self.resultsDidChange?()
            }
        }
        // Mistake: the request is executed on the calling (main) queue, outside the background context's queue.
        if Decoy.isActive("background-execute-off-queue") {
            let result = try background.execute(request) as? PersistentStoreAsynchronousResult
            let progress = result?.progress ?? Progress(totalUnitCount: 1)
            running = progress
            return progress
        }
        try background.performAndWait {
            progress.becomeCurrent(withPendingUnitCount: 1)
            defer { progress.resignCurrent() }
            _ = try background.execute(request)
        }
        running = progress
        return progress
    }
}
