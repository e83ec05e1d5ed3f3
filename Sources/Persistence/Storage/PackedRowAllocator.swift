/// Hands out rows to pack a read's rows into: blocks of rows side by side (see ``PackedRowBlock``), each twice the
/// size of the last, up to 256 rows, one run of blocks per entity layout (a fetch of a hierarchy reads several).
///
/// Small first blocks keep a read of a few rows small; large later ones spare a big fetch an allocation per row. A
/// block is shared by the objects of its rows and freed with the last of them.
struct PackedRowAllocator {
    private var current: PackedRowBlock?
    /// The blocks of the other layouts of a hierarchy's fetch, by layout.
    private var others: [ObjectIdentifier: PackedRowBlock] = [:]
    private var nextBlockSize: Int
    /// The size blocks grow to.
    static let largestBlockSize = 256

    init(firstBlockSize: Int = 8) {
        nextBlockSize = max(1, firstBlockSize)
    }

    /// The next row for `layout`, its block unretained: the allocator holds the block until it moves on to
    /// another, so the row may be written and handed over without a retain.
    mutating func nextUnretainedRow(for layout: PackedRowLayout, toManyLoaded: Bool = false) -> (block: Unmanaged<PackedRowBlock>, row: Int) {
        if let block = current, block.isLaidOut(by: layout), block.hasRoom {
            return (Unmanaged.passUnretained(block), block.appendRow(toManyLoaded: toManyLoaded))
        }
        let row = nextRow(for: layout, toManyLoaded: toManyLoaded)
        return (Unmanaged.passUnretained(row.block), row.row)
    }

    /// The next row for `layout`, every property nil; its to-many relationships are faults unless `toManyLoaded`.
    mutating func nextRow(for layout: PackedRowLayout, toManyLoaded: Bool = false) -> PackedRow {
        if let block = current, block.isLaidOut(by: layout), block.hasRoom {
            return PackedRow(block: block, row: block.appendRow(toManyLoaded: toManyLoaded))
        }
        var block = current?.isLaidOut(by: layout) == true ? current : others[ObjectIdentifier(layout)]
        if block?.hasRoom != true {
            block = PackedRowBlock.make(layout, capacity: nextBlockSize)
            nextBlockSize = min(nextBlockSize * 2, Self.largestBlockSize)
        }
        if let previous = current, !previous.isLaidOut(by: layout) {
            others[ObjectIdentifier(previous.layout)] = previous
        }
        current = block
        return PackedRow(block: block!, row: block!.appendRow(toManyLoaded: toManyLoaded))
    }
}
