/// One row of a ``PackedRowBlock``: the values of one object, packed.
struct PackedRow {
    let block: PackedRowBlock
    let row: Int

    /// The row of a new object made outside any context: the attributes' default values, no related objects, in a
    /// block of its own. Nil when a default does not fit its cell.
    static func makeInitial(_ entity: EntityDescription, layout: PackedRowLayout) -> PackedRow? {
        let block = PackedRowBlock.make(layout, capacity: 1)
        let packed = PackedRow(block: block, row: block.appendRow(toManyLoaded: true))
        return fillDefaults(entity, block: Unmanaged.passUnretained(block), row: packed.row) ? packed : nil
    }

    /// A new object's row, as ``makeInitial(_:layout:)`` makes it, but from `context`'s rows for new objects
    /// (blocks shared by the objects a context inserts, as a fetch's objects share theirs), its block unretained:
    /// the context's allocator holds it until the caller takes it. Nil when a default does not fit its cell.
    @inline(__always)
    static func makeInitialUnretained(_ entity: EntityDescription, layout: PackedRowLayout,
                                      in context: ManagedObjectContext) -> (block: Unmanaged<PackedRowBlock>, row: Int)? {
        let (block, row) = context.newObjectRows.nextUnretainedRow(for: layout, toManyLoaded: true)
        return fillDefaults(entity, block: block, row: row) ? (block, row) : nil
    }

    /// Writes the attributes' non-nil defaults into the new row `row` of `block`; `false`, taking the row back,
    /// when one does not fit its cell.
    @inline(__always)
    private static func fillDefaults(_ entity: EntityDescription, block: Unmanaged<PackedRowBlock>, row: Int) -> Bool {
        let indexes = entity.defaultedAttributeIndexes
        guard !indexes.isEmpty else { return true }
        let packed = PackedRow(block: block.takeUnretainedValue(), row: row)
        for index in indexes {
            guard case .value(let value) = entity.initialSlots[index], packed.set(value, at: index) else {
                packed.block.removeLastRow()
                return false
            }
        }
        return true
    }

    /// Writes attribute `index` (not written before). Returns `false` when `value` is not of the cell's kind — a
    /// value the store held in another form — and the row must be kept as slots instead.
    @inline(__always)
    func set(_ value: PersistentValue, at index: Int) -> Bool {
        if case .null = value { return true }
        return block.withRow(row) { header, bits, cells in
            let cell = header.pointee.layout.cells[index]
            guard PackedRowBlock.initialize(cell.kind, at: UnsafeMutableRawPointer(cells + Int(cell.word)), with: value) else { return false }
            bits.pointee &= ~(1 << UInt64(index))
            return true
        }
    }

    /// The value of attribute `index`.
    @inline(__always)
    func value(at index: Int) -> PersistentValue { block.value(row: row, at: index) }

    /// Property `index` as a slot.
    @inline(__always)
    func slot(at index: Int) -> PropertySlot {
        block.withRow(row) { header, bits, cells in
            let cell = header.pointee.layout.cells[index]
            switch cell.kind {
            case .toMany:
                return bits.pointee & PackedRowBlock.toManyLoadedBit != 0 ? .toMany(RelatedObjects()) : .toMany(nil)
            case .toOneKey:
                if bits.pointee & (1 << UInt64(index)) != 0 { return .toOne(nil) }
                return .toOneKey(Int64(bitPattern: (cells + Int(cell.word)).pointee))
            default:
                return .value(block.value(row: row, at: index))
            }
        }
    }

    /// The row as one slot per property: what an object holds once it needs slots.
    func slots() -> [PropertySlot] {
        let count = block.layout.cells.count
        var slots: [PropertySlot] = []
        slots.reserveCapacity(count)
        for index in 0..<count { slots.append(slot(at: index)) }
        return slots
    }
}
