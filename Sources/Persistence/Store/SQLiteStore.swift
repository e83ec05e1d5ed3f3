import Foundation

/// The SQLite file behind a store: opens or creates it, checks it was made with the same model, and reads and
/// writes rows. Not thread-safe: ``PersistentStoreCoordinator`` serialises every call.
final class SQLiteStore {
    let url: URL
    /// The file SQLite opens (for `/dev/null`, a private file in shared memory).
    let path: String
    let isInMemory: Bool
    /// What SQLite is given to open the file (a `file:` URI for an immutable read-only store), and how: a query
    /// generation's snapshot opens the file the same way.
    let openName: String
    let openOptions: SQLiteConnection.OpenOptions
    let model: ManagedObjectModel
    let schema: StoreSchema
    /// The store's UUID, kept in its metadata; part of every permanent object ID.
    private(set) var identifier = ""
    let connection: SQLiteConnection
    /// One prepared INSERT per entity, by entity index.
    private var insertStatements: [SQLiteStatement?]
    /// The scope of this store's permanent IDs, by entity index (made once the store identifier is known).
    private(set) var idScopes: [ManagedObjectID.Scope] = []
    /// Persistent history, when the file has it or the store was opened to track it (see `SQLiteStore+History.swift`).
    var history: StoreHistory?

    /// The store's metadata as Core Data's dictionary, with the app's own keys; what ``PersistentStoreCoordinator/setMetadata(_:for:)``
    /// sets is written with the next save.
    var metadata: [String: Any] = [:]
    /// `true` once the app has set metadata that is not yet written.
    var metadataChanged = false
    /// Saves this store has committed (``commitWrite()``): with SQLite's `data_version`, which moves when another
    /// connection commits, it says whether anything was written since a query generation was taken.
    var commitCount: UInt64 = 0

    init(description: PersistentStoreDescription, model: ManagedObjectModel) throws {
        let url = try description.requiredURL()
        self.url = url
        self.model = model
        self.schema = StoreSchema(model: model)
        self.insertStatements = Array(repeating: nil, count: model.entities.count)
        if url.path == "/dev/null" {
            isInMemory = true
            path = Self.makeInMemoryPath()
        } else {
            isInMemory = false
            path = url.path
            try Self.checkLocation(of: url, readOnly: description.isReadOnly)
        }
        if isInMemory {
            (openName, openOptions) = (path, [.readWrite])
        } else if description.isReadOnly {
            (openName, openOptions) = Self.readOnlyOpening(of: path)
        } else {
            (openName, openOptions) = (path, [.readWrite])
        }
        do {
            connection = try SQLiteConnection(path: openName, options: openOptions.contains(.readOnly) ? openOptions : openOptions.union(.create))
        } catch let error as SQLiteError {
            throw PersistenceError(.fileReadUnknown, "Could not open the store at \(path): \(error.message).",
                                   sqliteCode: error.code, url: url)
        }
        let tracksHistory = try description.boolOption(PersistentStoreDescription.persistentHistoryTrackingKey) ?? false
        do {
            try StoreFunctions.register(on: connection)
            try prepare(readOnly: description.isReadOnly)
            idScopes = model.entities.map { $0.idScope(store: identifier, temporary: false) }
            try openHistory(tracking: tracksHistory, readOnly: description.isReadOnly)
        } catch let error as SQLiteError {
            // The file exists but is not a database.
            if error.primaryCode == SQLiteError.ResultCode.notADatabase {
                throw PersistenceError(.fileReadCorruptFile,
                                       "The store at \(path) is not a SQLite database (corrupt, or another kind of file). Move it aside or delete it.",
                                       sql: error.sql, sqliteCode: error.code, url: url)
            }
            // A database whose pages do not hold together (cut short, overwritten).
            if error.primaryCode == SQLiteError.ResultCode.corrupt {
                throw PersistenceError(.fileReadCorruptFile,
                                       "The store at \(path) is damaged (\(error.message)): it may have been cut short or overwritten. Restore it from a backup, or move it aside.",
                                       sql: error.sql, sqliteCode: error.code, url: url)
            }
            throw PersistenceError(.fileReadUnknown, "Could not read the store at \(path): \(error.message).",
                                   sql: error.sql, sqliteCode: error.code, url: url)
        }
    }

