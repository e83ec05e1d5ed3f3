import Foundation

/// The values of one row as read from the store, packed into one allocation: a null bit per property and a cell
/// per attribute or to-one key, laid out by the entity's ``PackedRowLayout``.
///
/// A fetched object keeps its row packed until something needs its values as slots (a change, a refresh, a
/// merge); reading attributes never unpacks it. Each cell is written once, while the row is read.
final class PackedRow: ManagedBuffer<PackedRow.Header, UInt64> {
    struct Header {
        let layout: PackedRowLayout
        /// Bit `i` set: property `i` is nil (or its cell was never written). Every bit starts set.
        var nulls: UInt64
    }

    /// An empty row of `layout`: every property nil.
    static func make(_ layout: PackedRowLayout) -> PackedRow {
        let buffer = create(minimumCapacity: layout.wordCount) { _ in Header(layout: layout, nulls: ~0) }
        return unsafeDowncast(buffer, to: PackedRow.self)
    }

    deinit {
        withUnsafeMutablePointers { header, words in
            let layout = header.pointee.layout
            for index in layout.referenceCells where header.pointee.nulls & (1 << UInt64(index)) == 0 {
                let cell = UnsafeMutableRawPointer(words + Int(layout.cells[index].word))
                switch layout.cells[index].kind {
                case .string: cell.assumingMemoryBound(to: String.self).deinitialize(count: 1)
                case .data: cell.assumingMemoryBound(to: Data.self).deinitialize(count: 1)
                case .uri: cell.assumingMemoryBound(to: URL.self).deinitialize(count: 1)
                case .uuid: cell.assumingMemoryBound(to: UUID.self).deinitialize(count: 1)
                case .decimal: cell.assumingMemoryBound(to: Decimal.self).deinitialize(count: 1)
                case .integer, .double, .bool, .date, .toOneKey, .toMany: break
                }
            }
        }
    }

    /// Writes attribute `index` (not written before). Returns `false` when `value` is not of the cell's kind — a
    /// value the store held in another form — and the row must be kept as slots instead.
    @inline(__always)
    func set(_ value: PersistentValue, at index: Int) -> Bool {
        withUnsafeMutablePointers { header, words in
            let cell = header.pointee.layout.cells[index]
            let raw = UnsafeMutableRawPointer(words + Int(cell.word))
            switch (cell.kind, value) {
            case (_, .null): return true
            case (.integer, .integer(let v)): raw.storeBytes(of: v, as: Int64.self)
            case (.double, .double(let v)): raw.storeBytes(of: v, as: Double.self)
            case (.bool, .bool(let v)): raw.storeBytes(of: v ? 1 : 0, as: Int64.self)
            case (.date, .date(let v)): raw.storeBytes(of: v.timeIntervalSinceReferenceDate, as: Double.self)
            case (.string, .string(let v)): raw.initializeMemory(as: String.self, repeating: v, count: 1)
            case (.data, .data(let v)): raw.initializeMemory(as: Data.self, repeating: v, count: 1)
            case (.uuid, .uuid(let v)): raw.initializeMemory(as: UUID.self, repeating: v, count: 1)
            case (.uri, .uri(let v)): raw.initializeMemory(as: URL.self, repeating: v, count: 1)
            case (.decimal, .decimal(let v)): raw.initializeMemory(as: Decimal.self, repeating: v, count: 1)
            default: return false
            }
            header.pointee.nulls &= ~(1 << UInt64(index))
            return true
        }
    }

    /// Writes the key of to-one `index` (not written before).
    @inline(__always)
    func setKey(_ key: Int64, at index: Int) {
        withUnsafeMutablePointers { header, words in
            UnsafeMutableRawPointer(words + Int(header.pointee.layout.cells[index].word)).storeBytes(of: key, as: Int64.self)
            header.pointee.nulls &= ~(1 << UInt64(index))
        }
    }

    /// The value of attribute `index`.
    @inline(__always)
    func value(at index: Int) -> PersistentValue {
        withUnsafeMutablePointers { header, words in
            if header.pointee.nulls & (1 << UInt64(index)) != 0 { return .null }
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

    /// The row as one slot per property: what an object holds once it needs slots.
    func slots() -> [PropertySlot] {
        withUnsafeMutablePointers { header, words in
            let cells = header.pointee.layout.cells
            var slots: [PropertySlot] = []
            slots.reserveCapacity(cells.count)
            for index in cells.indices {
                switch cells[index].kind {
                case .toMany:
                    slots.append(.toMany(nil))
                case .toOneKey:
                    if header.pointee.nulls & (1 << UInt64(index)) != 0 {
                        slots.append(.toOne(nil))
                    } else {
                        slots.append(.toOneKey(UnsafeRawPointer(words + Int(cells[index].word)).load(as: Int64.self)))
                    }
                default:
                    slots.append(.value(value(at: index)))
                }
            }
            return slots
        }
    }
}
