/// Tells whether anyone has committed to a store's file since it last looked, and which history transactions are new
/// — cheaply enough to ask many times a second.
///
/// It has a read-only connection of its own and asks SQLite's `PRAGMA data_version`, which changes when another
/// connection — of this process or another one — commits to the file; in WAL mode SQLite answers it from the shared
/// memory index, without reading the database. Only when the number moved does it read `ATRANSACTION` for the
/// transactions after the last one it reported.
///
/// Not thread-safe: its owner (a `RemoteChangeWatcher`) uses it on one queue.
final class StoreChangeProbe {
    private let connection: SQLiteConnection
    /// Whether the store's file has history to read transactions from.
    let tracksHistory: Bool
    private var dataVersion: Int64 = 0
    private var lastTransaction: Int64 = 0

    /// A probe of `store`'s file, taking what is committed now as seen.
    init(store: SQLiteStore) throws {
        var options = store.openOptions
        options.remove([.readWrite, .create])
        options.insert(.readOnly)
        connection = try SQLiteConnection(path: store.openName, options: options)
        tracksHistory = store.history != nil
        dataVersion = try currentDataVersion()
        if tracksHistory, case .integer(let newest)? = try connection.query("SELECT MAX(Z_PK) FROM ATRANSACTION").first?.first {
            lastTransaction = newest
        }
    }

    private func currentDataVersion() throws -> Int64 {
        guard case .integer(let version)? = try connection.query("PRAGMA data_version").first?.first else { return 0 }
        return version
    }

    /// `nil` when nothing was committed since the last call; otherwise the numbers of the history transactions
    /// committed since, oldest first (empty for commits that recorded none, and for a store without history).
    func changes() throws -> [Int64]? {
        let version = try currentDataVersion()
        guard version != dataVersion else { return nil }
        dataVersion = version
        guard tracksHistory else { return [] }
        let rows = try connection.query("SELECT Z_PK FROM ATRANSACTION WHERE Z_PK > ? ORDER BY Z_PK", [.integer(lastTransaction)])
        let numbers = rows.compactMap { row -> Int64? in if case .integer(let number) = row[0] { return number } else { return nil } }
        if let newest = numbers.last { lastTransaction = newest }
        return numbers
    }
}
