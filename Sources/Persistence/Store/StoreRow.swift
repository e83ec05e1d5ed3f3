/// One row as read from the store: its primary key, its version, and a slot per property (attributes as values,
/// to-ones as keys, to-manys as faults).
struct StoreRow {
    /// The row's own entity: for a fetch of an entity with subentities, the subentity the row belongs to. (The
    /// model keeps its entities alive; a counted reference would cost a retain per row read.)
    unowned(unsafe) let entity: EntityDescription
    let primaryKey: Int64
    let version: Int64
    /// The values packed, as fetched objects keep them; nil when the entity has no packed layout or a value did
    /// not fit one.
    let packed: PackedRow?
    private let unpackedSlots: [PropertySlot]

    init(entity: EntityDescription, primaryKey: Int64, version: Int64, slots: [PropertySlot]) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.version = version
        self.packed = nil
        self.unpackedSlots = slots
    }

    init(entity: EntityDescription, primaryKey: Int64, version: Int64, packed: PackedRow) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.version = version
        self.packed = packed
        self.unpackedSlots = []
    }

    /// A slot per property (unpacked anew on each call for a packed row).
    var slots: [PropertySlot] { packed?.slots() ?? unpackedSlots }
}

/// What a fetch asks the store for, already compiled to SQL (arguments bound, never spliced).
struct StoreQuery {
    let entity: EntityDescription
    /// `LEFT JOIN …` clauses for key paths through to-one relationships; the entity's own table is `t0`.
    var joins: String = ""
    var whereClause: String?
    var orderBy: String?
    var arguments: [SQLiteValue] = []
    var limit: Int = 0
    var offset: Int = 0
    /// For an entity with subentities: whether their rows are included (``FetchRequest/includesSubentities``).
    var includesSubentities = true

    /// `true` when rows of more than one entity can come back, each to be read as its own entity.
    var readsFamily: Bool { includesSubentities && entity.hasSubentities }
}

/// A row's primary key and its entity (which, in a hierarchy, the key alone does not tell).
struct StoreKey {
    let primaryKey: Int64
    unowned(unsafe) let entity: EntityDescription
}
