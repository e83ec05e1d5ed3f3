/// One save as the store sees it: rows to insert, update and delete, and to-many lists to write, in plain values.
/// The context makes it from its objects (see `SavePlan.storeRequest()`); the store writes it in one transaction
/// and answers with a ``StoreSaveOutcome``. Nothing in it is an object of a context, so the store never reads or
/// changes one.
struct StoreSaveRequest {
    /// New rows: the context's inserted objects, in the order of its list, in runs (see ``Insert``).
    var inserts: [Insert] = []
    /// Rows another context deleted that the merge policy writes again, under their old keys.
    var reinserts: [Insert] = []
    /// Stored rows that new objects take over (a clash on a uniqueness constraint the policy settled): every
    /// column written, without a version check.
    var takeovers: [Update] = []
    /// Changed rows, written only where the row is still at the version the context read.
    var updates: [Update] = []
    /// Deleted rows, with the version the context read, in runs of one entity (see ``Deletes``).
    var deletes: [Deletes] = []
    /// To-many lists to write once every row is in place.
    var toManyWrites: [ToManyWrite] = []
    /// Constraint values of new rows to look up among the stored rows before writing (empty under
    /// ``MergePolicy/error``, where the unique index reports a clash while writing).
    var probes: [ConstraintProbe] = []
    /// The keys of new rows by number, as far as they are known before the write (a takeover's is its stored row's;
    /// 0: none yet). The store gives the others and hands the list back in the outcome.
    var newRowKeys: [Int64] = []

    /// A row the save refers to: a new row by number (its key is given during the write), falling back to a key it
    /// already has. Mirrors how a related object is written: the key this save gives it, else its own.
    struct RowReference {
        /// The row's place in the context's list of inserted objects, or -1.
        let number: Int32
        /// The row's own key, or 0 when it has none (a new object with a temporary ID).
        let key: Int64

        /// The key `self` is written as, or nil when it has none.
        @inline(__always)
        func resolved(in keys: [Int64]) -> Int64? {
            let position = Int(number)
            let given = position >= 0 && position < keys.count ? keys[position] : 0
            if given != 0 { return given }
            return key != 0 ? key : nil
        }
    }

    /// A column value to write: a value, or a reference to a row whose key may be given only in the write.
    enum ColumnValue {
        case value(SQLiteValue)
        case reference(RowReference)
    }

    /// Where an inserted row's values are: the packed row of a new object (read, not changed), or one value per
    /// property.
    enum RowValues {
        /// Row ``Insert/packedRow`` of the block; the block outlives the save (the context's objects hold it).
        case packed(Unmanaged<PackedRowBlock>)
        case values([ColumnValue])
    }

    /// A run of new rows of one entity: a single row, or consecutive rows of one packed block whose numbers follow
    /// one another too (new objects take their rows from shared blocks in the order they are inserted, so a save
    /// of tens of thousands of them is described by a few hundred runs, not an entry each).
    struct Insert {
        /// (The model keeps its entities alive; a counted reference would cost a retain per row.)
        unowned(unsafe) let entity: EntityDescription
        /// The first row's number (see ``RowReference/number``).
        let number: Int32
        /// The first row's place in its block, when packed.
        let packedRow: Int32
        /// See ``RowReference/key``; 0 for every row of a run of more than one.
        let key: Int64
        /// The number of rows in the run.
        var count: Int32 = 1
        let values: RowValues

        init(entity: EntityDescription, row: RowReference, packedRow: Int = 0, values: RowValues) {
            self.entity = entity
            self.number = row.number
            self.packedRow = Int32(truncatingIfNeeded: packedRow)
            self.key = row.key
            self.values = values
        }

        /// The reference of row `offset` of the run.
        @inline(__always)
        func row(_ offset: Int) -> RowReference {
            RowReference(number: number &+ Int32(truncatingIfNeeded: offset), key: key)
        }

        /// Whether `next` is the row after this run: new (no key), packed in the same block, numbered next.
        @inline(__always)
        func isFollowed(by next: Insert) -> Bool {
            guard case .packed(let block) = values, case .packed(let nextBlock) = next.values,
                  key == 0, next.key == 0, number >= 0, entity === next.entity else { return false }
            return block.toOpaque() == nextBlock.toOpaque() && next.packedRow == packedRow &+ count && next.number == number &+ count
        }
    }

    struct Update {
        unowned(unsafe) let entity: EntityDescription
        let primaryKey: Int64
        /// The version the row must still have; nil writes without a check (a takeover).
        let expectedVersion: Int64?
        /// By property index, ascending; properties without a column are skipped by the store.
        let changes: [(index: Int, value: ColumnValue)]
    }

    /// Deleted rows of one entity, one run of the context's list: keys, and the versions the rows must still have
    /// — one version for them all while they share it (as rows read once usually do), so a save deleting a hundred
    /// thousand rows hands over little more than their keys.
    struct Deletes {
        unowned(unsafe) let entity: EntityDescription
        private(set) var primaryKeys: [Int64] = []
        /// One per row; empty while every row has ``sharedVersion``.
        private var versions: [Int64] = []
        private let sharedVersion: Int64

        init(entity: EntityDescription, primaryKey: Int64, version: Int64) {
            self.entity = entity
            self.sharedVersion = version
            primaryKeys = [primaryKey]
        }

        mutating func append(primaryKey: Int64, version: Int64) {
            if versions.isEmpty && version != sharedVersion {
                versions = Array(repeating: sharedVersion, count: primaryKeys.count)
            }
            primaryKeys.append(primaryKey)
            if !versions.isEmpty { versions.append(version) }
        }

        /// The version row `offset` of the run must still have.
        func expectedVersion(at offset: Int) -> Int64 { versions.isEmpty ? sharedVersion : versions[offset] }
    }

    /// The current list of to-many relationship `index` of a row.
    struct ToManyWrite {
        unowned(unsafe) let entity: EntityDescription
        let index: Int
        let owner: RowReference
        let members: [RowReference]
        /// For a many-to-many relationship whose inverse is ordered: the owner's position in each member's list.
        let otherPositions: [(member: RowReference, position: Int)]
    }

    /// The values of a new row's uniqueness constraints, one list per constraint of its entity (nil when a value
    /// is nil: as in SQL, nil never clashes).
    struct ConstraintProbe {
        /// The place of the row among the new rows (in the context's list of objects it saves).
        let insert: Int
        unowned(unsafe) let entity: EntityDescription
        let values: [[SQLiteValue]?]
    }

    /// One row of the request, by list and place.
    enum Item: Equatable {
        /// A new or deleted row by its place among the new or deleted rows (not among the runs); the others by
        /// place in their lists.
        case insert(Int), reinsert(Int), takeover(Int), update(Int), delete(Int)
    }
}
