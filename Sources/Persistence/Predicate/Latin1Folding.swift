import Foundation

/// Folding for strings whose characters all lie in Latin-1 (U+0000–U+00FF): the accented letters of most Western
/// European text. Each character folds on its own there — Latin-1 has no combining marks and no letter whose
/// folding depends on its neighbours — so a table made once, by asking Foundation to fold each of the 256
/// characters, folds such a string exactly as Foundation would, without its cost on every call.
enum Latin1Folding {
    /// The folded UTF-8 bytes of each Latin-1 character, per folding: `[c]`, `[d]`, `[cd]`.
    private static let tables: [[UInt8]: [[UInt8]]] = {
        var tables: [[UInt8]: [[UInt8]]] = [:]
        for folding: StringComparison.Options in [[.caseInsensitive], [.diacriticInsensitive],
                                                   [.caseInsensitive, .diacriticInsensitive]] {
            var foundationOptions: String.CompareOptions = []
            if folding.contains(.caseInsensitive) { foundationOptions.insert(.caseInsensitive) }
            if folding.contains(.diacriticInsensitive) { foundationOptions.insert(.diacriticInsensitive) }
            tables[[folding.rawValue]] = (0..<256).map { code in
                Array(String(Character(Unicode.Scalar(UInt8(code)))).folding(options: foundationOptions, locale: nil).utf8)
            }
        }
        return tables
    }()

    /// `bytes` (UTF-8) folded, or nil when a character lies outside Latin-1 or the bytes are not valid UTF-8.
    static func fold(_ bytes: UnsafeBufferPointer<UInt8>, options folding: StringComparison.Options) -> String? {
        guard let table = tables[[folding.rawValue]] else { return nil }
        var folded: [UInt8] = []
        folded.reserveCapacity(bytes.count + 4)
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let code: Int
            if lead < 0x80 {
                code = Int(lead)
                index += 1
            } else if (lead == 0xC2 || lead == 0xC3), index + 1 < bytes.count, bytes[index + 1] & 0xC0 == 0x80 {
                code = Int(lead & 0x1F) << 6 | Int(bytes[index + 1] & 0x3F)
                index += 2
            } else {
                return nil
            }
            folded.append(contentsOf: table[code])
        }
        return String(decoding: folded, as: UTF8.self)
    }
}
