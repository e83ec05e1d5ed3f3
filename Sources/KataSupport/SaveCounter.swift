import Foundation
import Persistence

/// Counts the did-save notifications of every context: what the examples of lessons 12 and 14 use to show that a
/// batch request posts none.
public final class SaveCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var saves = 0
    private var observer: (any NSObjectProtocol)?

    /// Starts counting.
    public init() {
        observer = NotificationCenter.default.addObserver(forName: ManagedObjectContext.didSaveObjectsNotification,
                                                          object: nil, queue: nil) { [weak self] _ in
            self?.lock.withLock { self?.saves += 1 }
        }
    }

    deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }

    /// The did-save notifications posted so far.
    public var count: Int { lock.withLock { saves } }
}
