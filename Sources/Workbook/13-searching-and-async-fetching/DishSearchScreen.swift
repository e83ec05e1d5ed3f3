import Foundation
import KataSupport
import Persistence

/// The search screen of a cookbook app, on the container's main-queue context. Each search must run as an
/// asynchronous fetch with a progress; a new search, or closing the screen, must cancel the one still running.
///
/// `@unchecked Sendable` so that blocks for the main queue may capture it: its state is read and written on the
/// main queue only, the queue of its context.
///
/// Lesson 13, katas 4–6. Check with `swift run lessons check 13`.
public final class DishSearchScreen: @unchecked Sendable {
    /// The screen's context: the container's `viewContext` (main queue).
    public let context: ManagedObjectContext
    /// The container, for a context of the screen's own that searches in the background.
    public let container: PersistentContainer
    /// The dishes the screen shows, objects of ``context``, as of the last search that finished.
    public private(set) var results: [Dish] = []
    /// Called on the main queue each time ``results`` changes.
    public var resultsDidChange: (() -> Void)?

    public init(container: PersistentContainer) {
        self.container = container
        context = container.viewContext
    }

    /// Katas 4 and 5: start searching for the dishes matching `text` (``DishSearch/fetchRequest(matching:)``) and
    /// return at once with the search's progress; when the fetch is done, replace ``results`` on the main queue and
    /// call ``resultsDidChange``. A search still running is cancelled first, and a cancelled search changes nothing.
    @discardableResult
    public func search(_ text: String) throws -> Progress {
        throw KataNotDone(lesson: 13)
    }

    /// Kata 5: stop the search still running, if any (the user closed the screen); ``results`` stay as they are.
    public func cancelSearch() {
        // Kata 5: nothing is cancelled yet.
    }

    /// Kata 6: like ``search(_:)``, but the fetch runs in a background context of the screen's own, and only
    /// object IDs come back to the main queue, where ``results`` become objects of ``context``.
    @discardableResult
    public func searchInBackground(_ text: String) throws -> Progress {
        throw KataNotDone(lesson: 13)
    }
}
