import Foundation

/// What a lightweight migration does to a store, as SQL: checks that the data can move, then statements that move
/// it, all run by the store in one SQLite transaction (see `SQLiteStore.migrate`). Plain values only, so the plan
/// can be read, printed and tested apart from any store.
///
/// The statements come in this order: temporary tables of relationship links read from the old tables; new tables
/// (under temporary names) filled with `INSERT … SELECT` from the old ones; tables kept in place changed with
/// `ALTER TABLE` (columns dropped, renamed, added) and `UPDATE`; old tables dropped; new tables renamed to their
/// final names; the key counters (`Z_PRIMARYKEY`) rewritten. The store then brings the indexes to
/// ``expectedIndexes`` and writes the new model's metadata.
struct MigrationPlan: CustomStringConvertible {
    /// A query counting rows that cannot move; more than none fails the migration (134110) with `failure`.
    struct Check {
        let sql: String
        let failure: String
        let entityName: String
        let key: String?
    }

    /// Statements that only read the old tables (into temporary tables); run before the checks.
    var prelude: [String] = []
    var checks: [Check] = []
    var statements: [String] = []
    /// Every index of the new model, by name, with the statement that creates it.
    var expectedIndexes: [(name: String, sql: String)] = []

    var description: String {
        (prelude + checks.map { "CHECK \($0.sql) -- \($0.failure)" } + statements + expectedIndexes.map(\.sql)).joined(separator: ";\n")
    }
}
