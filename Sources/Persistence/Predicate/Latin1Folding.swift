import Foundation

/// Folding for strings whose characters all lie in Latin-1 (U+0000–U+00FF): the accented letters of most Western
/// European text. Each character folds on its own there — Latin-1 has no combining marks and no letter whose
/// folding depends on its neighbours — so a table made once, by asking Foundation to fold each of the 256
/// characters, folds such a string exactly as Foundation would, without its cost on every call.
enum Latin1Folding {
    /// The folded UTF-8 bytes of each Latin-1 character, indexed by the folding's raw value (`[c]` 1, `[d]` 2,
    /// `[cd]` 3; 0, no folding, is empty). An array, not a dictionary: SQL functions look a table up on every row.
    private static let tables: [[[UInt8]]] = (0..<4).map { raw -> [[UInt8]] in
        let folding = StringComparison.Options(rawValue: UInt8(raw))
        guard !folding.isEmpty else { return [] }
        var foundationOptions: String.CompareOptions = []
        if folding.contains(.caseInsensitive) { foundationOptions.insert(.caseInsensitive) }
        if folding.contains(.diacriticInsensitive) { foundationOptions.insert(.diacriticInsensitive) }
        return (0..<256).map { code in
            Array(String(Character(Unicode.Scalar(UInt8(code)))).folding(options: foundationOptions, locale: nil).utf8)
        }
    }

    /// The table of `folding` (which holds only `[c]` and `[d]`), or nil for no folding.
    @inline(__always)
    private static func table(_ folding: StringComparison.Options) -> [[UInt8]]? {
        let raw = Int(folding.rawValue)
        guard raw > 0 && raw < tables.count else { return nil }
        return tables[raw]
    }

    /// The tables flattened for C: `width` bytes per character and a count per character, for each folding raw
    /// value 0–3 (0 empty), or nil when a folded character is longer than `width` bytes.
    static func flattened(width: Int) -> (bytes: [UInt8], counts: [UInt8])? {
        var bytes = [UInt8](repeating: 0, count: 4 * 256 * width)
        var counts = [UInt8](repeating: 0, count: 4 * 256)
        for (raw, table) in tables.enumerated() where !table.isEmpty {
            for (code, folded) in table.enumerated() {
                guard folded.count <= width else { return nil }
                counts[raw * 256 + code] = UInt8(folded.count)
                for (offset, byte) in folded.enumerated() { bytes[(raw * 256 + code) * width + offset] = byte }
            }
        }
        return (bytes, counts)
    }

    /// The most UTF-8 bytes one input byte can fold into, per folding (a bound for folding into a buffer).
    private static let expansion: [Int] = tables.map { table in
        guard !table.isEmpty else { return 1 }
        // A character of one byte (ASCII) or two (the rest of Latin-1) becomes at most this many bytes per byte.
        let ascii = table[0..<0x80].map(\.count).max() ?? 1
        let rest = table[0x80...].map { ($0.count + 1) / 2 }.max() ?? 1
        return max(ascii, rest, 1)
    }

    /// Calls `body` with `bytes` (UTF-8) folded into a temporary buffer — the same bytes ``fold(_:options:)`` gives,
    /// without making a string — or returns nil, calling nothing, when a character lies outside Latin-1 or the
    /// bytes are not valid UTF-8. (SQL string functions fold every row this way.)
    static func withFolded<R>(_ bytes: UnsafeBufferPointer<UInt8>, options folding: StringComparison.Options,
                              _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        guard let table = table(folding) else { return nil }
        let bound = expansion[Int(folding.rawValue)]
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count * bound, 1)) { buffer -> R? in
            var count = 0
            let decoded = forEachCode(in: bytes) { code in
                for byte in table[code] {
                    buffer[count] = byte
                    count += 1
                }
            }
            return decoded ? body(UnsafeBufferPointer(rebasing: buffer[0..<count])) : nil
        }
    }

    /// `bytes` (UTF-8) folded, or nil when a character lies outside Latin-1 or the bytes are not valid UTF-8.
    static func fold(_ bytes: UnsafeBufferPointer<UInt8>, options folding: StringComparison.Options) -> String? {
        guard let table = table(folding) else { return nil }
        var folded: [UInt8] = []
        folded.reserveCapacity(bytes.count + 4)
        guard forEachCode(in: bytes, { folded.append(contentsOf: table[$0]) }) else { return nil }
        return String(decoding: folded, as: UTF8.self)
    }

    /// Calls `body` with each character of `bytes` (UTF-8) as its Latin-1 code, 0 to 255; stops and returns false
    /// at a character outside Latin-1 or at bytes that are not valid UTF-8. Inlined into both folds, so the SQL
    /// functions' loop stays one loop.
    @inline(__always)
    private static func forEachCode(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Void) -> Bool {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                body(Int(lead))
                index += 1
            } else if (lead == 0xC2 || lead == 0xC3), index + 1 < bytes.count, bytes[index + 1] & 0xC0 == 0x80 {
                body(Int(lead & 0x1F) << 6 | Int(bytes[index + 1] & 0x3F))
                index += 2
            } else {
                return false
            }
        }
        return true
    }
}
