import Foundation

/// Persistent history in the store: setting it up when the store opens, opening and closing a transaction's
/// record around every write, and reading and purging it. The rows themselves are written by the triggers of
/// ``StoreHistorySchema``.
extension SQLiteStore {
    // MARK: - Opening

    /// Sets history up as the store opens. With `tracking`, a writable store gets the history tables (if the file
    /// has none yet: history starts now) and its triggers. Without it, a file that has history is opened
    /// read-only, as Core Data does ("Forcing into Read Only mode" on the console, NSCocoaErrorDomain 513 on save):
    /// saves made without recording would leave holes in the history that other readers trust.
    func openHistory(tracking: Bool, readOnly: Bool) throws {
        let hasHistory = try !connection.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ATRANSACTION'").isEmpty
        guard tracking || hasHistory else { return }
        let schema = StoreHistorySchema(schema: self.schema)
        if tracking && !readOnly {
            try connection.inTransaction {
                for statement in schema.createStatements { try connection.execute(statement) }
                let columns = try connection.query("PRAGMA table_info(ACHANGE)").compactMap { row -> String? in
                    if case .text(let name) = row[1] { return name } else { return nil }
                }
                for statement in schema.addColumnStatements(existing: Set(columns)) { try connection.execute(statement) }
            }
            for statement in schema.triggerStatements { try connection.execute(statement) }
        } else if !hasHistory {
            // Tracking asked of a read-only store that has none: there is nothing to read, and nothing can be written.
            return
        }
        let forbidsWriting = !tracking && !readOnly
        if forbidsWriting {
            FileHandle.standardError.write(Data("""
                Persistence: warning: the store at \(path) has persistent history but was opened without \
                NSPersistentHistoryTrackingKey; it is read-only until it is opened with the option again (as Core Data \
                forces such a store into read-only mode).\n
                """.utf8))
        }
        history = StoreHistory(schema: schema, isRecording: tracking && !readOnly, forbidsWriting: forbidsWriting)
    }

    /// Refuses a write to a store that has history but was opened without tracking it.
    /// - Throws: error 513 (`NSFileWriteNoPermissionError`), as Core Data's save fails then.
    func checkWritable() throws {
        guard let history, history.forbidsWriting else { return }
        throw PersistenceError(.fileWriteNoPermission,
                               "The store at \(path) is read-only: its file has persistent history, and it was opened without NSPersistentHistoryTrackingKey. Set the option (true as NSNumber) on its description, as every program that writes to the file must.",
                               url: url)
    }

    // MARK: - Recording

    /// Opens the record of the transaction just begun: its `ATRANSACTION` row, written first so the triggers find
    /// it as the newest. The author and context name come from the context that writes (``HistoryTransactionOrigin``).
    func beginHistoryTransaction() throws {
        guard let history, history.isRecording else { return }
        let origin = HistoryTransactionOrigin.current
        let rows = try connection.query("""
            INSERT INTO ATRANSACTION (ZTIMESTAMP, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID) VALUES (?, ?, ?, ?, ?) \
            RETURNING Z_PK
            """, [.real(Date().timeIntervalSinceReferenceDate), origin.author.map(SQLiteValue.text) ?? .null,
                  .text(HistoryTransactionOrigin.bundleID), origin.contextName.map(SQLiteValue.text) ?? .null,
                  .text(HistoryTransactionOrigin.processID)])
        guard case .integer(let number)? = rows.first?.first else { return }
        history.currentTransaction = number
    }

    /// Closes the record before the commit: a transaction that changed no row of the model (keys reserved, say)
    /// leaves no history. Whether Core Data records such a transaction is undocumented.
    func endHistoryTransaction() throws {
        guard let history, let number = history.currentTransaction else { return }
        history.currentTransaction = nil
        try connection.run("DELETE FROM ATRANSACTION WHERE Z_PK = ?1 AND NOT EXISTS (SELECT 1 FROM ACHANGE WHERE ZTRANSACTIONID = ?1)",
                           [.integer(number)])
    }

