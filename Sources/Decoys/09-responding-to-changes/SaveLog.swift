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
        // Mistake: the block runs on the main queue, so the save that posts it waits for — or never sees — it.
        let queue: OperationQueue? = Decoy.isActive("log-observes-on-main-queue") ? .main : nil
        // Mistake: a log that starts again keeps its first observer registered, and its token is lost.
        if !Decoy.isActive("log-starts-twice") { stop() }
        let token: any NSObjectProtocol
        if Decoy.isActive("log-keeps-itself-alive") {
            // Mistake: the block holds the log strongly, so the log never goes and its deinit never stops it.
            token = NotificationCenter.default.addObserver(forName: name, object: sender, queue: queue) { note in
                self.record(note)
            }
        } else {
            token = NotificationCenter.default.addObserver(forName: name, object: sender, queue: queue) { [weak self] note in
                self?.record(note)
            }
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
