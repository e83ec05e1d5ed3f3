import Foundation

/// The deletions of Core Data's section caches, by name, so that a controller with a cache name can tell whether
/// ``FetchedResultsController/deleteCache(withName:)`` ran between two of its fetches. Persistence keeps no cache
/// file, but Core Data refuses a changed request under a cache name unless the cache was deleted first, and so must
/// this library (see ``FetchedResultsController/cacheName``).
final class FetchedResultsCacheNames: @unchecked Sendable {
    static let shared = FetchedResultsCacheNames()

    private let lock = NSLock()
    /// How many times each name's cache was deleted, and all of them (`deleteCache(withName: nil)`).
    private var deletions: [String: Int] = [:]
    private var deletionsOfAll = 0

    /// A number that changes whenever the cache named `name` is deleted.
    func deletionCount(of name: String) -> Int {
        lock.withLock { deletions[name, default: 0] + deletionsOfAll }
    }

    func delete(_ name: String?) {
        lock.withLock {
            if let name { deletions[name, default: 0] += 1 } else { deletionsOfAll += 1 }
        }
    }
}
