/// The value of one property of one object, as the object holds it in memory.
enum PropertySlot {
    /// An attribute value.
    case value(PersistentValue)
    /// A to-one relationship that has been resolved to an object (or to nothing).
    case toOne(ManagedObject?)
    /// A to-one relationship read from the store whose object has not been looked up yet (its primary key).
    case toOneKey(Int64)
    /// A to-many relationship; `nil` while it is a fault (not read from the store yet).
    case toMany(RelatedObjects?)
}
