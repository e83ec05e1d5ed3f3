/// Where a managed object's values are: a slot per property, or one row of a ``PackedRowBlock``.
enum ObjectValues {
    /// A slot per property of the entity; empty while a fault has no row.
    case slots([PropertySlot])
    /// Row ``ManagedObject/packedRowIndex`` of this block.
    case packed(PackedRowBlock)
}
