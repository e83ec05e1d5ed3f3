internal import CSQLite
internal import CPersistenceSupport
import Foundation

/// Swift functions callable from SQL. Predicates use them so that string comparisons in SQL run the very code
/// the in-memory evaluator runs.
extension SQLiteConnection {
    /// The Swift side of a predicate string operator: the operator's and the folding's numbers, then the two
    /// texts as their UTF-8 bytes, valid only during the call, so a search over millions of rows copies none of
    /// them. It answers an integer, or nil for NULL.
    typealias StringOperatorFunction = (_ operation: Int64, _ folding: Int64, _ left: UnsafeBufferPointer<UInt8>,
                                        _ right: UnsafeBufferPointer<UInt8>) throws -> Int64?

    private final class StringOperatorBox {
        let body: StringOperatorFunction
        init(_ body: @escaping StringOperatorFunction) { self.body = body }
    }

    /// Registers the deterministic function `name(text, text)` for one string operator under one folding (the
    /// numbers are passed to `body`). For ASCII and Latin-1 text, `=`, `CONTAINS`, `BEGINSWITH` and `ENDSWITH`
    /// are answered in C (CPersistenceSupport's string_function.c) without calling `body`; `body` answers
    /// everything else. An argument that is not text (NULL, a number, a blob) gives NULL.
    func registerStringOperatorFunction(_ name: String, operation: Int32, folding: Int32,
                                        _ body: @escaping StringOperatorFunction) throws {
        _ = Self.foldingTablesInstalled
        let box = Unmanaged.passRetained(StringOperatorBox(body)).toOpaque()
        let rc = persistence_create_string_function(
            handle, name, operation, folding, box,
            { box, operation, folding, context, count, values in
                // The function keeps the box alive while it is registered: no retain per row.
                guard let box else { return }
                let function = Unmanaged<StringOperatorBox>.fromOpaque(box)
                guard count == 2, let values else {
                    sqlite3_result_error(context, "expects two texts", -1)
                    return
                }
                guard sqlite3_value_type(values[0]) == SQLITE_TEXT, sqlite3_value_type(values[1]) == SQLITE_TEXT else {
                    sqlite3_result_null(context)
                    return
                }
                // sqlite3_value_text before sqlite3_value_bytes, as SQLite's documentation asks.
                let leftText = sqlite3_value_text(values[0])
                let left = UnsafeBufferPointer(start: leftText, count: Int(sqlite3_value_bytes(values[0])))
                let rightText = sqlite3_value_text(values[1])
                let right = UnsafeBufferPointer(start: rightText, count: Int(sqlite3_value_bytes(values[1])))
                do {
                    let result = try function._withUnsafeGuaranteedRef { function in
                        try function.body(Int64(operation), Int64(folding), left, right)
                    }
                    if let result {
                        sqlite3_result_int64(context, result)
                    } else {
                        sqlite3_result_null(context)
                    }
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            },
            { box in if let box { Unmanaged<StringOperatorBox>.fromOpaque(box).release() } })
        try check(rc, sql: "function \(name)")
    }

    /// Hands Latin1Folding's tables to string_function.c, once per process.
    private static let foldingTablesInstalled: Bool = {
        guard let tables = Latin1Folding.flattened(width: Int(PERSISTENCE_FOLD_WIDTH)) else { return false }
        persistence_set_folding_tables(tables.bytes, tables.counts)
        return true
    }()
}
