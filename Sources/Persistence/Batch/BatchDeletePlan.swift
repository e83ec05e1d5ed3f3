/// A ``BatchDeleteRequest`` checked for the store: the rows it starts from. Delete rules decide the rest.
struct BatchDeletePlan {
    enum Roots {
        /// The rows a fetch query matches (on `t0`).
        case query(StoreQuery)
        /// Rows by primary key; keys with no row are skipped.
        case primaryKeys([Int64])
    }

    let entity: EntityDescription
    let roots: Roots
    /// Read back the IDs of every deleted row.
    let returnsKeys: Bool
}
