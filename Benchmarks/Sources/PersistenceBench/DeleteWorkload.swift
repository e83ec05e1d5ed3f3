import Foundation
import GRDB
@_spi(ModelBuilding) import Persistence
import SQLite3C

final class BenchDeck: ManagedObject {
    @Managed var name: String
    @Managed var cards: Set<BenchDeckCard>
}

final class BenchDeckCard: ManagedObject {
    @Managed var front: String
    @Managed var deck: BenchDeck?
}

/// Document 004's delete on every side: 10,000 decks of 10 cards each, every deck deleted with its cards. Each
/// repetition starts from a copy of a prepared store, so only the delete is timed.
enum DeleteWorkload {
    static let decks = 10_000
    static let cardsPerDeck = 10

    // MARK: Raw C API: the bulk delete every other way is compared with

    static func prepareRaw(_ path: String) {
        let db = RawSQLite.open(path)
        RawSQLite.exec(db, "CREATE TABLE ZDECK (Z_PK INTEGER PRIMARY KEY, Z_OPT INTEGER, ZNAME TEXT)")
        RawSQLite.exec(db, "CREATE TABLE ZCARD (Z_PK INTEGER PRIMARY KEY, Z_OPT INTEGER, ZFRONT TEXT, ZDECK INTEGER)")
        RawSQLite.exec(db, "CREATE INDEX ZCARD_ZDECK_INDEX ON ZCARD (ZDECK)")
        RawSQLite.exec(db, "BEGIN")
        var deck: OpaquePointer?, card: OpaquePointer?
        sqlite3_prepare_v2(db, "INSERT INTO ZDECK (Z_PK, Z_OPT, ZNAME) VALUES (?, 1, ?)", -1, &deck, nil)
        sqlite3_prepare_v2(db, "INSERT INTO ZCARD (Z_PK, Z_OPT, ZFRONT, ZDECK) VALUES (?, 1, ?, ?)", -1, &card, nil)
        for number in 0..<decks {
            sqlite3_bind_int64(deck, 1, Int64(number + 1))
            sqlite3_bind_text(deck, 2, "Deck \(number)", -1, RawSQLite.transient)
            precondition(sqlite3_step(deck) == SQLITE_DONE)
            sqlite3_reset(deck)
            for side in 0..<cardsPerDeck {
                sqlite3_bind_int64(card, 1, Int64(number * cardsPerDeck + side + 1))
                sqlite3_bind_text(card, 2, "Card \(side) of deck \(number)", -1, RawSQLite.transient)
                sqlite3_bind_int64(card, 3, Int64(number + 1))
                precondition(sqlite3_step(card) == SQLITE_DONE)
                sqlite3_reset(card)
            }
        }
        sqlite3_finalize(deck)
        sqlite3_finalize(card)
        RawSQLite.exec(db, "COMMIT")
        RawSQLite.close(db)
    }

    /// Deletes every deck and the cards that belong to one, in one transaction; returns the cards left.
    static func deleteRaw(_ db: OpaquePointer) -> Int {
        RawSQLite.exec(db, "BEGIN")
        RawSQLite.exec(db, "DELETE FROM ZCARD WHERE ZDECK IN (SELECT Z_PK FROM ZDECK)")
        RawSQLite.exec(db, "DELETE FROM ZDECK")
        RawSQLite.exec(db, "COMMIT")
        return RawSQLite.count(db, "ZCARD")
    }

    // MARK: GRDB: its record layer, with the cascade declared as a foreign key

    static func prepareGRDB(_ path: String) throws {
        let queue = try GRDBWorkload.open(path)
        try queue.write { db in
            try db.create(table: "deck") { table in
                table.column("id", .integer).primaryKey()
                table.column("name", .text).notNull()
            }
            try db.create(table: "card") { table in
                table.column("id", .integer).primaryKey()
                table.column("front", .text).notNull()
                table.belongsTo("deck", onDelete: .cascade)
            }
            let deck = try db.cachedStatement(sql: "INSERT INTO deck (id, name) VALUES (?, ?)")
            let card = try db.cachedStatement(sql: "INSERT INTO card (id, front, deckId) VALUES (?, ?, ?)")
            for number in 0..<decks {
                try deck.execute(arguments: [Int64(number + 1), "Deck \(number)"])
                for side in 0..<cardsPerDeck {
                    try card.execute(arguments: [Int64(number * cardsPerDeck + side + 1), "Card \(side) of deck \(number)",
                                                 Int64(number + 1)])
                }
            }
        }
    }

    static func deleteGRDB(_ queue: DatabaseQueue) throws -> Int {
        try queue.write { db in
            _ = try Table("deck").deleteAll(db)
            return try Table("card").fetchCount(db)
        }
    }

    // MARK: Persistence

    static func container(path: String) throws -> PersistentContainer {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(name: "Deck", managedObjectClass: BenchDeck.self, properties: [
                .attribute("name", .string, optional: false),
                .toMany("cards", "Card", inverse: "deck", deleteRule: .cascade),
            ]),
            EntityDescription(name: "Card", managedObjectClass: BenchDeckCard.self, properties: [
                .attribute("front", .string, optional: false),
                .toOne("deck", "Deck", inverse: "cards", deleteRule: .nullify),
            ]),
        ])
        return try Workload.loadContainer(model: model, path: path)
    }

    static func preparePersistence(_ path: String) throws {
        let context = try container(path: path).newBackgroundContext()
        try context.performAndWait {
            for number in 0..<decks {
                let deck = BenchDeck(context: context)
                deck.name = "Deck \(number)"
                for side in 0..<cardsPerDeck {
                    let card = BenchDeckCard(context: context)
                    card.front = "Card \(side) of deck \(number)"
                    card.deck = deck
                }
                if number % 1_000 == 999 {
                    try context.save()
                    context.reset()
                }
            }
            try context.save()
        }
    }

    static func cardsLeft(_ container: PersistentContainer) throws -> Int {
        let reader = container.newBackgroundContext()
        return try reader.performAndWait { try reader.count(for: FetchRequest<BenchDeckCard>(entityName: "Card")) }
    }

    /// Fetches every deck in `context`, deletes it (its cards cascade in memory) and saves.
    static func deleteObjects(in context: ManagedObjectContext) throws {
        try context.performAndWait {
            for deck in try context.fetch(FetchRequest<BenchDeck>(entityName: "Deck")) { context.delete(deck) }
            try context.save()
        }
    }

    static func deleteThroughChild(_ container: PersistentContainer) throws -> Int {
        let parent = container.newBackgroundContext()
        let child = ManagedObjectContext(.privateQueue)
        child.parent = parent
        try deleteObjects(in: child)
        try parent.performAndWait { try parent.save() }
        return try cardsLeft(container)
    }

    static func deleteThroughContext(_ container: PersistentContainer) throws -> Int {
        try deleteObjects(in: container.newBackgroundContext())
        return try cardsLeft(container)
    }

    static func batchDelete(_ container: PersistentContainer) throws -> Int {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            _ = try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest<FetchRequestResult>(entityName: "Deck")))
        }
        return try cardsLeft(container)
    }
}
