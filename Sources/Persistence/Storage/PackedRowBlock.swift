import Foundation

/// Rows of one entity packed side by side in one allocation: per row, a word of bits (a null bit per property, and
/// bit 63 for "to-many relationships loaded and empty") followed by a cell per attribute or to-one key, laid out by
/// the entity's ``PackedRowLayout``.
///
/// A fetch packs its rows into blocks of up to 256 rows (``PackedRowAllocator``'s limit; the format's is 65,535),
/// so a fetched object costs no allocation of its own for its
/// values; the objects a context inserts share blocks the same way (one made outside any context gets a block of
/// one row). A block lives as long as any object still reading from it (an object that unpacks its row into slots
/// lets go of its block). Each row belongs to one object. A fetched row is written once, as it is read; a new
/// object's row is changed in place until it is saved (see ``ManagedObject/hasWritablePackedRow``).
final class PackedRowBlock: ManagedBuffer<PackedRowBlock.Header, UInt64> {
    struct Header {
        let layout: PackedRowLayout
        // 16-bit counts keep a new object's block of one row as small as the row itself allows (a row has at most
        // 1 + 63 × 3 words; a block at most 65,535 rows, and the allocator makes none above 256).
        /// Words per row: the bits word and the cells.
        let stride: UInt16
        let capacity: UInt16
        /// Rows handed out so far.
        var count: UInt16
    }

    static let toManyLoadedBit: UInt64 = 1 << 63

    /// An empty block with room for `capacity` rows of `layout`.
    static func make(_ layout: PackedRowLayout, capacity: Int) -> PackedRowBlock {
        precondition(capacity > 0 && capacity <= Int(UInt16.max), "a packed row block holds 1 to 65,535 rows")
        let stride = 1 + layout.wordCount
        let buffer = create(minimumCapacity: stride * capacity) { _ in
            Header(layout: layout, stride: UInt16(stride), capacity: UInt16(capacity), count: 0)
        }
        return unsafeDowncast(buffer, to: PackedRowBlock.self)
    }

    // The header is read through its pointer: `header` itself is a stored property of a class, and each access to
    // it would be checked for exclusivity at run time, on every value a new object sets.

    /// `true` when another row fits.
    var hasRoom: Bool { withUnsafeMutablePointerToHeader { $0.pointee.count < $0.pointee.capacity } }

    /// How many rows the block holds at most.
    var rowCapacity: Int { withUnsafeMutablePointerToHeader { Int($0.pointee.capacity) } }

    /// `true` when the block's rows are laid out by `layout`.
    func isLaidOut(by layout: PackedRowLayout) -> Bool { withUnsafeMutablePointerToHeader { $0.pointee.layout === layout } }

    /// The layout of the block's rows.
    var layout: PackedRowLayout { withUnsafeMutablePointerToHeader { $0.pointee.layout } }

    /// Hands out the next row, every property nil; its to-many relationships are faults unless `toManyLoaded`.
    func appendRow(toManyLoaded: Bool = false) -> Int {
        withUnsafeMutablePointers { header, words in
            let row = Int(header.pointee.count)
            precondition(row < Int(header.pointee.capacity), "a packed row block is full")
            (words + row * Int(header.pointee.stride)).pointee = toManyLoaded ? ~0 : ~Self.toManyLoadedBit
            header.pointee.count += 1
            return row
        }
    }

    /// Takes back the last row handed out (one that could not be packed after all), releasing what it holds.
    func removeLastRow() {
        let row = withUnsafeMutablePointerToHeader { Int($0.pointee.count) - 1 }
        release(row: row)
        withUnsafeMutablePointerToHeader { $0.pointee.count -= 1 }
    }

    deinit {
        let count = withUnsafeMutablePointerToHeader { Int($0.pointee.count) }
        for row in 0..<count { release(row: row) }
    }

    private func release(row: Int) {
        withUnsafeMutablePointers { header, words in
            let layout = header.pointee.layout
            guard !layout.referenceCells.isEmpty else { return }
            let base = words + row * Int(header.pointee.stride)
            for index in layout.referenceCells where base.pointee & (1 << UInt64(index)) == 0 {
                Self.deinitialize(layout.cells[index].kind, at: UnsafeMutableRawPointer(base + 1 + Int(layout.cells[index].word)))
            }
            base.pointee |= (1 << UInt64(layout.cells.count)) - 1
        }
    }

    static func deinitialize(_ kind: PackedRowLayout.CellKind, at cell: UnsafeMutableRawPointer) {
        switch kind {
        case .string: cell.assumingMemoryBound(to: String.self).deinitialize(count: 1)
        case .data: cell.assumingMemoryBound(to: Data.self).deinitialize(count: 1)
        case .uri: cell.assumingMemoryBound(to: URL.self).deinitialize(count: 1)
        case .uuid: cell.assumingMemoryBound(to: UUID.self).deinitialize(count: 1)
        case .decimal: cell.assumingMemoryBound(to: Decimal.self).deinitialize(count: 1)
        case .integer, .double, .bool, .date, .toOneKey, .toMany: break
        }
    }

