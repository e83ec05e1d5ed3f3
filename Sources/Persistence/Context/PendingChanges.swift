/// The unsaved changes of a context and its ancestors, by ID, as a child's fetch needs them.
struct PendingChanges: Sendable {
    var inserted = Set<ManagedObjectID>()
    var changed = Set<ManagedObjectID>()
    var deleted = Set<ManagedObjectID>()

    var isEmpty: Bool { inserted.isEmpty && changed.isEmpty && deleted.isEmpty }
}
