import Foundation
import Persistence

/// Lesson 9's ``SaveLog`` with known mistakes (see `Decoy`).
public final class SaveLog: @unchecked Sendable {
    public let context: ManagedObjectContext
    private let lock = NSLock()
    private var collected = (inserted: Set<ManagedObjectID>(), updated: Set<ManagedObjectID>(),
                             deleted: Set<ManagedObjectID>(), saves: 0)
    private var observer: (any NSObjectProtocol)?

    public init(observing context: ManagedObjectContext) {
        self.context = context
    }

    public var inserted: Set<ManagedObjectID> { lock.withLock { collected.inserted } }
    public var updated: Set<ManagedObjectID> { lock.withLock { collected.updated } }
    public var deleted: Set<ManagedObjectID> { lock.withLock { collected.deleted } }
    public var saves: Int { lock.withLock { collected.saves } }

    public func start() throws {
        // Mistake: did-change is posted before each save, while new objects have temporary IDs.
        let name = Decoy.isActive("log-observes-did-change") ? ManagedObjectContext.didChangeObjectsNotification
            : ManagedObjectContext.didSaveObjectsNotification
        // Mistake: nil observes every context that saves.
        let sender: ManagedObjectContext? = Decoy.isActive("log-observes-every-context") ? nil : context
        let token = NotificationCenter.default.addObserver(forName: name, object: sender, queue: nil) { [weak self] note in
            self?.record(note)
        }
        // Mistake: the token is dropped, so stop() has nothing to remove.
        if !Decoy.isActive("log-drops-observer-token") { observer = token }
    }

    private func record(_ note: Notification) {
        let (inserted, updated, deleted) = (note.insertedObjectIDs, note.updatedObjectIDs, note.deletedObjectIDs)
        lock.withLock {
            collected.inserted.formUnion(inserted)
            collected.updated.formUnion(updated)
            collected.deleted.formUnion(deleted)
            collected.saves += 1
        }
    }

    public func stop() {
        if let observer { NotificationCenter.default.removeObserver(observer) }
        observer = nil
    }

    deinit { stop() }
}
