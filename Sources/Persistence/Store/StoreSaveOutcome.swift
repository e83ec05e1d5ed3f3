/// What the store answers a ``StoreSaveRequest``: written (with the keys it gave), or not written because rows
/// conflict — changed or deleted since the context read them, or new rows clashing with stored ones on a uniqueness
/// constraint. Conflicts come back with what the store holds, for the merge policy to settle in the context.
enum StoreSaveOutcome {
    case written(Receipt)
    case conflicts(versions: [VersionConflict], clashes: [ConstraintClash])

    struct Receipt {
        /// The key of each new row by number (0: none), the request's ``StoreSaveRequest/newRowKeys`` completed.
        let newRowKeys: [Int64]
        /// How many keys the write gave new rows, by entity index.
        let allocatedKeyCounts: [Int]
    }

    /// A row being updated or deleted whose version is not the one the context read.
    struct VersionConflict {
        let item: StoreSaveRequest.Item
        /// The row's version now (0: the row is gone).
        let version: Int64
        /// The row as stored now, or nil when it is gone.
        let row: StoreRow?
    }

    /// A new row whose values of a uniqueness constraint a stored row already has.
    struct ConstraintClash {
        /// The place of the new row among the new rows (see ``StoreSaveRequest/ConstraintProbe/insert``).
        let insert: Int
        /// The constraint's number in its entity's list.
        let constraint: Int
        let stored: StoreKey
        /// The stored row's version.
        let version: Int64
    }
}
