internal import CSQLite
import Foundation

/// Swift functions callable from SQL. Predicates use one so that string comparisons in SQL run the very code
/// the in-memory evaluator runs.
extension SQLiteConnection {
    /// The Swift side of a registered function; an error becomes an SQL error with its description.
    typealias Function = ([SQLiteValue]) throws -> SQLiteValue

    private final class FunctionBox {
        let body: Function
        init(_ body: @escaping Function) { self.body = body }
    }

    /// Registers a deterministic scalar function `name` taking `argumentCount` arguments.
    func registerFunction(_ name: String, argumentCount: Int32, _ body: @escaping Function) throws {
        let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
        let rc = sqlite3_create_function_v2(
            handle, name, argumentCount, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
            { context, count, values in
                let box = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                var arguments: [SQLiteValue] = []
                arguments.reserveCapacity(Int(count))
                for index in 0..<Int(count) { arguments.append(SQLiteConnection.value(of: values![index])) }
                do {
                    switch try box.body(arguments) {
                    case .null: sqlite3_result_null(context)
                    case .integer(let v): sqlite3_result_int64(context, v)
                    case .real(let v): sqlite3_result_double(context, v)
                    case .text(let v):
                        SQLiteStatement.withUTF8(v) { sqlite3_result_text64(context, $0, $1, csqlite_transient(), UInt8(SQLITE_UTF8)) }
                    case .blob(let v):
                        v.withUnsafeBytes { sqlite3_result_blob64(context, $0.baseAddress, sqlite3_uint64($0.count), csqlite_transient()) }
                    }
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            },
            nil, nil,
            { box in if let box { Unmanaged<FunctionBox>.fromOpaque(box).release() } })
        try check(rc, sql: "function \(name)")
    }

    fileprivate static func value(of value: OpaquePointer?) -> SQLiteValue {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(value) else { return .text("") }
            let count = Int(sqlite3_value_bytes(value))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard count > 0, let bytes = sqlite3_value_blob(value) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }
}
