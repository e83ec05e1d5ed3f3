import Foundation
import KataSupport
import Persistence

/// Keeps a container's view context current with the saves of other contexts: by hand, from one context's
/// did-save notifications, or automatically.
///
/// Lesson 9, katas 3–4. Check with `swift run lessons check 9`.
public final class ViewContextMerger {
    public let viewContext: ManagedObjectContext
    /// The did-save observer of ``mergeSaves(of:)``; ``stop()`` removes it.
    private var observer: (any NSObjectProtocol)?

    public init(container: PersistentContainer) {
        viewContext = container.viewContext
    }

    /// From now on, merges every save of `other` — and of no other context — into the view context, on the view
    /// context's queue. Keep the observer's token in `observer`. Called again, it must not merge each save twice;
    /// a merger its owner lets go must stop merging.
    public func mergeSaves(of other: ManagedObjectContext) throws {
        throw KataNotDone(lesson: 9)
    }

    /// From now on, the view context merges the saves of every other context on the same coordinator by itself.
    public func mergeAutomatically() throws {
        throw KataNotDone(lesson: 9)
    }

    /// Stops merging by hand.
    public func stop() {
        if let observer { NotificationCenter.default.removeObserver(observer) }
        observer = nil
    }

    deinit { stop() }
}
