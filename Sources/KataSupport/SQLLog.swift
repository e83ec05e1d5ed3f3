import Foundation
@_spi(TestHarness) import Persistence

/// What the SQL debug log — Core Data's `-com.apple.CoreData.SQLDebug 1`, which Persistence writes in the same
/// format — showed while some code ran: every statement the store ran, each fetch with the rows it read, the faults
/// filled from the store. A kata reads it to see *how* an answer was reached: whether the store filtered and sorted
/// (a `WHERE` and an `ORDER BY` in the SQL, only the rows needed read) or Swift did afterwards, whether a fetch read
/// whole rows or only IDs, whether a second call read the store again.
public struct SQLLog: Sendable {
    /// The lines, as the log wrote them.
    public let lines: [String]

    /// One fetch the store ran: its SQL and the number of rows it read.
    public struct Fetch: Sendable, CustomStringConvertible {
        /// The `SELECT` as it ran (`?` where a value was bound).
        public let sql: String
        /// The rows it read (`total fetch execution time: …s for N rows.`).
        public let rows: Int

        /// The table it reads (the first name after `FROM`), e.g. `ZPLANT`.
        public var table: String? {
            guard let from = sql.range(of: " FROM ") else { return nil }
            return sql[from.upperBound...].split(separator: " ").first.map(String.init)
        }

        /// The columns it selects, as written (`t0.Z_PK`, `t0.ZNAME`…).
        public var selectedColumns: [String] {
            guard sql.hasPrefix("SELECT "), let from = sql.range(of: " FROM ") else { return [] }
            return sql[sql.index(sql.startIndex, offsetBy: 7)..<from.lowerBound]
                .components(separatedBy: ", ").map { $0.trimmingCharacters(in: .whitespaces) }
        }

        /// The columns it selects besides the keys and the version (`Z_PK`, `Z_ENT`, `Z_OPT`): the attributes it
        /// reads. None for a fetch of IDs only.
        public var valueColumns: [String] {
            selectedColumns.filter { column in
                let name = column.split(separator: ".").last.map(String.init) ?? column
                return !["Z_PK", "Z_ENT", "Z_OPT"].contains(name)
            }
        }

        /// Its condition (what follows `WHERE`, up to `ORDER BY` or `LIMIT`), or nil.
        public var whereClause: String? { clause(after: " WHERE ", before: [" ORDER BY ", " LIMIT "]) }

        /// Its order (what follows `ORDER BY`, up to `LIMIT`), or nil.
        public var orderBy: String? { clause(after: " ORDER BY ", before: [" LIMIT "]) }

        private func clause(after keyword: String, before ends: [String]) -> String? {
            guard let start = sql.range(of: keyword) else { return nil }
            var end = sql.endIndex
            for word in ends {
                if let found = sql.range(of: word, range: start.upperBound..<sql.endIndex), found.lowerBound < end {
                    end = found.lowerBound
                }
            }
            return String(sql[start.upperBound..<end])
        }

        public var description: String { "\(sql) — \(rows) row\(rows == 1 ? "" : "s")" }
    }

    public init(lines: [String]) {
        self.lines = lines
    }

    /// Runs `body` with the SQL debug log on (level 1) and returns, with its result, what the log showed meanwhile
    /// — from every queue, so a fetch `body` hands to a background context is in it.
    public static func capture<T>(_ body: () throws -> T) rethrows -> (result: T, log: SQLLog) {
        let (result, lines) = try PersistenceDebugLog.capture(sqlDebugLevel: 1, body)
        return (result, SQLLog(lines: lines))
    }

    /// Every statement run, in order, as its SQL.
    public var statements: [String] {
        lines.compactMap { line in line.hasPrefix(Self.sql) ? String(line.dropFirst(Self.sql.count)) : nil }
    }

    /// Every fetch, in order: a `SELECT` followed by its row count.
    public var fetches: [Fetch] {
        var found: [Fetch] = []
        var current: String?
        for line in lines {
            if line.hasPrefix(Self.sql) {
                current = String(line.dropFirst(Self.sql.count))
            } else if line.hasPrefix(Self.total), let sql = current,
                      let rows = Int(line.split(separator: " ").dropLast().last ?? "") {
                found.append(Fetch(sql: sql, rows: rows))
            }
        }
        return found
    }

    /// The fetches that read `table` (e.g. `ZPLANT`).
    public func fetches(from table: String) -> [Fetch] {
        fetches.filter { $0.table == table }
    }

    /// The objects filled from the store one by one (`fault fulfilled from database for : <ID>`), as their IDs
    /// print.
    public var faultsFulfilled: [String] {
        lines.compactMap { line in line.hasPrefix(Self.fault) ? String(line.dropFirst(Self.fault.count)) : nil }
    }

    /// The log as it would print, indented, for a failure message (at most `limit` lines).
    public func quoted(limit: Int = 12) -> String {
        let shown = lines.prefix(limit).map { "    " + $0 }
        return (shown + (lines.count > limit ? ["    … (\(lines.count - limit) more lines)"] : [])).joined(separator: "\n")
    }

    private static let sql = "CoreData: sql: "
    private static let total = "CoreData: annotation: total fetch execution time: "
    private static let fault = "CoreData: annotation: fault fulfilled from database for : "
}
