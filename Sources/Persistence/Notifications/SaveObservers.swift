import Foundation

/// The continuations of a context's `saves()` streams. Saves happen on the context's queue, streams are made and
/// ended on any; a lock guards the table.
final class SaveObservers: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<ContextDidSave>.Continuation] = [:]

    func makeStream() -> AsyncStream<ContextDidSave> {
        AsyncStream { continuation in
            let id = UUID()
            lock.withLock { continuations[id] = continuation }
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.lock.withLock { _ = self.continuations.removeValue(forKey: id) }
            }
        }
    }

    func yield(_ save: ContextDidSave) {
        let targets = lock.withLock { Array(continuations.values) }
        for continuation in targets { continuation.yield(save) }
    }

    deinit {
        for continuation in continuations.values { continuation.finish() }
    }
}
