/// Where the store stands, so that a query generation can be told to be the newest or not.
extension SQLiteStore {
    /// Two marks are equal when nothing was committed to the store between them, by this connection (its own
    /// commits, counted) or by any other (SQLite's `PRAGMA data_version` on this connection moves then).
    struct GenerationMark: Equatable, Sendable {
        let commits: UInt64
        let dataVersion: Int64
    }

    /// The mark now. Ask it under the coordinator's lock, where no save of this store runs.
    func generationMark() throws -> GenerationMark {
        guard case .integer(let version)? = try connection.query("PRAGMA data_version").first?.first else {
            throw PersistenceError(.coreData, "SQLite gave no data_version for \(url.path).")
        }
        return GenerationMark(commits: commitCount, dataVersion: version)
    }
}
