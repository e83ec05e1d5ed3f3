/// The rows of a fetch of one entity with a packed layout, as the store hands them to the context: packed side by
/// side into blocks, each block with the keys and versions of its rows, and the few rows whose values did not fit
/// the layout decoded as slots. Values only: the context makes the objects once the store's lock is released.
///
/// Keys and versions are kept by block, in buffers as small as the blocks (at most 256 rows) and 4 bytes a row
/// each: they are reused from one fetch to the next instead of being fresh memory each time, no buffer is copied
/// as the rows come in, and they cost a fetch less memory than the doubling array of its results.
/// Each block also sets aside the memory the context will take for the objects of its rows (``room``), freed just
/// before they are made: the objects then land next to their rows, and the heap is laid out as if they had been
/// made while the rows were read — made after all the rows instead, they sit together at the top of the heap,
/// which the system takes back when they are freed, to be faulted in again by the next fetch (a repeated fetch of
/// 200,000 objects: about 2,900 page faults instead of about 10).
struct FetchedPackedRows {
    /// The blocks the rows were packed into, in the rows' order.
    var blocks: [Block] = []
    /// The rows that did not fit the layout, each with its place among all the rows.
    var unpacked: [(position: Int, row: StoreRow)] = []
    /// The number of rows, packed or not.
    private(set) var count = 0
    /// The memory of an object the context makes of a row (see ``room``).
    let bytesPerObject: Int

    init(bytesPerObject: Int) {
        self.bytesPerObject = bytesPerObject
    }

    struct Block {
        let block: PackedRowBlock
        /// The key of each of this fetch's rows of the block (its first rows), as its distance from ``baseKey``
        /// (the first row's) when that fits 32 bits (the keys of a store are close together, in whatever order a
        /// fetch sorts them); otherwise ``wideMark``, and the key is in ``wideKeys``.
        var keyOffsets: [Int32] = []
        var baseKey: Int64 = 0
        var wideKeys: [Int: Int64] = [:]
        /// The version of each row, when it fits 32 bits (every version this library writes does); otherwise
        /// ``Block/wideVersionMark``, and the version is in ``wideVersions``.
        var versions: [Int32] = []
        var wideVersions: [Int: Int64] = [:]
        /// Memory set aside for the objects of the block's rows; emptied (freed) just before they are made.
        var room: [UInt8] = []

        static let wideVersionMark = Int32.min
        static let wideMark = Int32.min

        /// The number of this fetch's rows in the block.
        var rowCount: Int { keyOffsets.count }

        /// The key of row `row`.
        @inline(__always)
        func key(at row: Int) -> Int64 {
            let offset = keyOffsets[row]
            return offset != Self.wideMark ? baseKey &+ Int64(offset) : wideKeys[row]!
        }

        /// The version of row `row`.
        @inline(__always)
        func version(at row: Int) -> Int64 {
            let compact = versions[row]
            return compact != Self.wideVersionMark ? Int64(compact) : wideVersions[row]!
        }
    }

    /// Adds row `row` of `block`, with its key and version; the rows of a block come in order.
    @inline(__always)
    mutating func appendPacked(block: Unmanaged<PackedRowBlock>, row: Int, primaryKey: Int64, version: Int64) {
        if row == 0 || blocks.isEmpty {
            var added = Block(block: block.takeUnretainedValue())
            let capacity = block._withUnsafeGuaranteedRef { $0.withUnsafeMutablePointerToHeader { Int($0.pointee.capacity) } }
            added.baseKey = primaryKey
            added.keyOffsets.reserveCapacity(capacity)
            added.versions.reserveCapacity(capacity)
            added.room.reserveCapacity(capacity * bytesPerObject)
            blocks.append(added)
        }
        let last = blocks.count - 1
        let (offset, overflow) = primaryKey.subtractingReportingOverflow(blocks[last].baseKey)
        if !overflow, let compact = Int32(exactly: offset), compact != Block.wideMark {
            blocks[last].keyOffsets.append(compact)
        } else {
            blocks[last].keyOffsets.append(Block.wideMark)
            blocks[last].wideKeys[row] = primaryKey
        }
        if let compact = Int32(exactly: version), compact != Block.wideVersionMark {
            blocks[last].versions.append(compact)
        } else {
            blocks[last].versions.append(Block.wideVersionMark)
            blocks[last].wideVersions[row] = version
        }
        count += 1
    }

    /// Block `place`, its keys and versions moved out of this value (their buffers are freed with the result), and
    /// the memory set aside for its objects freed, for them to take.
    mutating func takeBlock(at place: Int) -> Block {
        blocks[place].room = []
        let block = blocks[place]
        blocks[place].keyOffsets = []
        blocks[place].versions = []
        return block
    }

    /// Hands over every row in the fetch's order: `packed(block, row)` for a packed row — each block taken (see
    /// ``takeBlock(at:)``) just before its first row, so its buffers go as its objects come — and `unpacked(row)` for
    /// a row that did not fit the layout, at its place among them.
    @inline(__always)
    mutating func consumeInOrder(packed: (Block, Int) -> Void, unpacked: (StoreRow) -> Void) {
        var handed = 0
        var nextUnpacked = 0
        var nextUnpackedPosition = self.unpacked.isEmpty ? Int.max : self.unpacked[0].position
        for place in blocks.indices {
            let block = takeBlock(at: place)
            for row in 0..<block.rowCount {
                while handed == nextUnpackedPosition {
                    unpacked(self.unpacked[nextUnpacked].row)
                    handed += 1
                    nextUnpacked += 1
                    nextUnpackedPosition = nextUnpacked < self.unpacked.count ? self.unpacked[nextUnpacked].position : Int.max
                }
                packed(block, row)
                handed += 1
            }
        }
        for place in nextUnpacked..<self.unpacked.count { unpacked(self.unpacked[place].row) }
    }

    /// Adds a row that did not fit the layout.
    mutating func appendUnpacked(_ row: StoreRow) {
        unpacked.append((count, row))
        count += 1
    }
}
