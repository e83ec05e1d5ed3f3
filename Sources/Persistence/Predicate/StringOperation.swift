/// One string operator of a predicate. The SQL store names its functions by the raw value
/// (`PST_STRING_6_3` is `CONTAINS[cd]`), and the C side of those functions answers some operators by it.
enum StringOperation: Int64, Sendable, CaseIterable {
    case equal = 1, less, lessOrEqual, greater, greaterOrEqual, contains, beginsWith, endsWith, like, matches
}

/// The string operators applied to two strings, or to their UTF-8 bytes.
extension StringComparison {

    /// `left <operation> right` under the options.
    static func evaluate(_ operation: StringOperation, _ left: String, _ right: String, options: Options) throws -> Bool {
        switch operation {
        case .equal: return equals(left, right, options: options)
        case .less: return compare(left, right, options: options) == .orderedAscending
        case .lessOrEqual: return compare(left, right, options: options) != .orderedDescending
        case .greater: return compare(left, right, options: options) == .orderedDescending
        case .greaterOrEqual: return compare(left, right, options: options) != .orderedAscending
        case .contains: return contains(left, right, options: options)
        case .beginsWith: return beginsWith(left, right, options: options)
        case .endsWith: return endsWith(left, right, options: options)
        case .like: return like(left, pattern: right, options: options)
        case .matches: return try matches(left, regex: right, options: options)
        }
    }

    /// The same on UTF-8 bytes, as SQLite hands a function its text. When both are ASCII — most rows of most data —
    /// they are compared where they lie, with no string made; otherwise they become strings (invalid UTF-8
    /// repaired, as a string read from the store would be) and take the path above, so the answer is the same.
    static func evaluate(_ operation: StringOperation, utf8 left: UnsafeBufferPointer<UInt8>,
                         _ right: UnsafeBufferPointer<UInt8>, options: Options) throws -> Bool {
        guard operation != .matches, isASCII(left), isASCII(right) else {
            // Latin-1 text (Western European accents) folds byte by byte through a table, still without strings.
            let folding = options.folding
            if operation != .matches, !folding.isEmpty,
               let answer = Latin1Folding.withFolded(left, options: folding, { foldedLeft in
                   Latin1Folding.withFolded(right, options: folding) { foldedRight in
                       evaluateFolded(operation, foldedLeft, foldedRight)
                   }
               }), let answer {
                return answer
            }
            return try evaluate(operation, String(decoding: left, as: UTF8.self), String(decoding: right, as: UTF8.self),
                                options: options)
        }
        // ASCII has no diacritics: only case folding is left to do.
        let foldCase = options.contains(.caseInsensitive)
        switch operation {
        case .equal: return equalBytes(left, right, foldCase)
        case .less: return compareBytes(left, right, foldCase) == .orderedAscending
        case .lessOrEqual: return compareBytes(left, right, foldCase) != .orderedDescending
        case .greater: return compareBytes(left, right, foldCase) == .orderedDescending
        case .greaterOrEqual: return compareBytes(left, right, foldCase) != .orderedAscending
        case .contains: return containsBytes(left, right, foldCase)
        case .beginsWith: return beginsWithBytes(left, right, foldCase)
        case .endsWith: return endsWithBytes(left, right, foldCase)
        case .like: return wildcardMatch(left, right, foldCase: foldCase)
        case .matches: return try evaluate(operation, String(decoding: left, as: UTF8.self),
                                           String(decoding: right, as: UTF8.self), options: options)
        }
    }

    /// An operation other than `MATCHES` on bytes already folded: compared exactly.
    private static func evaluateFolded(_ operation: StringOperation, _ left: UnsafeBufferPointer<UInt8>,
                                       _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        switch operation {
        case .equal: return equalBytes(left, right, false)
        case .less: return compareBytes(left, right, false) == .orderedAscending
        case .lessOrEqual: return compareBytes(left, right, false) != .orderedDescending
        case .greater: return compareBytes(left, right, false) == .orderedDescending
        case .greaterOrEqual: return compareBytes(left, right, false) != .orderedAscending
        case .contains: return containsBytes(left, right, false)
        case .beginsWith: return beginsWithBytes(left, right, false)
        case .endsWith: return endsWithBytes(left, right, false)
        case .like: return wildcardMatch(left, right, foldCase: false)
        case .matches: return false  // never called: MATCHES needs the regular expression engine
        }
    }
}
