/// A row's primary key and its entity (which, in a hierarchy, the key alone does not tell).
struct StoreKey {
    let primaryKey: Int64
    unowned(unsafe) let entity: EntityDescription
}
