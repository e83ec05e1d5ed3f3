import Foundation

/// What Persistence reported during the current kata through a handler the kata installed (a context used off its
/// queue, a predicate that did not parse, nil read through a non-optional property). Handlers run on whatever
/// thread made the mistake, so the list is guarded by a lock.
final class ReportLog<Entry>: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [Entry] = []

    func append(_ entry: Entry) {
        lock.withLock { entries.append(entry) }
    }

    /// The entries so far, forgetting them (each is reported once).
    func take() -> [Entry] {
        lock.withLock {
            let taken = entries
            entries = []
            return taken
        }
    }
}