    /// Writes `value` into an empty cell. Returns `false`, writing nothing, when `value` is not of the cell's kind.
    static func initialize(_ kind: PackedRowLayout.CellKind, at cell: UnsafeMutableRawPointer,
                           with value: PersistentValue) -> Bool {
        switch (kind, value) {
        case (.integer, .integer(let v)): cell.storeBytes(of: v, as: Int64.self)
        case (.double, .double(let v)): cell.storeBytes(of: v, as: Double.self)
        case (.bool, .bool(let v)): cell.storeBytes(of: v ? 1 : 0, as: Int64.self)
        case (.date, .date(let v)): cell.storeBytes(of: v.timeIntervalSinceReferenceDate, as: Double.self)
        case (.string, .string(let v)): cell.initializeMemory(as: String.self, repeating: v, count: 1)
        case (.data, .data(let v)): cell.initializeMemory(as: Data.self, repeating: v, count: 1)
        case (.uuid, .uuid(let v)): cell.initializeMemory(as: UUID.self, repeating: v, count: 1)
        case (.uri, .uri(let v)): cell.initializeMemory(as: URL.self, repeating: v, count: 1)
        case (.decimal, .decimal(let v)): cell.initializeMemory(as: Decimal.self, repeating: v, count: 1)
        default: return false
        }
        return true
    }

    static func fits(_ value: PersistentValue, _ kind: PackedRowLayout.CellKind) -> Bool {
        switch (kind, value) {
        case (.integer, .integer), (.double, .double), (.bool, .bool), (.date, .date), (.string, .string),
             (.data, .data), (.uuid, .uuid), (.uri, .uri), (.decimal, .decimal): return true
        default: return false
        }
    }

    /// Changes attribute `index` to `value` (nil included), releasing what the cell held. Returns `false`, changing
    /// nothing, when `value` is not of the cell's kind. Only for a row that one object alone holds.
    @inline(__always)
    func replace(_ value: PersistentValue, row: Int, at index: Int) -> Bool {
        withRow(row) { header, bits, cells in
            let cell = header.pointee.layout.cells[index]
            let raw = UnsafeMutableRawPointer(cells + Int(cell.word))
            let bit: UInt64 = 1 << UInt64(index)
            let held = bits.pointee & bit == 0
            switch (cell.kind, value) {
            case (.integer, .integer(let v)): raw.storeBytes(of: v, as: Int64.self)
            case (.double, .double(let v)): raw.storeBytes(of: v, as: Double.self)
            case (.bool, .bool(let v)): raw.storeBytes(of: v ? 1 : 0, as: Int64.self)
            case (.date, .date(let v)): raw.storeBytes(of: v.timeIntervalSinceReferenceDate, as: Double.self)
            case (.toOneKey, _), (.toMany, _):
                return false
            case (_, .null):
                if held { Self.deinitialize(cell.kind, at: raw) }
                bits.pointee |= bit
                return true
            default:
                // Strings, data, UUIDs, URLs and decimals: the old value is released before the new one goes in.
                guard Self.fits(value, cell.kind) else { return false }
                if held { Self.deinitialize(cell.kind, at: raw) }
                _ = Self.initialize(cell.kind, at: raw, with: value)
            }
            bits.pointee &= ~bit
            return true
        }
    }

    /// The value of attribute `index`.
    @inline(__always)
    func value(row: Int, at index: Int) -> PersistentValue {
        withRow(row) { header, bits, cells in
            if bits.pointee & (1 << UInt64(index)) != 0 { return .null }
            let cell = header.pointee.layout.cells[index]
            let raw = UnsafeRawPointer(cells + Int(cell.word))
            switch cell.kind {
            case .integer: return .integer(raw.load(as: Int64.self))
            case .double: return .double(raw.load(as: Double.self))
            case .bool: return .bool(raw.load(as: Int64.self) != 0)
            case .date: return .date(Date(timeIntervalSinceReferenceDate: raw.load(as: Double.self)))
            case .string: return .string(raw.assumingMemoryBound(to: String.self).pointee)
            case .data: return .data(raw.assumingMemoryBound(to: Data.self).pointee)
            case .uuid: return .uuid(raw.assumingMemoryBound(to: UUID.self).pointee)
            case .uri: return .uri(raw.assumingMemoryBound(to: URL.self).pointee)
            case .decimal: return .decimal(raw.assumingMemoryBound(to: Decimal.self).pointee)
            case .toOneKey, .toMany: return .null
            }
        }
    }

    /// `true` when property `index` of row `row` is nil.
    @inline(__always)
    func isNull(row: Int, at index: Int) -> Bool {
        withRow(row) { _, bits, _ in bits.pointee & (1 << UInt64(index)) != 0 }
    }

    /// Calls `body` with the block's header, row `row`'s bits word and its first cell word. (The header rather than
    /// its layout: reading the layout through it costs no retain, and this runs for every value read or written.)
    @inline(__always)
    func withRow<T>(_ row: Int, _ body: (UnsafeMutablePointer<Header>, UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<UInt64>) throws -> T) rethrows -> T {
        try withUnsafeMutablePointers { header, words in
            let base = words + row * Int(header.pointee.stride)
            return try body(header, base, base + 1)
        }
    }
}
