/// The objects of one entity registered in a context, by primary key.
///
/// Primary keys are handed out 1, 2, 3… per entity, so the keys a context registers are close together: the table
/// is a directory of pages of 64 slots, indexed by the key itself. A lookup is two loads and no hashing, a fetch in
/// key order fills one page after another (nothing is ever rehashed), and a dense run of keys costs a little over
/// 8 bytes per object, where a hash table kept at half load costs 32. Keys far beyond the pages in use (a foreign
/// store's, or a lone key in the millions) go to a ``KeyTable`` instead, so the directory stays small.
final class PrimaryKeyTable {
    private static let pageShift = 6
    private static let pageSize = 1 << pageShift
    /// Directories up to this many entries (128 KB) are always allowed; beyond it, 8 entries per page in use.
    private static let freeDirectorySize = 16_384

    /// Per page number, its slots (nil until a key of the page arrives). Slots are `ManagedObject?` in
    /// zero-filled memory: all-zero bytes are a nil object.
    // Unchecked: a table belongs to one context and is used on its queue only, and run-time exclusivity checks
    // would cost more than a lookup.
    @exclusivity(unchecked) private var directory: UnsafeMutablePointer<UnsafeMutablePointer<ManagedObject?>?>?
    @exclusivity(unchecked) private var directorySize = 0
    @exclusivity(unchecked) private var pageCount = 0
    @exclusivity(unchecked) private var overflow = KeyTable()
    @exclusivity(unchecked) private(set) var count = 0
    /// The pages that received an object since the last sweep, in arrival order (a page may repeat when keys
    /// alternate between pages): what a sweep of recent registrations visits. See the registry's README.
    @exclusivity(unchecked) private var recentPages: [Int32] = []
    @exclusivity(unchecked) private var lastRecentPage = -1
    /// An object went to the overflow table since the last sweep.
    @exclusivity(unchecked) private var overflowIsRecent = false
    /// More pages received objects than ``recentPages`` keeps: the next sweep looks at all of them.
    @exclusivity(unchecked) private var recentPagesOverflowed = false

    deinit {
        for index in 0..<directorySize {
            guard let page = directory![index] else { continue }
            page.deinitialize(count: Self.pageSize)
            page.deallocate()
        }
        directory?.deallocate()
    }

    /// The slot of `key`, when its page exists.
    @inline(__always)
    private func slot(for key: Int64) -> UnsafeMutablePointer<ManagedObject?>? {
        let pageNumber = Int(truncatingIfNeeded: UInt64(bitPattern: key) >> UInt64(Self.pageShift))
        guard key > 0, pageNumber < directorySize, let page = directory.unsafelyUnwrapped[pageNumber] else { return nil }
        return page + (Int(truncatingIfNeeded: key) & (Self.pageSize - 1))
    }

    func object(for key: Int64) -> ManagedObject? {
        if let slot = slot(for: key), let object = slot.pointee { return object }
        return overflow.count == 0 ? nil : overflow.object(for: key)
    }

    /// The object for `key` when something besides this table holds it. An object only the table holds is taken
    /// out and let go of instead (unless `keepingAll`), and nil comes back: nobody can tell it from one that was
    /// freed (see the registry's README).
    @inline(__always)
    func heldObject(for key: Int64, keepingAll: Bool) -> ManagedObject? {
        if let slot = slot(for: key), slot.pointee != nil {
            if !keepingAll && isKnownUniquelyReferenced(&slot.pointee) {
                slot.pointee = nil
                count -= 1
                return nil
            }
            return slot.pointee
        }
        guard overflow.count > 0 else { return nil }
        if !keepingAll, overflow.removeIfUnreferenced(key) != nil {
            count -= 1
            return nil
        }
        return overflow.object(for: key)
    }

    /// Takes the object for `key` out and returns it when nothing besides this table holds it; nil otherwise.
    func removeIfUnreferenced(_ key: Int64) -> ManagedObject? {
        take(key, onlyIfUnreferenced: true)
    }

    func insert(_ object: ManagedObject, for key: Int64) {
        precondition(key > 0, "keys are positive")
        guard let slot = slot(for: key) ?? makeSlot(for: key) else {
            if overflow.object(for: key) == nil { count += 1 }
            overflow.insert(object, for: key)
            overflowIsRecent = true
            return
        }
        // One comparison per insert: a fetch fills its pages one after another.
        let page = Int(truncatingIfNeeded: UInt64(bitPattern: key) >> UInt64(Self.pageShift))
        if page != lastRecentPage {
            // Beyond this many (keys jumping between pages, or no sweep for long), the next sweep looks at all.
            if recentPages.count < 65_536 {
                recentPages.append(Int32(truncatingIfNeeded: page))
            } else {
                recentPagesOverflowed = true
            }
            lastRecentPage = page
        }
        if slot.pointee == nil {
            count += 1
            // Registered in the overflow table before its page existed: it moves here.
            if overflow.count > 0, overflow.remove(key) != nil { count -= 1 }
        }
        slot.pointee = object
    }

    @discardableResult
    func remove(_ key: Int64) -> ManagedObject? {
        take(key, onlyIfUnreferenced: false)
    }

