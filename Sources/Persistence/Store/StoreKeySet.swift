/// A set of primary keys, handed to the store as a plain value: a bitmap over the keys from 1 (the keys a context
/// registers are close together), and a hash set for keys too far out for it.
struct StoreKeySet {
    private var words: [UInt64] = []
    private var far: Set<Int64> = []
    /// Keys below this go in the bitmap (at most 512 KB of it).
    private static let bitmapLimit: Int64 = 1 << 22

    @inline(__always)
    func contains(_ key: Int64) -> Bool {
        guard key > 0, key < Self.bitmapLimit else { return far.contains(key) }
        let word = Int(key >> 6)
        return word < words.count && words[word] & (1 << UInt64(key & 63)) != 0
    }

    mutating func insert(_ key: Int64) {
        guard key > 0, key < Self.bitmapLimit else {
            far.insert(key)
            return
        }
        let word = Int(key >> 6)
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: max(word + 1, 2 * words.count) - words.count)) }
        words[word] |= 1 << UInt64(key & 63)
    }
}
