/// One row as read from the store: its primary key, its version and its values — packed into a row of a block when
/// they fit its entity's layout (see ``PackedRow``), otherwise a slot per property (attributes as values, to-ones
/// as keys, to-manys as faults).
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