    /// Records the insertion of the rows of `table` (a root's table) whose keys are in `keys`: the fresh keys a save
    /// gave its new rows, so every row in the range is new. One statement for them all (see ``StoreHistorySchema``
    /// for why insertions are not recorded by a trigger).
    func recordInsertions(in table: EntityTable, keys: ClosedRange<Int64>) throws {
        guard let number = history?.currentTransaction else { return }
        let entity = table.entity.isInHierarchy ? "Z_ENT" : String(table.number)
        try connection.run("""
            INSERT INTO ACHANGE (ZTRANSACTIONID, ZENTITY, ZENTITYPK, ZCHANGETYPE)             SELECT ?, \(entity), Z_PK, 0 FROM \(table.name) WHERE Z_PK BETWEEN ? AND ?
            """, [.integer(number), .integer(keys.lowerBound), .integer(keys.upperBound)])
    }

    /// Records the insertion of one row of `entity`.
    func recordInsertion(of entity: EntityDescription, primaryKey: Int64) throws {
        guard let number = history?.currentTransaction else { return }
        let statement = try connection.cachedStatement("INSERT INTO ACHANGE (ZTRANSACTIONID, ZENTITY, ZENTITYPK, ZCHANGETYPE) VALUES (?, ?, ?, 0)")
        try statement.bind([.integer(number), .integer(schema[entity].number), .integer(primaryKey)])
        while try statement.step() {}
    }

    /// Records that a save changed the to-many relationships `properties` (indexes) of a row of `entity`: they have
    /// no column for the update trigger to see. The reader folds this into the row's update.
    func recordToManyChanges(of entity: EntityDescription, primaryKey: Int64, properties: [Int]) throws {
        guard let history, let number = history.currentTransaction else { return }
        let bits = properties.compactMap { history.schema.toManyBits[entity.index][$0] }
        guard !bits.isEmpty else { return }
        var masks = Array(repeating: Int64(0), count: history.schema.maskColumnCount)
        for bit in bits {
            masks[bit / StoreHistorySchema.bitsPerMask] |= Int64(1) << Int64(bit % StoreHistorySchema.bitsPerMask)
        }
        let columns = masks.indices.map(StoreHistorySchema.maskColumn)
        let statement = try connection.cachedStatement("""
            INSERT INTO ACHANGE (ZTRANSACTIONID, ZENTITY, ZENTITYPK, ZCHANGETYPE\(columns.map { ", " + $0 }.joined())) \
            VALUES (?, ?, ?, 1\(String(repeating: ", ?", count: columns.count)))
            """)
        try statement.bind([.integer(number), .integer(schema[entity].number), .integer(primaryKey)] + masks.map(SQLiteValue.integer))
        while try statement.step() {}
    }

    /// Whether the write under way is recorded in history.
    var recordsHistory: Bool { history?.currentTransaction != nil }

    /// The transaction's record is rolled back with it.
    func abandonHistoryTransaction() {
        history?.currentTransaction = nil
    }

    /// The number of the newest transaction the history has recorded (0 before the first), or nil when the store
    /// has no history. Read from SQLite's counter of the table's keys, so a purge does not take it back.
    func newestHistoryTransaction() throws -> Int64? {
        guard history != nil else { return nil }
        let rows = try connection.query("SELECT seq FROM sqlite_sequence WHERE name = 'ATRANSACTION'")
        guard case .integer(let number)? = rows.first?.first else { return 0 }
        return number
    }

    /// A number that moves whenever this store writes a row: the coordinator compares it around its calls to tell
    /// the remote-change watchers of this process that the file changed.
    var writeCount: Int { connection.totalChanges }

    // MARK: - Reading and purging

