import Foundation

/// What a handler Persistence calls (on whatever thread) reported during a test, in order.
final class ReportedList<Entry>: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [Entry] = []

    func append(_ entry: Entry) { lock.withLock { entries.append(entry) } }

    /// The entries so far, forgetting them.
    func take() -> [Entry] { lock.withLock { defer { entries = [] }; return entries } }
}