    /// A second, read-only view of `store` in an open read transaction: the snapshot behind a query generation.
    /// It reads the same file (for an in-memory store, the same shared-memory file) through its own connection.
    init(snapshotOf store: SQLiteStore) throws {
        url = store.url
        path = store.path
        isInMemory = false   // the file belongs to `store`, which removes it
        openName = store.openName
        openOptions = store.openOptions
        model = store.model
        schema = store.schema
        identifier = store.identifier
        idScopes = store.idScopes
        insertStatements = Array(repeating: nil, count: store.model.entities.count)
        do {
            connection = try SQLiteConnection(path: openName, options: openOptions)
            try StoreFunctions.register(on: connection)
            try connection.execute("BEGIN DEFERRED")
            // The snapshot starts with the first read, not with BEGIN.
            _ = try connection.query("SELECT COUNT(*) FROM Z_METADATA")
        } catch let error as SQLiteError {
            throw PersistenceError.sqlite(error, "Could not take a snapshot of the store", url: store.url)
        }
    }

    deinit {
        if isInMemory {
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        }
    }

    // MARK: - Opening

    /// Reports a store location SQLite could not use, with the reason, before SQLite reports it vaguely.
    private static func checkLocation(of url: URL, readOnly: Bool) throws {
        guard url.isFileURL else {
            throw PersistenceError(.persistentStoreInvalidType, "The store URL \(url) is not a file URL (use a file path, or /dev/null for an in-memory store).", url: url)
        }
        let fileManager = FileManager.default
        let folder = url.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
            throw PersistenceError(.fileReadNoSuchFile, "The folder \(folder.path) for the store \(url.lastPathComponent) does not exist. Create it first.", url: url)
        }
        guard isDirectory.boolValue else {
            throw PersistenceError(.fileWriteNoPermission, "\(folder.path) is a file, not a folder, so the store \(url.lastPathComponent) cannot be made inside it.", url: url)
        }
        if fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw PersistenceError(.fileReadCorruptFile, "The store path \(url.path) is a folder, not a store file.", url: url)
            }
            guard access(url.path, R_OK) == 0 else {
                throw PersistenceError(.fileReadNoPermission, "No permission to read the store \(url.path): \(String(cString: strerror(errno))).", url: url)
            }
            guard readOnly || access(url.path, W_OK) == 0 else {
                throw PersistenceError(.fileWriteNoPermission, "No permission to write the store \(url.path): \(String(cString: strerror(errno))). Open it read-only or fix its permissions.", url: url)
            }
        } else if readOnly {
            throw PersistenceError(.fileReadNoSuchFile, "The read-only store \(url.path) does not exist.", url: url)
        }
        // SQLite also writes -wal and -shm files beside the store.
        guard readOnly || access(folder.path, W_OK) == 0 else {
            throw PersistenceError(.fileWriteNoPermission, "No permission to write in \(folder.path), where the store and its journal live: \(String(cString: strerror(errno))).", url: url)
        }
    }

    /// How to open the store at `path` so that reading it writes nothing, not even beside it.
    ///
    /// A read-only connection to a database in WAL mode still creates `-wal` and `-shm` files, and cannot remove them
    /// when it closes; where the folder is not writable it cannot open at all. When no such files exist, no
    /// connection is using the database, so it is opened as immutable: no locks, no side files. (A read-only store
    /// is meant for a file nothing writes while it is open — a store shipped with an app.) When they exist, another
    /// connection is using them and they are shared as they are. A database in rollback-journal mode creates nothing
    /// when read.
    static func readOnlyOpening(of path: String) -> (name: String, options: SQLiteConnection.OpenOptions) {
        let fileManager = FileManager.default
        guard isInWriteAheadLogMode(path),
              !fileManager.fileExists(atPath: path + "-wal"), !fileManager.fileExists(atPath: path + "-shm")
        else { return (path, [.readOnly]) }
        // In a URI, only these characters of a path need escaping.
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3f"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return ("file:\(escaped)?immutable=1", [.readOnly, .uri])
    }

    /// `true` when the file's header says WAL (format versions 2 at offsets 18 and 19); read without SQLite, so
    /// nothing is opened or locked.
    private static func isInWriteAheadLogMode(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 20), data.count == 20 else { return false }
        let header = [UInt8](data)
        return header.prefix(16).elementsEqual("SQLite format 3\0".utf8) && header[18] == 2 && header[19] == 2
    }

    /// A fresh file in shared memory (tmpfs) for a `/dev/null` store: private to this store, yet a real file, so
    /// WAL and several connections (query generations) work as they do on disk. Files left by dead processes
    /// are removed.
    private static func makeInMemoryPath() -> String {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let prefix = "persistence-inmemory-"
        if let names = try? FileManager.default.contentsOfDirectory(atPath: folder) {
            for name in names where name.hasPrefix(prefix) {
                let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
                if let pid = Int32(pidText), kill(pid, 0) != 0, errno == ESRCH {
                    unlink((folder as NSString).appendingPathComponent(name))
                }
            }
        }
        return (folder as NSString).appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString).sqlite")
    }

    private func prepare(readOnly: Bool) throws {
        // The first read fails with SQLITE_NOTADB on a file that is not a database.
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'")
            .compactMap { row -> String? in if case .text(let name) = row[0] { return name } else { return nil } }
        // Nothing is written (not even the journal mode, which lives in the file's header) until the file is known
        // to be a store of this model: someone else's database must be left exactly as it was.
        if tables.isEmpty {
            guard !readOnly else {
                throw PersistenceError(.persistentStoreIncompatibleVersionHash, "The read-only store \(path) is empty.", url: url)
            }
            try useWriteAheadLog()
            try createSchema()
            return
        }
        guard tables.contains("Z_METADATA") else {
            throw PersistenceError(.persistentStoreIncompatibleVersionHash,
                                   "The file \(path) is a SQLite database but not a store of this library (it has no Z_METADATA table).", url: url)
        }
        var metadata = try StoreMetadata.read(from: connection)
        identifier = metadata[CoreDataStoreName.storeUUID] as? String ?? ""
        guard model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) else {
            throw Self.incompatible(metadata, model: model, url: url)
        }
        if !readOnly {
            try useWriteAheadLog()
            // Indexes count in no version hash (as in Core Data), so a store whose hashes match may have others
            // than the model's: they follow the model (undocumented what Core Data does; it keeps the store's).
            let expected = schema.createStatements.compactMap { statement -> (name: String, sql: String)? in
                let words = statement.split(separator: " ")
                if statement.hasPrefix("CREATE INDEX ") { return (String(words[2]), statement) }
                if statement.hasPrefix("CREATE UNIQUE INDEX ") { return (String(words[3]), statement) }
                return nil
            }
            let existing = try connection.query("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
                .compactMap { row -> String? in if case .text(let sql) = row[1] { sql } else { nil } }
            if Set(existing) != Set(expected.map(\.sql)) {
                var current = ""
                try connection.inTransaction { try Self.reconcileIndexes(expected, on: connection, current: &current) }
            }
            // A store written before per-entity hashes gets them now, as if it had always had them.
            if StoreMetadata.entityHashes(in: metadata) == nil {
                metadata = storeMetadata(custom: metadata)
                try connection.inTransaction {
                    try StoreMetadata.write(metadata, fingerprint: model.versionHash, to: connection)
                }
            }
        }
        self.metadata = metadata
    }

    /// Core Data's 134100 for a store whose model is not `model`, naming what differs.
    static func incompatible(_ metadata: [String: Any], model: ManagedObjectModel, url: URL) -> PersistenceError {
        var detail: String
        if let stored = StoreMetadata.entityHashes(in: metadata) {
            let current = model.entityVersionHashesByName
            let names = Set(stored.keys).union(current.keys).sorted()
            let changed = names.filter { stored[$0] != current[$0] }.map { name in
                stored[name] == nil ? "\(name) (new)" : current[name] == nil ? "\(name) (not in this model)" : "\(name) (changed)"
            }
            detail = "Entities that differ: \(changed.joined(separator: ", "))."
        } else {
            detail = "The store was made with model version \(metadata[StoreMetadata.legacyModelHashKey] as? String ?? "none"); this model is \(model.versionHash)."
        }
        return PersistenceError(.persistentStoreIncompatibleVersionHash,
                                "The model used to open the store is incompatible with the one used to create the store. The store at \(url.path) was written with another version of the model. \(detail) Let it migrate (shouldMigrateStoreAutomatically and shouldInferMappingModelAutomatically, both true by default), delete it, or open it with its own model.",
                                url: url)
    }

    /// The metadata of a store of this model, keeping the app's own keys from `custom`.
    func storeMetadata(custom: [String: Any]) -> [String: Any] {
        StoreMetadata.dictionary(uuid: identifier, hashes: model.entityVersionHashesByName,
                                 identifiers: Array(model.versionIdentifiers.map(\.base)),
                                 checksum: model.versionChecksum,
                                 custom: custom.filter { !StoreMetadata.storeKeys.contains($0.key) })
    }

    private func useWriteAheadLog() throws {
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
    }


    private func createSchema() throws {
        identifier = UUID().uuidString
        try connection.inTransaction {
            try connection.execute("CREATE TABLE Z_METADATA (Z_KEY TEXT PRIMARY KEY, Z_VALUE TEXT)")
            try connection.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME TEXT NOT NULL, Z_MAX INTEGER NOT NULL)")
            for statement in schema.createStatements { try connection.execute(statement) }
            metadata = storeMetadata(custom: [:])
            try StoreMetadata.write(metadata, fingerprint: model.versionHash, to: connection)
            for table in schema.entities {
                try connection.run("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_MAX) VALUES (?, ?, 0)",
                                   [.integer(table.number), .text(table.entity.entityName)])
            }
        }
    }

    /// The prepared INSERT for `table`, reset and ready to bind: 1 is `Z_PK`, then one per column.
    func insertStatement(for table: EntityTable) throws -> SQLiteStatement {
        if let statement = insertStatements[table.entity.index] {
            // Every parameter is bound again for each row, so the bindings need no clearing.
            try statement.reset(clearingBindings: false)
            return statement
        }
        let statement = try connection.prepare(table.insertSQL)
        insertStatements[table.entity.index] = statement
        return statement
    }

    /// The permanent ID of row `primaryKey` of `entity`.
    func objectID(of entity: EntityDescription, primaryKey: Int64) -> ManagedObjectID {
        ManagedObjectID(scope: idScopes[entity.index], storage: .permanent(primaryKey))
    }

    /// The maker of this store's permanent IDs, for a context to keep.
    var permanentIDs: PermanentIDs { PermanentIDs(storeIdentifier: identifier, scopes: idScopes) }

    // MARK: - Keys

    /// Reserves keys for new objects before they are saved (``ManagedObjectContext/obtainPermanentIDs(for:)``):
    /// `counts[i]` keys of `entities[i]`, in one transaction; returns their IDs, a list per entity. The keys are
    /// handed out only once the transaction that reserved them has committed.
    func reservePermanentIDs(for entities: [EntityDescription], counts: [Int]) throws -> [[ManagedObjectID]] {
        try checkWritable()
        return try connection.inTransaction {
            try zip(entities, counts).map { entity, count in
                let first = try allocatePrimaryKeys(for: entity, count: count)
                return (0..<count).map { objectID(of: entity, primaryKey: first + Int64($0)) }
            }
        }
    }

    /// Reserves `count` primary keys for `entity`; returns the first. Entities of one hierarchy share one table and
    /// so count their keys together, on their root's counter.
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int) throws -> Int64 {
        // By name: stores made before entity numbers followed names numbered them in the model's order.
        let rows = try connection.query("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_NAME = ? RETURNING Z_MAX",
                                        [.integer(Int64(count)), .text(entity.rootEntity.entityName)])
        guard case .integer(let max)? = rows.first?.first else {
            throw PersistenceError(.persistentStoreSave, "The store has no key counter for \(entity.entityName).", entityName: entity.entityName)
        }
        return max - Int64(count) + 1
    }
}
