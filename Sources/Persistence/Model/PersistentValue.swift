import Foundation

/// A single stored value: what one attribute of one object holds, what a predicate argument becomes,
/// and what a dictionary fetch returns. It is `Sendable`, so it may cross contexts and queues.
public enum PersistentValue: Sendable, Hashable {
    /// No value (nil).
    case null
    /// Text.
    case string(String)
    /// An integer of any of the integer attribute types.
    case integer(Int64)
    /// A floating-point number (double and float attributes).
    case double(Double)
    /// A Boolean.
    case bool(Bool)
    /// A point in time.
    case date(Date)
    /// A UUID.
    case uuid(UUID)
    /// A URL (a URI attribute).
    case uri(URL)
    /// Bytes: binary data, and what a transformable attribute's transformer makes.
    case data(Data)
    /// A decimal number.
    case decimal(Decimal)

    /// `true` for `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as a Swift value (`String`, `Int64`, `Double`, `Bool`, `Date`, `UUID`, `URL`, `Data`, `Decimal`),
    /// or `nil` for `.null`.
    public var anyValue: Any? {
        switch self {
        case .null: return nil
        case .string(let v): return v
        case .integer(let v): return v
        case .double(let v): return v
        case .bool(let v): return v
        case .date(let v): return v
        case .uuid(let v): return v
        case .uri(let v): return v
        case .data(let v): return v
        case .decimal(let v): return v
        }
    }

    /// Wraps a Swift value, or returns `nil` when its type has no stored form.
    /// Integers of every width become `.integer`, `Float` becomes `.double`, `NSNull` and `nil` become `.null`.
    public init?(any value: Any?) {
        guard let value else { self = .null; return }
        switch value {
        case let v as PersistentValue: self = v
        case let v as String: self = .string(v)
        case let v as Substring: self = .string(String(v))
        case let v as Bool: self = .bool(v)
        case let v as Int: self = .integer(Int64(v))
        case let v as Int64: self = .integer(v)
        case let v as Int32: self = .integer(Int64(v))
        case let v as Int16: self = .integer(Int64(v))
        case let v as Int8: self = .integer(Int64(v))
        case let v as UInt8: self = .integer(Int64(v))
        case let v as UInt16: self = .integer(Int64(v))
        case let v as UInt32: self = .integer(Int64(v))
        case let v as UInt: 
            guard let i = Int64(exactly: v) else { return nil }
            self = .integer(i)
        case let v as UInt64:
            guard let i = Int64(exactly: v) else { return nil }
            self = .integer(i)
        case let v as Double: self = .double(v)
        case let v as Float: self = .double(Double(v))
        case let v as Date: self = .date(v)
        case let v as UUID: self = .uuid(v)
        case let v as URL: self = .uri(v)
        case let v as Data: self = .data(v)
        case let v as Decimal: self = .decimal(v)
        case is NSNull: self = .null
        default:
            // Optional<T> wrapped in Any: unwrap one level.
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                if let child = mirror.children.first { self.init(any: child.value) } else { self = .null }
                return
            }
            return nil
        }
    }

    /// A short name of the kind of value, for error messages.
    public var kindName: String {
        switch self {
        case .null: return "nil"
        case .string: return "string"
        case .integer: return "integer"
        case .double: return "double"
        case .bool: return "boolean"
        case .date: return "date"
        case .uuid: return "UUID"
        case .uri: return "URI"
        case .data: return "binary data"
        case .decimal: return "decimal"
        }
    }
}

extension PersistentValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: return "nil"
        case .string(let v): return "\"\(v)\""
        case .integer(let v): return String(v)
        case .double(let v): return String(v)
        case .bool(let v): return v ? "YES" : "NO"
        case .date(let v): return v.formatted(.iso8601)
        case .uuid(let v): return v.uuidString
        case .uri(let v): return v.absoluteString
        case .data(let v): return "<\(v.count) bytes>"
        case .decimal(let v): return "\(v)"
        }
    }
}