    /// Reads, or deletes, the transactions `query` selects.
    /// - Throws: error 134301 for a token whose history was purged (or that belongs to another store),
    ///   134060 for a store without history, 513 for a purge of a store opened without tracking.
    func executeHistory(_ query: StoreHistoryQuery) throws -> StoreHistoryAnswer {
        guard let history else {
            throw PersistenceError(.coreData,
                                   "The store at \(path) has no persistent history: load it with NSPersistentHistoryTrackingKey set to true (description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)); history starts when it is first turned on.",
                                   url: url)
        }
        if case .afterToken(let store, let number) = query.selection { try checkNotExpired(store: store, number: number) }
        if case .beforeToken(let store, _) = query.selection, store != identifier {
            throw PersistenceError(.coreData, "The history token belongs to another store (\(store)); this store is \(identifier). Nothing was deleted.", url: url)
        }
        let condition = self.condition(for: query.selection, on: "t0")
        guard query.deletes else { return try read(condition, query, history: history) }
        guard query.filter == nil else {
            throw PersistenceError(.coreData, "A purge takes no fetch request; nothing was deleted.", url: url)
        }
        try checkWritable()
        return try connection.inTransaction {
            let answer = try read(condition, query, history: history)
            guard let newest = answer.numbers.max() else { return answer }
            // Through a subquery rather than the list: a purge may drop a million changes.
            try connection.run("DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT t0.Z_PK FROM ATRANSACTION t0 WHERE \(condition.sql))",
                               condition.arguments)
            try connection.run("DELETE FROM ATRANSACTION AS t0 WHERE \(condition.sql)", condition.arguments)
            try Self.markHistoryPurged(through: newest, on: connection)
            return answer
        }
    }

    /// The highest transaction number purged from the store on `connection` so far (0: none).
    static func purgedThrough(on connection: SQLiteConnection) throws -> Int64 {
        let rows = try connection.query("SELECT Z_VALUE FROM Z_METADATA WHERE Z_KEY = ?", [.text(StoreHistory.purgedThroughKey)])
        guard case .text(let text)? = rows.first?.first else { return 0 }
        return Int64(text) ?? 0
    }

    /// Records that history through transaction `number` is gone (never lowering the mark), so older tokens expire.
    static func markHistoryPurged(through number: Int64, on connection: SQLiteConnection) throws {
        let purged = max(number, try purgedThrough(on: connection))
        try connection.run("INSERT INTO Z_METADATA (Z_KEY, Z_VALUE) VALUES (?, ?) ON CONFLICT (Z_KEY) DO UPDATE SET Z_VALUE = excluded.Z_VALUE",
                           [.text(StoreHistory.purgedThroughKey), .text(String(purged))])
    }

    /// A reader whose token is older than purged history has missed changes it can no longer read: Core Data's
    /// 134301, "history token expired", tells it to read everything again. A token of another store (a store that
    /// was deleted and made anew, say) is treated the same way; what Core Data does then is undocumented.
    private func checkNotExpired(store: String, number: Int64) throws {
        guard store == identifier else {
            throw PersistenceError(.persistentHistoryTokenExpired,
                                   "The persistent history token belongs to another store (\(store)); this store is \(identifier). Read the store afresh and keep a token of this store.",
                                   url: url)
        }
        let purged = try Self.purgedThrough(on: connection)
        guard number >= purged else {
            throw PersistenceError(.persistentHistoryTokenExpired,
                                   "The persistent history token (transaction \(number)) has expired: the history after it up to transaction \(purged) was deleted. Read the store afresh, then go on from the newest token.",
                                   url: url)
        }
    }

    /// The `WHERE` condition on the transactions table, as `alias`, for `selection`.
    private func condition(for selection: StoreHistoryQuery.Selection, on alias: String) -> (sql: String, arguments: [SQLiteValue]) {
        switch selection {
        case .all: return ("1", [])
        case .afterToken(_, let number): return ("\(alias).Z_PK > ?", [.integer(number)])
        case .afterDate(let date): return ("\(alias).ZTIMESTAMP > ?", [.real(date.timeIntervalSinceReferenceDate)])
        case .beforeToken(_, let number): return ("\(alias).Z_PK < ?", [.integer(number)])
        case .beforeDate(let date): return ("\(alias).ZTIMESTAMP < ?", [.real(date.timeIntervalSinceReferenceDate)])
        }
    }

    /// `ATRANSACTION` under the transaction entity's column names (``PersistentHistoryModel``), for a filter compiled
    /// against it: its number and its token are its key. A plain projection, which SQLite flattens into the query, so
    /// the table's indexes still serve.
    private static let transactionEntityTable = """
        (SELECT Z_PK, ZTIMESTAMP, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, Z_PK AS ZTOKEN, Z_PK AS ZTRANSACTIONNUMBER \
        FROM ATRANSACTION)
        """

