import Foundation

/// The string operations of predicates: folding for the `[c]` and `[d]` options, equality and ordering, substring
/// tests, `LIKE` wildcards and `MATCHES` regular expressions.
///
/// In-memory evaluation calls these, and the SQL store registers SQLite functions that call exactly these, so a
/// predicate gives the same answer in memory and in SQL.
///
/// Rules shared by every entry point:
/// - Comparison is literal, on the UTF-8 bytes of the (folded) strings: no Unicode normalization, like NSString's
///   literal comparison and SQLite's `BINARY` collation. Ordering is therefore by Unicode scalar value.
/// - `[c]` folds case and `[d]` removes diacritics, as Foundation's `folding(options:locale:)` with a `nil` locale
///   does (so `ß` matches `ss` under `[c]`). Pure-ASCII strings take a fast path that needs no allocation:
///   Foundation's folding costs microseconds per call on Linux, which would dominate a search over millions of rows.
/// - `[n]` (strings already normalized) is accepted and has no effect: comparison is literal anyway.
/// - An empty substring, prefix or suffix matches nothing, as with NSString (`"abc" CONTAINS ""` is false).
enum StringComparison {
    /// The comparison options of a predicate operator: `[c]`, `[d]`, `[n]` in any combination.
    struct Options: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `[c]`: case-insensitive.
        static let caseInsensitive = Options(rawValue: 1 << 0)
        /// `[d]`: diacritic-insensitive.
        static let diacriticInsensitive = Options(rawValue: 1 << 1)
        /// `[n]`: the strings are already normalized; accepted for compatibility, changes nothing.
        static let normalized = Options(rawValue: 1 << 2)

