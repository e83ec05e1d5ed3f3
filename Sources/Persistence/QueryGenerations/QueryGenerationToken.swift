import Foundation

/// A snapshot of the store that contexts can be pinned to — Core Data's `NSQueryGenerationToken`.
///
/// A context pinned to a token reads the store as it was when the token's snapshot began: fetches, faults and
/// relationship lists ignore what other contexts have saved since. Two contexts pinned to the same token see the same
/// data. Get one from ``ManagedObjectContext/queryGenerationToken`` after pinning with
/// ``ManagedObjectContext/setQueryGenerationFrom(_:)``, usually with ``current``.
///
/// Behind a token is a read transaction on a connection of its own (SQLite's WAL keeps that snapshot while others
/// write); it ends when the last context lets go of the token.
public final class QueryGenerationToken: @unchecked Sendable, Equatable, CustomStringConvertible {
    /// "The newest data": pins a context at its next read, which takes a new snapshot then.
    public static let current = QueryGenerationToken()

    private let lock = NSRecursiveLock()
    /// The snapshot: a read-only store in an open read transaction (nil for ``current``).
    private let snapshot: SQLiteStore?
    let storeIdentifier: String
    /// Where the store stood when the snapshot was taken (nil for ``current``).
    let mark: SQLiteStore.GenerationMark?

    private init() {
        snapshot = nil
        storeIdentifier = ""
        mark = nil
    }

    init(snapshot: SQLiteStore, mark: SQLiteStore.GenerationMark) {
        self.snapshot = snapshot
        self.storeIdentifier = snapshot.identifier
        self.mark = mark
    }

    var isCurrent: Bool { snapshot == nil }

    /// Runs `body` with the snapshot store; readers take turns on its one connection.
    func withSnapshot<T>(_ body: (SQLiteStore) throws -> T) throws -> T {
        try lock.withLock {
            guard let snapshot else {
                throw PersistenceError(.coreData, "QueryGenerationToken.current is a request, not a snapshot.")
            }
            do {
                return try body(snapshot)
            } catch let error as SQLiteError {
                throw PersistenceError.sqlite(error, "Reading the query generation failed", url: snapshot.url)
            }
        }
    }

    public static func == (lhs: QueryGenerationToken, rhs: QueryGenerationToken) -> Bool { lhs === rhs }

    public var description: String {
        isCurrent ? "<QueryGenerationToken current>" : "<QueryGenerationToken \(ObjectIdentifier(self)) of \(storeIdentifier)>"
    }
}