    /// Takes the object for `key` out of its page, or else of the overflow table, and returns it; with
    /// `onlyIfUnreferenced`, only when nothing besides this table holds it (the sweep's test). Inlined, so each
    /// caller's constant leaves one branch.
    @inline(__always)
    private func take(_ key: Int64, onlyIfUnreferenced: Bool) -> ManagedObject? {
        if let slot = slot(for: key), slot.pointee != nil {
            if onlyIfUnreferenced, !isKnownUniquelyReferenced(&slot.pointee) { return nil }
            let object = slot.pointee
            slot.pointee = nil
            count -= 1
            return object
        }
        guard overflow.count > 0,
              let object = onlyIfUnreferenced ? overflow.removeIfUnreferenced(key) : overflow.remove(key)
        else { return nil }
        count -= 1
        return object
    }

    /// Makes the page of `key`, growing the directory if needed; nil when the key is too far out for the
    /// directory (it goes to the overflow table).
    private func makeSlot(for key: Int64) -> UnsafeMutablePointer<ManagedObject?>? {
        let pageNumber = UInt64(bitPattern: key) >> UInt64(Self.pageShift)
        let limit = max(Self.freeDirectorySize, 8 * (pageCount + 1))
        guard pageNumber < UInt64(limit) else { return nil }
        let number = Int(pageNumber)
        if number >= directorySize {
            let size = min(limit, max(number + 1, directorySize * 2, 16))
            let grown = UnsafeMutablePointer<UnsafeMutablePointer<ManagedObject?>?>.allocate(capacity: size)
            grown.initialize(repeating: nil, count: size)
            if let directory {
                grown.moveInitialize(from: directory, count: directorySize)
                directory.deallocate()
            }
            directory = grown
            directorySize = size
        }
        let page = UnsafeMutablePointer<ManagedObject?>.allocate(capacity: Self.pageSize)
        // All-zero bytes are `nil` for an optional class reference: zeroing stands in for initialising each slot.
        UnsafeMutableRawPointer(page).initializeMemory(as: UInt8.self, repeating: 0,
                                                       count: Self.pageSize * MemoryLayout<ManagedObject?>.stride)
        directory.unsafelyUnwrapped[number] = page
        pageCount += 1
        return page + (Int(truncatingIfNeeded: key) & (Self.pageSize - 1))
    }

    var objects: [ManagedObject] {
        var found: [ManagedObject] = []
        found.reserveCapacity(count)
        forEachSlot { slot in
            if let object = slot.pointee { found.append(object) }
        }
        return found + overflow.objects
    }

    /// The keys of the registered objects that pass `isIncluded`.
    func keys(where isIncluded: (ManagedObject) -> Bool) -> StoreKeySet {
        var keys = StoreKeySet()
        for number in 0..<directorySize {
            guard let page = directory![number] else { continue }
            for offset in 0..<Self.pageSize {
                if let object = page[offset], isIncluded(object) { keys.insert(Int64(number << Self.pageShift | offset)) }
            }
        }
        for object in overflow.objects where isIncluded(object) {
            if let key = object.objectID.primaryKey { keys.insert(key) }
        }
        return keys
    }

    /// Calls `body` with every object that something besides this table still holds (see
    /// ``KeyTable/forEachSharedObject(_:)``).
    func forEachSharedObject(_ body: (ManagedObject) -> Void) {
        forEachSlot { slot in
            if slot.pointee != nil, !isKnownUniquelyReferenced(&slot.pointee) { body(slot.pointee!) }
        }
        overflow.forEachSharedObject(body)
    }

    /// Takes out every object that nothing besides this table holds — of the pages and overflow entries that
    /// received objects since the last sweep when `recentOnly`, else of all — and calls `dropped` with each before
    /// letting go of it. Returns the number of slots looked at.
    @discardableResult
    func dropUnreferenced(recentOnly: Bool, _ dropped: (ManagedObject) -> Void) -> Int {
        var visited = 0
        func sweep(_ page: UnsafeMutablePointer<ManagedObject?>) {
            for offset in 0..<Self.pageSize {
                let slot = page + offset
                guard slot.pointee != nil, isKnownUniquelyReferenced(&slot.pointee) else { continue }
                let object = slot.pointee.unsafelyUnwrapped
                slot.pointee = nil
                count -= 1
                dropped(object)
            }
            visited += Self.pageSize
        }
        if recentOnly && !recentPagesOverflowed {
            if recentPages.count > 1 {
                recentPages.sort()
            }
            var previous: Int32 = -1
            for number in recentPages where number != previous {
                previous = number
                if Int(number) < directorySize, let page = directory![Int(number)] { sweep(page) }
            }
        } else {
            for number in 0..<directorySize {
                if let page = directory![number] { sweep(page) }
            }
        }
        if overflow.count > 0 && (overflowIsRecent || !recentOnly) {
            let before = overflow.count
            visited += overflow.dropUnreferenced(dropped)
            count -= before - overflow.count
        }
        recentPages.removeAll(keepingCapacity: recentPages.count <= 4096)
        lastRecentPage = -1
        overflowIsRecent = false
        recentPagesOverflowed = false
        return visited
    }

    private func forEachSlot(_ body: (UnsafeMutablePointer<ManagedObject?>) -> Void) {
        for number in 0..<directorySize {
            guard let page = directory![number] else { continue }
            for offset in 0..<Self.pageSize { body(page + offset) }
        }
    }
}
