import Foundation

/// The values of one object packed into one allocation: a null bit per property and a cell per attribute or to-one
/// key, laid out by the entity's ``PackedRowLayout``.
///
/// A fetched object keeps the row it was read with packed until something needs its values as slots (a change, a
/// refresh, a merge); reading attributes never unpacks it. A new object starts packed too and, while it is being
/// inserted (there are no committed values to keep), its attributes are changed in place; setting a relationship,
/// or a value that does not fit its cell, unpacks it.
final class PackedRow: ManagedBuffer<PackedRow.Header, UInt64> {
    struct Header {
        let layout: PackedRowLayout
        /// Bit `i` set: property `i` is nil (or its cell holds nothing). Bit 63: the to-many relationships are
        /// loaded and empty (a new object's) rather than faults (a fetched row's).
        var bits: UInt64
    }

    private static let toManyLoadedBit: UInt64 = 1 << 63

    /// A row of `layout` with every property nil; its to-many relationships are faults unless `toManyLoaded`.
    static func make(_ layout: PackedRowLayout, toManyLoaded: Bool = false) -> PackedRow {
        let bits = toManyLoaded ? ~0 : ~toManyLoadedBit
        let buffer = create(minimumCapacity: layout.wordCount) { _ in Header(layout: layout, bits: bits) }
        return unsafeDowncast(buffer, to: PackedRow.self)
    }

    /// The row a new object of `entity` starts with: the attributes' default values, no related objects. Nil when a
    /// default does not fit its cell.
    static func makeInitial(_ entity: EntityDescription, layout: PackedRowLayout) -> PackedRow? {
        let row = make(layout, toManyLoaded: true)
        for (index, slot) in entity.initialSlots.enumerated() {
            guard case .value(let value) = slot, !value.isNull else { continue }
            guard row.set(value, at: index) else { return nil }
        }
        return row
    }

    deinit {
        withUnsafeMutablePointers { header, words in
            let layout = header.pointee.layout
            for index in layout.referenceCells where header.pointee.bits & (1 << UInt64(index)) == 0 {
                let cell = layout.cells[index]
                Self.deinitialize(cell.kind, at: UnsafeMutableRawPointer(words + Int(cell.word)))
            }
        }
    }

    private static func deinitialize(_ kind: PackedRowLayout.CellKind, at cell: UnsafeMutableRawPointer) {
        switch kind {
        case .string: cell.assumingMemoryBound(to: String.self).deinitialize(count: 1)
        case .data: cell.assumingMemoryBound(to: Data.self).deinitialize(count: 1)
        case .uri: cell.assumingMemoryBound(to: URL.self).deinitialize(count: 1)
        case .uuid: cell.assumingMemoryBound(to: UUID.self).deinitialize(count: 1)
        case .decimal: cell.assumingMemoryBound(to: Decimal.self).deinitialize(count: 1)
        case .integer, .double, .bool, .date, .toOneKey, .toMany: break
        }
    }

    /// Writes `value` into the empty cell of attribute `index`. Returns `false`, writing nothing, when `value` is
    /// not of the cell's kind.
    private static func initialize(_ kind: PackedRowLayout.CellKind, at cell: UnsafeMutableRawPointer,
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

    /// Writes attribute `index` (not written before). Returns `false` when `value` is not of the cell's kind — a
    /// value the store held in another form — and the row must be kept as slots instead.
    @inline(__always)
    func set(_ value: PersistentValue, at index: Int) -> Bool {
        if case .null = value { return true }
        return withUnsafeMutablePointers { header, words in
            let cell = header.pointee.layout.cells[index]
            guard Self.initialize(cell.kind, at: UnsafeMutableRawPointer(words + Int(cell.word)), with: value) else { return false }
            header.pointee.bits &= ~(1 << UInt64(index))
            return true
        }
    }

    /// Changes attribute `index` to `value` (nil included), releasing what the cell held. Returns `false`, changing
    /// nothing, when `value` is not of the cell's kind.
    @inline(__always)
    func replace(_ value: PersistentValue, at index: Int) -> Bool {
        withUnsafeMutablePointers { header, words in
            let cell = header.pointee.layout.cells[index]
            let raw = UnsafeMutableRawPointer(words + Int(cell.word))
            let bit: UInt64 = 1 << UInt64(index)
            let held = header.pointee.bits & bit == 0
            switch (cell.kind, value) {
            case (.integer, .integer(let v)): raw.storeBytes(of: v, as: Int64.self)
            case (.double, .double(let v)): raw.storeBytes(of: v, as: Double.self)
            case (.bool, .bool(let v)): raw.storeBytes(of: v ? 1 : 0, as: Int64.self)
            case (.date, .date(let v)): raw.storeBytes(of: v.timeIntervalSinceReferenceDate, as: Double.self)
            case (.toOneKey, _), (.toMany, _):
                return false
            case (_, .null):
                if held { Self.deinitialize(cell.kind, at: raw) }
                header.pointee.bits |= bit
                return true
            default:
                // Strings, data, UUIDs, URLs and decimals: the old value is released before the new one goes in.
                guard Self.fits(value, cell.kind) else { return false }
                if held { Self.deinitialize(cell.kind, at: raw) }
                _ = Self.initialize(cell.kind, at: raw, with: value)
            }
            header.pointee.bits &= ~bit
            return true
        }
    }

    private static func fits(_ value: PersistentValue, _ kind: PackedRowLayout.CellKind) -> Bool {
        switch (kind, value) {
        case (.integer, .integer), (.double, .double), (.bool, .bool), (.date, .date), (.string, .string),
             (.data, .data), (.uuid, .uuid), (.uri, .uri), (.decimal, .decimal): return true
        default: return false
        }
    }

    /// Writes the key of to-one `index` (not written before).
    @inline(__always)
    func setKey(_ key: Int64, at index: Int) {
        withUnsafeMutablePointers { header, words in
            UnsafeMutableRawPointer(words + Int(header.pointee.layout.cells[index].word)).storeBytes(of: key, as: Int64.self)
            header.pointee.bits &= ~(1 << UInt64(index))
        }
    }

    /// The value of attribute `index`.
    @inline(__always)
    func value(at index: Int) -> PersistentValue {
        withUnsafeMutablePointers { header, words in
            if header.pointee.bits & (1 << UInt64(index)) != 0 { return .null }
            let cell = header.pointee.layout.cells[index]
            let raw = UnsafeRawPointer(words + Int(cell.word))
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

    /// Property `index` as a slot.
    @inline(__always)
    func slot(at index: Int) -> PropertySlot {
        withUnsafeMutablePointers { header, words in
            let cell = header.pointee.layout.cells[index]
            switch cell.kind {
            case .toMany:
                return header.pointee.bits & Self.toManyLoadedBit != 0 ? .toMany(RelatedObjects()) : .toMany(nil)
            case .toOneKey:
                if header.pointee.bits & (1 << UInt64(index)) != 0 { return .toOne(nil) }
                return .toOneKey(UnsafeRawPointer(words + Int(cell.word)).load(as: Int64.self))
            default:
                return .value(value(at: index))
            }
        }
    }

    /// The row as one slot per property: what an object holds once it needs slots.
    func slots() -> [PropertySlot] {
        let count = header.layout.cells.count
        var slots: [PropertySlot] = []
        slots.reserveCapacity(count)
        for index in 0..<count { slots.append(slot(at: index)) }
        return slots
    }
}
