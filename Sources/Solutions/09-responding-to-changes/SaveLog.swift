import Foundation
import Persistence

/// Collects the object IDs of one context's saves: what it inserted, updated and deleted, and how many saves
/// there were. The did-save notification arrives on the saving context's queue, so the sets are guarded by a lock
/// and may be read from any thread.
public final class SaveLog: @unchecked Sendable {
    /// The context whose saves are collected.
    public let context: ManagedObjectContext
    private let lock = NSLock()
    private var collected = (inserted: Set<ManagedObjectID>(), updated: Set<ManagedObjectID>(),
                             deleted: Set<ManagedObjectID>(), saves: 0)
    /// The token `addObserver(forName:object:queue:using:)` returned; ``stop()`` hands it back.
    private var observer: (any NSObjectProtocol)?

    public init(observing context: ManagedObjectContext) {
        self.context = context
    }

    public var inserted: Set<ManagedObjectID> { lock.withLock { collected.inserted } }
    public var updated: Set<ManagedObjectID> { lock.withLock { collected.updated } }
    public var deleted: Set<ManagedObjectID> { lock.withLock { collected.deleted } }
    /// How many saves were collected.
    public var saves: Int { lock.withLock { collected.saves } }

    // region: start
    /// Starts collecting the saves of ``context`` — of that context only. Starting again replaces the observer.
    public func start() throws {
        stop()                                // a second observer would count every save twice
        observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification,
            object: context,                  // nil would mean: every context that saves, of any store
            queue: nil                        // run the block at once, on the saving context's queue
        ) { [weak self] note in               // weak: the log may go, and its deinit removes this observer
            self?.record(note)
        }
    }
    // endregion: start

    private func record(_ note: Notification) {
        let (inserted, updated, deleted) = (note.insertedObjectIDs, note.updatedObjectIDs, note.deletedObjectIDs)
        lock.withLock {
            collected.inserted.formUnion(inserted)
            collected.updated.formUnion(updated)
            collected.deleted.formUnion(deleted)
            collected.saves += 1
        }
    }

    /// Stops collecting. A block observer stays registered until its token is removed.
    public func stop() {
        if let observer { NotificationCenter.default.removeObserver(observer) }
        observer = nil
    }

    deinit { stop() }
}
