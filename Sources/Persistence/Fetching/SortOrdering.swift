import Foundation

/// Orders stored values the way SQLite's `ORDER BY` does, so a sort done in memory (for unsaved objects)
/// agrees with one done by the store.
enum SortOrdering {
    static func compare(_ lhs: PersistentValue, _ rhs: PersistentValue, caseInsensitive: Bool) -> ComparisonResult {
        switch (lhs, rhs) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.string(let a), .string(let b)):
            return caseInsensitive ? bytes(Array(a.utf8).map(asciiLower), Array(b.utf8).map(asciiLower)) : bytes(Array(a.utf8), Array(b.utf8))
        case (.data(let a), .data(let b)): return bytes(Array(a), Array(b))
        case (.uuid(let a), .uuid(let b)):
            return bytes(withUnsafeBytes(of: a.uuid) { Array($0) }, withUnsafeBytes(of: b.uuid) { Array($0) })
        case (.uri(let a), .uri(let b)): return bytes(Array(a.absoluteString.utf8), Array(b.absoluteString.utf8))
        case (.date(let a), .date(let b)): return order(a, b)
        case (.decimal(let a), .decimal(let b)): return order(a, b)
        default:
            guard let a = number(lhs), let b = number(rhs) else { return .orderedSame }
            return order(a, b)
        }
    }

    private static func number(_ value: PersistentValue) -> Double? {
        switch value {
        case .integer(let v): return Double(v)
        case .double(let v): return v
        case .bool(let v): return v ? 1 : 0
        case .decimal(let v): return NSDecimalNumber(decimal: v).doubleValue
        default: return nil
        }
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
    }

    private static func bytes(_ a: [UInt8], _ b: [UInt8]) -> ComparisonResult {
        for (x, y) in zip(a, b) where x != y { return x < y ? .orderedAscending : .orderedDescending }
        return order(a.count, b.count)
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (65...90).contains(byte) ? byte + 32 : byte
    }
}