    /// `ACHANGE` under the change entity's column names, one row per object and transaction as the reader folds
    /// them (see `StoreHistoryAnswer.Change.folding(_:)`): a deletion is a deletion, else an insertion an insertion.
    /// Only the transactions `selection` (on `s`) selects.
    private static func changeEntityTable(where selection: String) -> String {
        """
        (SELECT ZTRANSACTIONID, ZENTITY AS ZCHANGEDENTITY, ZENTITYPK AS ZCHANGEDID, \
        CASE WHEN MAX(ZCHANGETYPE) = 2 THEN 2 ELSE MIN(ZCHANGETYPE) END AS ZCHANGETYPE \
        FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT s.Z_PK FROM ATRANSACTION s WHERE \(selection)) \
        GROUP BY ZTRANSACTIONID, ZENTITY, ZENTITYPK)
        """
    }

    /// The changes a change filter matches among the selected transactions', by transaction, entity and key.
    private func matchingChanges(_ filter: StoreQuery, selection: StoreHistoryQuery.Selection) throws -> Set<ObjectInTransaction> {
        let inner = condition(for: selection, on: "s")
        let statement = try connection.prepare("""
            SELECT t0.ZTRANSACTIONID, t0.ZCHANGEDENTITY, t0.ZCHANGEDID FROM \(Self.changeEntityTable(where: inner.sql)) t0 \
            WHERE \(filter.whereClause ?? "1")
            """)
        try statement.bind(inner.arguments + filter.arguments)
        var matching = Set<ObjectInTransaction>()
        while try statement.step() {
            matching.insert(ObjectInTransaction(transaction: statement.int64(at: 0), entityNumber: statement.int64(at: 1),
                                                primaryKey: statement.int64(at: 2)))
        }
        return matching
    }

    private func read(_ condition: (sql: String, arguments: [SQLiteValue]),
                      _ query: StoreHistoryQuery, history: StoreHistory) throws -> StoreHistoryAnswer {
        var answer = StoreHistoryAnswer(storeIdentifier: identifier)
        var table = "ATRANSACTION"
        var sql = condition.sql
        var arguments = condition.arguments
        var orderBy = "t0.Z_PK"
        var matching: Set<ObjectInTransaction>?
        switch query.filter {
        case .transactions(let filter)?:
            table = Self.transactionEntityTable
            if let clause = filter.whereClause { sql += " AND " + clause }
            arguments += filter.arguments
            orderBy = filter.orderBy ?? orderBy
            if filter.limit > 0 || filter.offset > 0 {
                orderBy += " LIMIT ? OFFSET ?"
                arguments += [.integer(filter.limit > 0 ? Int64(filter.limit) : -1), .integer(Int64(filter.offset))]
            }
        case .changes(let filter)?:
            matching = try matchingChanges(filter, selection: query.selection)
        case nil:
            break
        }
        let statement = try connection.prepare("""
            SELECT t0.Z_PK, t0.ZTIMESTAMP, t0.ZAUTHOR, t0.ZBUNDLEID, t0.ZCONTEXTNAME, t0.ZPROCESSID FROM \(table) t0 \
            WHERE \(sql) ORDER BY \(orderBy)
            """)
        try statement.bind(arguments)
        let holding = matching.map { Set($0.map(\.transaction)) }
        while try statement.step() {
            let number = statement.int64(at: 0)
            if let holding, !holding.contains(number) { continue }
            answer.numbers.append(number)
            guard query.readsTransactions else { continue }
            func text(_ column: Int32) -> String? { statement.isNull(at: column) ? nil : statement.text(at: column) }
            answer.transactions.append(.init(number: number, timestamp: Date(timeIntervalSinceReferenceDate: statement.double(at: 1)),
                                             author: text(2), bundleID: text(3) ?? "", contextName: text(4),
                                             processID: text(5) ?? ""))
        }
        guard let low = answer.numbers.min(), let high = answer.numbers.max() else { return answer }
        guard query.readsChanges || query.countsChanges else { return answer }
        var changes = try changes(of: Set(answer.numbers), from: low, through: high, history: history)
        if let matching {
            changes.removeAll { !matching.contains(ObjectInTransaction($0, entityNumber: self.schema[$0.entity].number)) }
        }
        if query.readsChanges { answer.changes = changes }
        answer.changeCount = changes.count
        return answer
    }