        /// The options that change how strings are folded before comparison.
        var folding: Options { intersection([.caseInsensitive, .diacriticInsensitive]) }
    }

    // MARK: Folding

    /// The string as the options see it: lowercased (case-folded) for `[c]`, without diacritics for `[d]`.
    static func fold(_ string: String, options: Options) -> String {
        let folding = options.folding
        guard !folding.isEmpty else { return string }
        if isASCII(string) {
            // ASCII has no diacritics; case folding is plain lowercasing.
            return folding.contains(.caseInsensitive) ? asciiLowercased(string) : string
        }
        var string = string
        if let folded = string.withUTF8({ Latin1Folding.fold($0, options: folding) }) { return folded }
        var foundationOptions: String.CompareOptions = []
        if folding.contains(.caseInsensitive) { foundationOptions.insert(.caseInsensitive) }
        if folding.contains(.diacriticInsensitive) { foundationOptions.insert(.diacriticInsensitive) }
        return string.folding(options: foundationOptions, locale: nil)
    }

    // MARK: Comparison

    /// `==` between two strings under the options.
    static func equals(_ lhs: String, _ rhs: String, options: Options = []) -> Bool {
        withComparableBytes(lhs, rhs, options, equalBytes)
    }

    /// The order of two strings under the options (for `<`, `<=`, `>`, `>=`, `BETWEEN` and sorting).
    static func compare(_ lhs: String, _ rhs: String, options: Options = []) -> ComparisonResult {
        withComparableBytes(lhs, rhs, options, compareBytes)
    }

    // MARK: Substrings

    /// `CONTAINS` between strings: `substring` occurs in `string`.
    static func contains(_ string: String, _ substring: String, options: Options = []) -> Bool {
        withComparableBytes(string, substring, options, containsBytes)
    }

    /// `BEGINSWITH`: `string` starts with `prefix`.
    static func beginsWith(_ string: String, _ prefix: String, options: Options = []) -> Bool {
        withComparableBytes(string, prefix, options, beginsWithBytes)
    }

    /// `ENDSWITH`: `string` ends with `suffix`.
    static func endsWith(_ string: String, _ suffix: String, options: Options = []) -> Bool {
        withComparableBytes(string, suffix, options, endsWithBytes)
    }

    // MARK: Patterns

    /// `LIKE`: the whole `string` matches `pattern`, where `*` matches any run of characters (also none), `?`
    /// matches exactly one character (one Unicode scalar) and `\` makes the next character literal.
    static func like(_ string: String, pattern: String, options: Options = []) -> Bool {
        withComparableBytes(string, pattern, options) { s, p, foldCase in
            wildcardMatch(s, p, foldCase: foldCase)
        }
    }

    /// `MATCHES`: the whole `string` matches the ICU regular expression `pattern` (NSRegularExpression syntax).
    /// `[c]` compiles the pattern case-insensitively; `[d]` removes diacritics from both the string and the pattern.
    /// Compiled patterns are cached.
    /// - Throws: ``FetchPredicateError`` (`.evaluation`) when the pattern is not a valid regular expression.
    static func matches(_ string: String, regex pattern: String, options: Options = []) throws -> Bool {
        let removeDiacritics = options.contains(.diacriticInsensitive)
        let subject = removeDiacritics ? fold(string, options: .diacriticInsensitive) : string
        let source = removeDiacritics ? fold(pattern, options: .diacriticInsensitive) : pattern
        let expression = try RegularExpressionCache.shared.expression(
            for: source, caseInsensitive: options.contains(.caseInsensitive))
        let range = NSRange(location: 0, length: subject.utf16.count)
        return expression.firstMatch(in: subject, options: [], range: range) != nil
    }

    /// Checks that `pattern` compiles, so a predicate can reject a bad `MATCHES` pattern when it is built.
    static func validateRegularExpression(_ pattern: String) throws {
        _ = try RegularExpressionCache.shared.expression(for: pattern, caseInsensitive: false)
    }

    // MARK: The operations on bytes

    /// The operations on the comparable bytes of two strings; `foldCase` asks for ASCII case folding.
    static func equalBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ foldCase: Bool) -> Bool {
        a.count == b.count && bytesEqual(a, 0, b, 0, count: b.count, foldCase: foldCase)
    }

    static func compareBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
                                     _ foldCase: Bool) -> ComparisonResult {
        for i in 0..<min(a.count, b.count) {
            let x = foldCase ? asciiLower(a[i]) : a[i]
            let y = foldCase ? asciiLower(b[i]) : b[i]
            if x != y { return x < y ? .orderedAscending : .orderedDescending }
        }
        if a.count == b.count { return .orderedSame }
        return a.count < b.count ? .orderedAscending : .orderedDescending
    }

    static func containsBytes(_ s: UnsafeBufferPointer<UInt8>, _ sub: UnsafeBufferPointer<UInt8>,
                                      _ foldCase: Bool) -> Bool {
        guard !sub.isEmpty, sub.count <= s.count else { return false }
        guard foldCase else {
            // Scan for the first byte, and compare the rest only where it occurs.
            let first = sub[0]
            let rest = sub.count - 1
            for start in 0...(s.count - sub.count) where s[start] == first {
                if bytesEqual(s, start + 1, sub, 1, count: rest, foldCase: false) { return true }
            }
            return false
        }
        // Folding case: the substring is lowered once (search terms are short; a long one is lowered in pieces of
        // the scan instead), then only the text's bytes are lowered as they are read.
        guard sub.count <= 32 else {
            let first = asciiLower(sub[0])
            for start in 0...(s.count - sub.count) where asciiLower(s[start]) == first {
                if bytesEqual(s, start + 1, sub, 1, count: sub.count - 1, foldCase: true) { return true }
            }
            return false
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: sub.count) { lowered in
            for k in 0..<sub.count { lowered[k] = asciiLower(sub[k]) }
            let first = lowered[0]
            scan: for start in 0...(s.count - sub.count) where asciiLower(s[start]) == first {
                for k in 1..<sub.count where asciiLower(s[start + k]) != lowered[k] { continue scan }
                return true
            }
            return false
        }
    }

    static func beginsWithBytes(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>,
                                        _ foldCase: Bool) -> Bool {
        !p.isEmpty && p.count <= s.count && bytesEqual(s, 0, p, 0, count: p.count, foldCase: foldCase)
    }

    static func endsWithBytes(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>,
                                      _ foldCase: Bool) -> Bool {
        !p.isEmpty && p.count <= s.count && bytesEqual(s, s.count - p.count, p, 0, count: p.count, foldCase: foldCase)
    }

    // MARK: Byte-level helpers

    /// Calls `body` with the UTF-8 bytes of both strings as the options see them, and whether bytes must still be
    /// compared ASCII-case-insensitively. When both strings are ASCII no folded copy is made.
    @inline(__always)
    private static func withComparableBytes<R>(
        _ lhs: String, _ rhs: String, _ options: Options,
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>, Bool) -> R
    ) -> R {
        let folding = options.folding
        var a = lhs, b = rhs
        if folding.isEmpty {
            return a.withUTF8 { bytesA in b.withUTF8 { bytesB in body(bytesA, bytesB, false) } }
        }
        let ascii = a.withUTF8 { bytesA in b.withUTF8 { bytesB in isASCII(bytesA) && isASCII(bytesB) } }
        if ascii {
            let foldCase = folding.contains(.caseInsensitive)
            return a.withUTF8 { bytesA in b.withUTF8 { bytesB in body(bytesA, bytesB, foldCase) } }
        }
        var foldedA = fold(a, options: folding), foldedB = fold(b, options: folding)
        return foldedA.withUTF8 { bytesA in foldedB.withUTF8 { bytesB in body(bytesA, bytesB, false) } }
    }

    private static func isASCII(_ string: String) -> Bool {
        var string = string
        return string.withUTF8(isASCII)
    }

    /// Eight bytes at a time: a byte is ASCII when its high bit is clear.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < bytes.count {
            if bytes[i] >= 0x80 { return false }
            i += 1
        }
        return true
    }

    @inline(__always)
    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    private static func asciiLowercased(_ string: String) -> String {
        guard string.utf8.contains(where: { $0 &- 0x41 < 26 }) else { return string }
        return String(decoding: string.utf8.map(asciiLower), as: UTF8.self)
    }

    @inline(__always)
    private static func bytesEqual(_ a: UnsafeBufferPointer<UInt8>, _ i: Int, _ b: UnsafeBufferPointer<UInt8>,
                                   _ j: Int, count: Int, foldCase: Bool) -> Bool {
        if foldCase {
            for k in 0..<count where asciiLower(a[i + k]) != asciiLower(b[j + k]) { return false }
        } else {
            for k in 0..<count where a[i + k] != b[j + k] { return false }
        }
        return true
    }

    /// The number of bytes of the UTF-8 sequence that starts with `lead`.
    @inline(__always)
    private static func scalarLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }

    /// Wildcard matching with backtracking to the last `*` only, which is enough because `*` can absorb any run.
    /// Every special character is ASCII, so multi-byte characters are matched byte by byte as literals; `?` and the
    /// retry after `*` advance by whole scalars so they never split a character.
    static func wildcardMatch(_ s: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>,
                                      foldCase: Bool) -> Bool {
        let star = UInt8(ascii: "*"), question = UInt8(ascii: "?"), backslash = UInt8(ascii: "\\")
        var si = 0, pi = 0
        var starPattern = -1, starSubject = 0
        while si < s.count {
            if pi < p.count {
                let pc = p[pi]
                if pc == star {
                    starPattern = pi
                    starSubject = si
                    pi += 1
                    continue
                }
                if pc == question {
                    si = min(s.count, si + scalarLength(s[si]))
                    pi += 1
                    continue
                }
                let escaped = pc == backslash && pi + 1 < p.count
                let literal = escaped ? p[pi + 1] : pc
                let equal = foldCase ? asciiLower(literal) == asciiLower(s[si]) : literal == s[si]
                if equal {
                    si += 1
                    pi += escaped ? 2 : 1
                    continue
                }
            }
            guard starPattern >= 0 else { return false }
            starSubject = min(s.count, starSubject + scalarLength(s[starSubject]))
            si = starSubject
            pi = starPattern + 1
        }
        while pi < p.count && p[pi] == star { pi += 1 }
        return pi == p.count
    }
}

