internal import CSQLite
import Foundation

/// The SQL debug log's view of one statement: the SQL as it starts a run, the values bound to it, and the plan
/// SQLite chose for it. Only reached while the log is on.
extension SQLiteStatement {
    /// Writes the statement as it starts a run — `CoreData: sql: …`, then (level 2 and up) each bound value, then
    /// (level 4) the query plan of a query — and notes the time, for the annotations that follow its rows.
    @inline(never)
    func logStart() {
        let level = PersistenceDebugLog.sqlLevel
        guard level > 0 else { return }
        PersistenceDebugLog.write("CoreData: sql: " + sql)
        if level >= 2 {
            let count = sqlite3_bind_parameter_count(handle)
            if count > 0 {
                for index in 1...count {
                    let value = debugBindings[index] ?? .null
                    PersistenceDebugLog.write("CoreData: details: SQLite bind[\(index - 1)] = \(value.debugLogDescription)")
                }
            }
        }
        if level >= 4 && columnCount > 0 && sqlite3_stmt_readonly(handle) != 0 { logQueryPlan() }
        debugStarted = DispatchTime.now().uptimeNanoseconds
    }

    /// Seconds since the current run started (see ``logStart()``).
    var debugSecondsSinceStart: Double {
        debugStarted == 0 ? 0 : Double(DispatchTime.now().uptimeNanoseconds &- debugStarted) / 1e9
    }

    /// Writes SQLite's plan for this query: one `CoreData: details: SQLite:` line per step, indented by depth.
    /// Prepared and run directly on the connection, so that it is not itself logged.
    private func logQueryPlan() {
        var plan: OpaquePointer?
        guard sqlite3_prepare_v2(connection.handle, "EXPLAIN QUERY PLAN " + sql, -1, &plan, nil) == SQLITE_OK,
              let plan else { return }
        defer { sqlite3_finalize(plan) }
        PersistenceDebugLog.write("CoreData: details: SQLite: EXPLAIN QUERY PLAN " + sql)
        var depth: [Int32: Int] = [0: 0]
        while sqlite3_step(plan) == SQLITE_ROW {
            let id = sqlite3_column_int(plan, 0)
            let parent = sqlite3_column_int(plan, 1)
            let level = (depth[parent] ?? 0) + 1
            depth[id] = level
            let detail = sqlite3_column_text(plan, 3).map { String(cString: $0) } ?? ""
            PersistenceDebugLog.write("CoreData: details: SQLite: " + String(repeating: "  ", count: level - 1) + detail)
        }
    }
}