    /// The changes of the transactions `numbers` (all between `low` and `high`), by transaction then change.
    private func changes(of numbers: Set<Int64>, from low: Int64, through high: Int64,
                         history: StoreHistory) throws -> [StoreHistoryAnswer.Change] {
        let schema = history.schema
        let masks = (0..<schema.maskColumnCount).map(StoreHistorySchema.maskColumn)
        let tombstones = (0..<schema.tombstoneColumnCount).map(StoreHistorySchema.tombstoneColumn)
        let sql = "SELECT Z_PK, ZTRANSACTIONID, ZENTITY, ZENTITYPK, ZCHANGETYPE" + (masks + tombstones).map { ", " + $0 }.joined()
            + " FROM ACHANGE WHERE ZTRANSACTIONID BETWEEN ? AND ? ORDER BY ZTRANSACTIONID, Z_PK"
        let statement = try connection.prepare(sql)
        try statement.bind([.integer(low), .integer(high)])
        var changes: [StoreHistoryAnswer.Change] = []
        var places: [ObjectInTransaction: Int] = [:]
        let firstMask: Int32 = 5
        let firstTombstone = firstMask + Int32(masks.count)
        while try statement.step() {
            let transaction = statement.int64(at: 1)
            guard numbers.contains(transaction), let table = self.schema.table(number: statement.int64(at: 2)) else { continue }
            let entity = table.entity
            let kind = statement.int64(at: 4)
            var updated: [Int]?
            if kind == PersistentHistoryChangeType.update.rawValue {
                var indexes: [Int] = []
                let properties = schema.maskProperties[entity.index]
                for (number, _) in masks.enumerated() {
                    let mask = UInt64(bitPattern: statement.int64(at: firstMask + Int32(number)))
                    guard mask != 0 else { continue }
                    for bit in 0..<StoreHistorySchema.bitsPerMask where mask & (1 << UInt64(bit)) != 0 {
                        let position = number * StoreHistorySchema.bitsPerMask + bit
                        if position < properties.count, let index = properties[position] { indexes.append(index) }
                    }
                }
                updated = Array(Set(indexes)).sorted()
            }
            var tombstone: [(name: String, value: PersistentValue)]?
            let preserved = schema.tombstoneProperties[entity.index]
            if kind == PersistentHistoryChangeType.delete.rawValue, !preserved.isEmpty {
                tombstone = []
                for (number, index) in preserved.enumerated() where Int32(number) + firstTombstone < statement.columnCount {
                    guard let attribute = entity.attributeAt[index] else { continue }
                    let value = attribute.attributeType.persistentValue(statement.value(at: firstTombstone + Int32(number)))
                    if !value.isNull { tombstone?.append((attribute.name, value)) }
                }
            }
            let change = StoreHistoryAnswer.Change(id: statement.int64(at: 0), transactionNumber: transaction, kind: kind,
                                                   entity: entity, objectID: objectID(of: entity, primaryKey: statement.int64(at: 3)),
                                                   updatedProperties: updated, tombstone: tombstone)
            let key = ObjectInTransaction(transaction: transaction, entityNumber: statement.int64(at: 2), primaryKey: statement.int64(at: 3))
            if let place = places[key] {
                changes[place] = changes[place].folding(change)
            } else {
                places[key] = changes.count
                changes.append(change)
            }
        }
        return changes
    }

    /// An object within one transaction: the rows a transaction wrote for it fold into one change.
    private struct ObjectInTransaction: Hashable {
        let transaction: Int64
        /// The entity's `Z_ENT`.
        let entityNumber: Int64
        let primaryKey: Int64

        init(transaction: Int64, entityNumber: Int64, primaryKey: Int64) {
            self.transaction = transaction
            self.entityNumber = entityNumber
            self.primaryKey = primaryKey
        }

        init(_ change: StoreHistoryAnswer.Change, entityNumber: Int64) {
            self.init(transaction: change.transactionNumber, entityNumber: entityNumber, primaryKey: change.objectID.primaryKey ?? 0)
        }
    }
}
