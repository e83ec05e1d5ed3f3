import Foundation

/// Reading a store file's metadata without opening the store, and running a migration plan on it.
extension SQLiteStore {
    /// The metadata of the store file at `url` (Core Data's dictionary), read through a read-only connection that
    /// changes nothing in or beside the file. Errors: 260 no file, 259 not a store.
    static func metadata(at url: URL) throws -> [String: Any] {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw PersistenceError(.fileReadNoSuchFile, "There is no store at \(url.path).", url: url)
        }
        let (name, options) = readOnlyOpening(of: url.path)
        do {
            let connection = try SQLiteConnection(path: name, options: options)
            let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Z_METADATA'")
            guard !tables.isEmpty else {
                throw PersistenceError(.fileReadCorruptFile, "The file \(url.path) is not a store of this library (it has no Z_METADATA table).", url: url)
            }
            return try StoreMetadata.read(from: connection)
        } catch let error as SQLiteError {
            throw PersistenceError(.fileReadCorruptFile, "Could not read the metadata of the store at \(url.path): \(error.message).",
                                   sql: error.sql, sqliteCode: error.code, url: url)
        }
    }

    /// The store's indexes (name, table, statement), which a migration plan keeps, drops or remakes.
    static func indexes(at url: URL) throws -> [(name: String, table: String, sql: String)] {
        let (name, options) = readOnlyOpening(of: url.path)
        let connection = try SQLiteConnection(path: name, options: options)
        return try connection.query("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").compactMap { row in
            guard case .text(let name) = row[0], case .text(let table) = row[1], case .text(let sql) = row[2] else { return nil }
            return (name, table, sql)
        }
    }

    /// Copies the store at `source` over the store at `destination` (created if missing) with SQLite's online
    /// backup, then keeps the destination in WAL mode.
    static func copyStore(from source: URL, to destination: URL) throws {
        do {
            let from = try SQLiteConnection(path: source.path, options: [.readOnly])
            let to = try SQLiteConnection(path: destination.path, options: [.readWrite, .create])
            try from.backup(into: to)
            try to.execute("PRAGMA journal_mode = WAL")
            try to.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch let error as SQLiteError {
            throw PersistenceError(.persistentStoreSave, "Could not copy the store at \(source.path) to \(destination.path): \(error.message).",
                                   sqliteCode: error.code, url: destination)
        }
    }

    /// Runs `plan` on the store file at `url` in one SQLite transaction, then writes `metadata`: either all of it
    /// happens or, whatever goes wrong (a check, a statement, the process killed), none of it does — SQLite rolls
    /// an unfinished transaction back, from its write-ahead log, when the file is next opened.
    ///
    /// A failed check or statement throws 134110 naming what failed; the store is left as it was.
    static func migrate(at url: URL, plan: MigrationPlan, metadata: [String: Any], fingerprint: String) throws {
        let started = DispatchTime.now().uptimeNanoseconds
        PersistenceDebugLog.migration("in-place migration of the store at \(url.path): \(plan.checks.count) checks, then \(plan.prelude.count + plan.statements.count) statements, in one transaction")
        do {
            try runMigration(at: url, plan: plan, metadata: metadata, fingerprint: fingerprint)
        } catch {
            PersistenceDebugLog.migration("in-place migration failed, the store is unchanged: \(error)")
            throw error
        }
        let seconds = String(format: "%.4f", Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
        PersistenceDebugLog.migration("in-place migration completed successfully in \(seconds) seconds")
    }

    /// ``migrate(at:plan:metadata:fingerprint:)`` itself, without the migration log's first and last lines.
    private static func runMigration(at url: URL, plan: MigrationPlan, metadata: [String: Any], fingerprint: String) throws {
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: url.path, options: [.readWrite])
            try connection.execute("PRAGMA journal_mode = WAL")
        } catch let error as SQLiteError {
            throw PersistenceError(.migration, "An error occurred during persistent store migration: the store at \(url.path) could not be opened for writing (\(error.message)).",
                                   sqliteCode: error.code, url: url)
        }
        var current = ""
        do {
            try connection.inTransaction {
                for statement in plan.prelude {
                    current = statement
                    try connection.execute(statement)
                }
                for check in plan.checks {
                    PersistenceDebugLog.migration("check (the migration fails if any row is found): \(check.failure)")
                    current = check.sql
                    guard case .integer(let count)? = try connection.query(check.sql).first?.first else { continue }
                    if count > 0 {
                        throw PersistenceError(.migration, "An error occurred during persistent store migration: \(check.failure) (\(count) object\(count == 1 ? "" : "s")). The store is unchanged.",
                                               entityName: check.entityName, key: check.key, url: url)
                    }
                }
                for statement in plan.statements {
                    current = statement
                    try connection.execute(statement)
                }
                try reconcileIndexes(plan.expectedIndexes, on: connection, current: &current)
                current = "persistent history"
                try expireHistory(on: connection)
                current = "metadata"
                try StoreMetadata.write(metadata, fingerprint: fingerprint, to: connection)
            }
        } catch let error as SQLiteError {
            throw PersistenceError(.migration, "An error occurred during persistent store migration: \(error.message) (SQLite \(error.code)). The store is unchanged.",
                                   sql: current, sqliteCode: error.code, url: url)
        }
        // The next open reads the migrated store; give its pages back to the file now.
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Persistent history recorded before a migration names entities and properties by their numbers in the old
    /// model, which the new one may give to others; rather than let it read back wrong, a migration deletes it and
    /// marks it purged, so a reader whose token is older gets 134301 ("history token expired") and reads the store
    /// afresh. What Core Data does with history across a migration is undocumented.
    static func expireHistory(on connection: SQLiteConnection) throws {
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'ATRANSACTION'")
        guard !tables.isEmpty, case .integer(let newest)? = try connection.query("SELECT MAX(Z_PK) FROM ATRANSACTION").first?.first
        else { return }
        try connection.execute("DELETE FROM ACHANGE")
        try connection.execute("DELETE FROM ATRANSACTION")
        try markHistoryPurged(through: newest, on: connection)
    }

    /// Makes the store's indexes exactly `expected`: drops the others and creates the missing ones. Also used when
    /// a store opens whose model hashes match but whose indexes do not (Apple leaves indexes out of the version
    /// hashes; undocumented what Core Data then does with a store's indexes, so here they follow the model).
    static func reconcileIndexes(_ expected: [(name: String, sql: String)], on connection: SQLiteConnection,
                                 current: inout String) throws {
        var existing: [String: String] = [:]
        for row in try connection.query("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
            if case .text(let name) = row[0], case .text(let sql) = row[1] { existing[name] = sql }
        }
        let wanted = Dictionary(expected.map { ($0.name, $0.sql) }, uniquingKeysWith: { first, _ in first })
        for (name, sql) in existing.sorted(by: { $0.key < $1.key }) where wanted[name] != sql {
            current = "DROP INDEX \(name)"
            try connection.execute(current)
        }
        for (name, sql) in expected where existing[name] != sql {
            current = sql
            try connection.execute(sql)
        }
    }
}
