extension ManagedObject {
    /// `true` for a saved object whose only changes since the last save are to transient attributes. Its save
    /// writes nothing: no row update, so no optimistic-locking check and no new row version. Another context that
    /// holds the object therefore never conflicts over a change the store cannot see.
    var changesOnlyTransientAttributes: Bool {
        guard entity.hasTransientAttributes, !insertedFlag, !deletedFlag, !changedIndexes.isEmpty else { return false }
        return changedIndexes.allSatisfy { entity.isTransient(at: $0) }
    }
}
