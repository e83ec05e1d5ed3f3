internal import CSQLite
import Foundation

/// Swift functions callable from SQL. Predicates use one so that string comparisons in SQL run the very code
/// the in-memory evaluator runs.
extension SQLiteConnection {
    /// The Swift side of a function of two integers and two texts (a string predicate): the texts arrive as their
    /// UTF-8 bytes, valid only during the call, so a search over millions of rows copies none of them. It answers
    /// an integer, or nil for NULL.
    typealias TextFunction = (_ first: Int64, _ second: Int64, _ left: UnsafeBufferPointer<UInt8>,
                              _ right: UnsafeBufferPointer<UInt8>) throws -> Int64?

    private final class TextFunctionBox {
        let body: TextFunction
        init(_ body: @escaping TextFunction) { self.body = body }
    }

    /// Registers a deterministic function `name(integer, integer, text, text)`. The integers reach `body` as SQLite
    /// converts them (a text or NULL reads as 0, which `body` should refuse); a third or fourth argument that is not
    /// text (NULL, a number, a blob) gives NULL.
    func registerTextFunction(_ name: String, _ body: @escaping TextFunction) throws {
        let box = Unmanaged.passRetained(TextFunctionBox(body)).toOpaque()
        let rc = sqlite3_create_function_v2(
            handle, name, 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, values in
                // The connection keeps the box alive while the function is registered: no retain per row.
                let box = Unmanaged<TextFunctionBox>.fromOpaque(sqlite3_user_data(context))
                guard count == 4, let values else {
                    sqlite3_result_error(context, "expects two integers and two texts", -1)
                    return
                }
                // The integers are not type-checked: every row would pay for it, and the body rejects codes it
                // does not know (a non-integer reads as 0).
                guard sqlite3_value_type(values[2]) == SQLITE_TEXT, sqlite3_value_type(values[3]) == SQLITE_TEXT else {
                    sqlite3_result_null(context)
                    return
                }
                // sqlite3_value_text before sqlite3_value_bytes, as SQLite's documentation asks.
                let leftText = sqlite3_value_text(values[2])
                let left = UnsafeBufferPointer(start: leftText, count: Int(sqlite3_value_bytes(values[2])))
                let rightText = sqlite3_value_text(values[3])
                let right = UnsafeBufferPointer(start: rightText, count: Int(sqlite3_value_bytes(values[3])))
                do {
                    let result = try box._withUnsafeGuaranteedRef { box in
                        try box.body(sqlite3_value_int64(values[0]), sqlite3_value_int64(values[1]), left, right)
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
            nil, nil,
            { box in if let box { Unmanaged<TextFunctionBox>.fromOpaque(box).release() } })
        try check(rc, sql: "function \(name)")
    }
}
