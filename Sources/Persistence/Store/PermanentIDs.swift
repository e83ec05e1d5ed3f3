/// Makes the permanent IDs of one store's rows: what a context needs of the store to name rows, handed out by the
/// store (``SQLiteStore/permanentIDs``) so that no context reads the store's own tables of ID scopes.
struct PermanentIDs {
    /// The store's identifier, part of every permanent ID.
    let storeIdentifier: String
    /// The scope of the store's permanent IDs, by entity index.
    private let scopes: [ManagedObjectID.Scope]

    init(storeIdentifier: String, scopes: [ManagedObjectID.Scope]) {
        self.storeIdentifier = storeIdentifier
        self.scopes = scopes
    }

    /// The ID of row `primaryKey` of `entity`.
    @inline(__always)
    func id(of entity: EntityDescription, primaryKey: Int64) -> ManagedObjectID {
        ManagedObjectID(scope: scopes[entity.index], storage: .permanent(primaryKey))
    }

    /// The scope of `entity`'s permanent IDs (a fetch makes many IDs of one entity with it).
    @inline(__always)
    func scope(of entity: EntityDescription) -> ManagedObjectID.Scope { scopes[entity.index] }

    /// Whether there is a scope for `entity` (none for a context whose store is not loaded yet).
    func covers(_ entity: EntityDescription) -> Bool { entity.index < scopes.count }
}
