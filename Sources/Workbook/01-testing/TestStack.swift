import Foundation
import KataSupport
import Persistence

/// A throw-away stack for tests: the Bookshelf model over a store that starts empty for every test, is never
/// shared with another stack, and leaves nothing on disk.
///
/// Lesson 1, katas 3–4: write `init(storeURL:)`. Check with `swift run lessons check 1`.
public final class TestStack {
    public let container: PersistentContainer

    /// Makes the container for ``BookshelfModel``, points it at a private in-memory store — or, for a test that
    /// needs a store file (one it reopens, say), at `storeURL` — and loads it, throwing the load error if there is
    /// one.
    public init(storeURL: URL? = nil) throws {
        throw KataNotDone(lesson: 1)
    }

    /// The main-queue context; tests run on the main thread, so they may use it directly.
    public var mainContext: ManagedObjectContext { container.viewContext }

    /// A private-queue context on the same store, for code under test that writes in the background.
    public func newBackgroundContext() -> ManagedObjectContext {
        container.newBackgroundContext()
    }
}
