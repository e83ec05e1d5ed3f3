import Foundation
import GRDB
@_spi(ModelBuilding) import Persistence
import SQLite3C

final class BenchCard: ManagedObject {
    @Managed var text: String
}

/// Document 004's search on every side: 1.6 million cards whose text is a shuffle of "LaSErBeAmZ" (every tenth with
/// accents), three substring terms. Persistence runs `CONTAINS[cd]` (case and diacritics folded, as Core Data
/// does); the raw and GRDB sides run SQLite's `LIKE`, which folds ASCII case only — so they find fewer cards, and
/// the table says how many each found.
enum SearchWorkload {
    static let rows = 1_600_000
    static let terms = ["la", "se", "am"]

    /// The texts, the same on every side.
    static func texts(_ body: (Int, String) throws -> Void) rethrows {
        let letters = Array("LaSErBeAmZ")
        let accented: [Character: Character] = ["a": "á", "E": "É", "e": "è"]
        var random = SplitMix64(seed: 2017)
        for index in 0..<rows {
            var text = letters.shuffled(using: &random)
            if index % 10 == 0 { text = text.map { accented[$0] ?? $0 } }
            try body(index, String(text))
        }
    }

    // MARK: Raw C API

    static func prepareRaw(_ path: String) {
        let db = RawSQLite.open(path)
        RawSQLite.exec(db, "CREATE TABLE ZCARD (Z_PK INTEGER PRIMARY KEY, Z_OPT INTEGER, ZTEXT TEXT)")
        RawSQLite.exec(db, "BEGIN")
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO ZCARD (Z_PK, Z_OPT, ZTEXT) VALUES (?, 1, ?)", -1, &statement, nil)
        texts { index, text in
            sqlite3_bind_int64(statement, 1, Int64(index + 1))
            sqlite3_bind_text(statement, 2, text, -1, RawSQLite.transient)
            precondition(sqlite3_step(statement) == SQLITE_DONE)
            sqlite3_reset(statement)
        }
        sqlite3_finalize(statement)
        RawSQLite.exec(db, "COMMIT")
        RawSQLite.close(db)
    }

    /// Reads the text of every match; returns how many matched.
    static func searchRaw(_ db: OpaquePointer) -> Int {
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, "SELECT Z_PK, ZTEXT FROM ZCARD WHERE ZTEXT LIKE ? AND ZTEXT LIKE ? AND ZTEXT LIKE ?", -1,
                           &statement, nil)
        for (position, term) in terms.enumerated() {
            sqlite3_bind_text(statement, Int32(position + 1), "%\(term)%", -1, RawSQLite.transient)
        }
        var found = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            if sqlite3_column_text(statement, 1) != nil { found += 1 }
        }
        sqlite3_finalize(statement)
        return found
    }

    // MARK: GRDB

    static func prepareGRDB(_ path: String) throws {
        let queue = try GRDBWorkload.open(path)
        try queue.write { db in
            try db.create(table: "card") { table in
                table.column("id", .integer).primaryKey()
                table.column("text", .text).notNull()
            }
            let statement = try db.cachedStatement(sql: "INSERT INTO card (id, text) VALUES (?, ?)")
            try texts { index, text in try statement.execute(arguments: [Int64(index + 1), text]) }
        }
    }

    static func searchGRDB(_ queue: DatabaseQueue) throws -> Int {
        try queue.read { db in
            var request = Table("card").select(Column("text"))
            for term in terms { request = request.filter(Column("text").like("%\(term)%")) }
            let texts = try String.fetchCursor(db, request)
            var found = 0
            while let text = try texts.next() {
                if !text.isEmpty { found += 1 }
            }
            return found
        }
    }

    // MARK: Persistence

    static func container(path: String) throws -> PersistentContainer {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Card", managedObjectClass: BenchCard.self,
                              properties: [.attribute("text", .string, optional: false)]),
        ])
        return try Workload.loadContainer(model: model, path: path)
    }

    static func preparePersistence(_ path: String) throws {
        let context = try container(path: path).newBackgroundContext()
        var pending: [(Int, String)] = []
        texts { index, text in pending.append((index, text)) }
        var next = 0
        let insert = BatchInsertRequest(entityName: "Card") { row in
            guard next < pending.count else { return true }
            row["text"] = pending[next].1
            next += 1
            return false
        }
        try context.performAndWait { _ = try context.execute(insert) }
    }

    /// Fetches the matches and reads each one's text; returns how many matched.
    static func searchPersistence(_ context: ManagedObjectContext) throws -> Int {
        try context.performAndWait {
            let request = FetchRequest<BenchCard>(entityName: "Card")
            request.predicate = FetchPredicate(
                format: "text CONTAINS[cd] %@ AND text CONTAINS[cd] %@ AND text CONTAINS[cd] %@", terms[0], terms[1], terms[2])
            return try context.fetch(request).reduce(0) { $0 + ($1.text.isEmpty ? 0 : 1) }
        }
    }
}

/// A small seeded generator, so every side and every run fills the same texts.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