/// Compiled regular expressions by pattern, shared by every thread. NSRegularExpression is immutable and documented
/// as safe to use from several threads; the lock guards only the dictionary.
private final class RegularExpressionCache: @unchecked Sendable {
    static let shared = RegularExpressionCache()

    private struct Key: Hashable {
        var pattern: String
        var caseInsensitive: Bool
    }

    /// Patterns are usually few and constant; the bound only stops unbounded growth from generated patterns.
    private let capacity = 256
    private let lock = NSLock()
    private var expressions: [Key: NSRegularExpression] = [:]

    func expression(for pattern: String, caseInsensitive: Bool) throws -> NSRegularExpression {
        let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
        if let cached = lock.withLock({ expressions[key] }) { return cached }
        // Anchored at both ends because MATCHES tests the whole string; the group keeps alternations inside.
        let anchored = "\\A(?:" + pattern + ")\\z"
        let expression: NSRegularExpression
        do {
            // The bare pattern is compiled first so that an unbalanced one such as `a)|(b` cannot escape the group.
            _ = try NSRegularExpression(pattern: pattern, options: [])
            expression = try NSRegularExpression(pattern: anchored, options: caseInsensitive ? [.caseInsensitive] : [])
        } catch {
            throw FetchPredicateError(.evaluation, "'\(pattern)' is not a valid regular expression")
        }
        lock.withLock {
            if expressions.count >= capacity { expressions.removeAll(keepingCapacity: true) }
            expressions[key] = expression
        }
        return expression
    }
}
