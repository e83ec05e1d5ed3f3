/// Primary keys bound as a list of `?`s (`WHERE Z_PK IN (?, ?, …)`), a statement's worth at a time.
enum SQLKeyList {
    /// The most keys one statement binds. SQLite builds before 3.32 refuse more than 999 bound values, and a list
    /// of this size leaves room for the query's other arguments; a larger list gains next to nothing per key.
    static let maximumCount = 500

    /// `keys` in lists of at most ``maximumCount``.
    static func chunks<Key>(of keys: [Key]) -> [ArraySlice<Key>] {
        keys.chunked(into: maximumCount)
    }

    /// `?, ?, …`: `count` placeholders.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

extension Array {
    /// The array in consecutive slices of `size` elements (the last one shorter).
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
