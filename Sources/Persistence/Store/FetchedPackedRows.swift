/// The rows of a fetch of one entity with a packed layout, as the store hands them to the context: packed side by
/// side into blocks, each block with the keys and versions of its rows, and the few rows whose values did not fit
/// the layout decoded as slots. Values only: the context makes the objects once the store's lock is released.
///
/// Keys and versions are kept by block, in buffers as small as the blocks (at most 256 rows): they are reused from
/// one fetch to the next instead of being fresh memory each time, and no buffer is copied as the rows come in.
struct FetchedPackedRows {
    /// The blocks the rows were packed into, in the rows' order.
    var blocks: [Block] = []
    /// The rows that did not fit the layout, each with its place among all the rows.
    var unpacked: [(position: Int, row: StoreRow)] = []
    /// The number of rows, packed or not.
    private(set) var count = 0

    struct Block {
        let block: PackedRowBlock
        /// The key and the version of each of this fetch's rows of the block (its first rows), one after the other.
        var stamps: [Int64] = []
        /// The number of this fetch's rows in the block.
        var rowCount: Int { stamps.count / 2 }
    }

    /// Adds row `row` of `block`, with its key and version; the rows of a block come in order.
    @inline(__always)
    mutating func appendPacked(block: Unmanaged<PackedRowBlock>, row: Int, primaryKey: Int64, version: Int64) {
        if row == 0 || blocks.isEmpty {
            var added = Block(block: block.takeUnretainedValue())
            added.stamps.reserveCapacity(2 * PackedRowAllocator.largestBlockSize)
            blocks.append(added)
        }
        blocks[blocks.count - 1].stamps.append(primaryKey)
        blocks[blocks.count - 1].stamps.append(version)
        count += 1
    }

    /// Block `place`, its keys and versions moved out of this value (their buffer is freed with the result).
    mutating func takeBlock(at place: Int) -> Block {
        let block = blocks[place]
        blocks[place].stamps = []
        return block
    }

    /// Adds a row that did not fit the layout.
    mutating func appendUnpacked(_ row: StoreRow) {
        unpacked.append((count, row))
        count += 1
    }
}
