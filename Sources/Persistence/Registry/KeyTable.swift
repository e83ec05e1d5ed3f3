/// An open-addressing hash table from positive keys (primary keys, temporary ID numbers) to objects.
///
/// The registry is hit once or twice for every object a fetch returns; a multiplicative hash of a 64-bit key and
/// linear probing cost a fraction of `Dictionary`'s seeded SipHash of a whole ``ManagedObjectID``.
struct KeyTable {
    private struct Entry {
        /// 0: never used; -1: removed; otherwise the key.
        var key: Int64 = 0
        var object: ManagedObject?
    }

    private var entries: [Entry] = []
    private(set) var count = 0
    /// Live entries plus removed ones: what the probe sequences see.
    private var occupied = 0

    /// Keys arrive in runs (primary keys and ID numbers are handed out in order), so each run of 16 keys goes to 16
    /// neighbouring slots — a few cache lines instead of one miss per key — while the runs themselves are scattered
    /// by a multiplicative hash, so keys with a stride still spread over the table.
    @inline(__always)
    private static func slot(for key: Int64, mask: Int) -> Int {
        let bits = UInt64(bitPattern: key)
        let runStart = ((bits >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 32
        return Int(truncatingIfNeeded: runStart &+ (bits & 15)) & mask
    }

    func object(for key: Int64) -> ManagedObject? {
        guard !entries.isEmpty else { return nil }
        let mask = entries.count - 1
        var index = Self.slot(for: key, mask: mask)
        while true {
            let entry = entries[index]
            if entry.key == key { return entry.object }
            if entry.key == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    mutating func insert(_ object: ManagedObject, for key: Int64) {
        precondition(key > 0, "keys are positive")
        if (occupied + 1) * 2 > entries.count { grow() }
        let mask = entries.count - 1
        var index = Self.slot(for: key, mask: mask)
        var reusable: Int?
        while true {
            let current = entries[index].key
            if current == key {
                entries[index].object = object
                return
            }
            if current == -1 && reusable == nil { reusable = index }
            if current == 0 { break }
            index = (index + 1) & mask
        }
        if let reusable {
            entries[reusable] = Entry(key: key, object: object)
        } else {
            entries[index] = Entry(key: key, object: object)
            occupied += 1
        }
        count += 1
    }

    @discardableResult
    mutating func remove(_ key: Int64) -> ManagedObject? {
        guard let index = index(of: key) else { return nil }
        return take(at: index)
    }

    var objects: [ManagedObject] { entries.compactMap(\.object) }

    /// Takes the object for `key` out and returns it when nothing besides this table holds it; nil otherwise.
    mutating func removeIfUnreferenced(_ key: Int64) -> ManagedObject? {
        guard let index = index(of: key), isKnownUniquelyReferenced(&entries[index].object) else { return nil }
        return take(at: index)
    }

    /// The slot holding `key`, if any.
    private func index(of key: Int64) -> Int? {
        guard !entries.isEmpty else { return nil }
        let mask = entries.count - 1
        var index = Self.slot(for: key, mask: mask)
        while true {
            let current = entries[index].key
            if current == key { return index }
            if current == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// Empties the slot at `index` (leaving a tombstone, so later keys of its run stay reachable) and returns its
    /// object.
    private mutating func take(at index: Int) -> ManagedObject? {
        let object = entries[index].object
        entries[index] = Entry(key: -1, object: nil)
        count -= 1
        return object
    }

    /// Takes out every object that nothing besides this table holds, calling `dropped` with each before letting
    /// go of it. Returns the number of entries looked at. An emptied table gives its memory back.
    @discardableResult
    mutating func dropUnreferenced(_ dropped: (ManagedObject) -> Void) -> Int {
        let visited = entries.count
        for index in entries.indices where entries[index].key > 0 {
            guard isKnownUniquelyReferenced(&entries[index].object) else { continue }
            dropped(take(at: index).unsafelyUnwrapped)
        }
        if count == 0 && !entries.isEmpty { removeAll() }
        return visited
    }

    /// Makes room for `additional` more objects at once (instead of growing step by step while they arrive).
    mutating func reserve(_ additional: Int) {
        let needed = (occupied + additional) * 2
        guard needed > entries.count else { return }
        var capacity = max(16, entries.count)
        while capacity < needed { capacity *= 2 }
        rehash(capacity: capacity)
    }

    mutating func removeAll() {
        entries = []
        count = 0
        occupied = 0
    }

    /// Rehashes into a table four times the live count.
    private mutating func grow() {
        rehash(capacity: max(16, count * 4))
    }

    /// Moves every live entry into a new table of `capacity` slots (a power of two). Live keys are distinct, so
    /// each goes to the first free slot of its probe sequence without comparisons; entries are swapped across rather
    /// than copied, so no object is retained and released on the way (a fetch of many rows grows the table often).
    private mutating func rehash(capacity: Int) {
        // All-zero bytes are an unused entry (key 0, no object): zeroing the memory costs less than copying an
        // empty entry into every slot, which retains and releases its nil object each time.
        var fresh = [Entry](unsafeUninitializedCapacity: capacity) { buffer, count in
            UnsafeMutableRawBufferPointer(buffer).initializeMemory(as: UInt8.self, repeating: 0)
            count = capacity
        }
        let mask = capacity - 1
        entries.withUnsafeMutableBufferPointer { old in
            fresh.withUnsafeMutableBufferPointer { new in
                for position in old.indices where old[position].key > 0 {
                    var index = Self.slot(for: old[position].key, mask: mask)
                    while new[index].key != 0 { index = (index + 1) & mask }
                    swap(&new[index], &old[position])
                }
            }
        }
        entries = fresh
        occupied = count
    }

    /// Calls `body` with every object that something besides this table still holds. An object only the table
    /// holds goes away with the table: nothing can reach it afterwards, and it is in no reference cycle (a cycle
    /// would be a second reference).
    ///
    /// (Letting go of each object in the same pass would touch each once instead of twice, but frees the objects
    /// inside the context's `deinit` rather than with its stored properties. Measured with glibc: the next context
    /// to fetch 200,000 objects then took four times the page faults and ran 15% slower — the memory went back to
    /// the system instead of being reused.)
    mutating func forEachSharedObject(_ body: (ManagedObject) -> Void) {
        for index in entries.indices where entries[index].key > 0 {
            if !isKnownUniquelyReferenced(&entries[index].object) { body(entries[index].object!) }
        }
    }
}
