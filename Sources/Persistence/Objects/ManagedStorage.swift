/// How a `@Managed` property's value travels between the object and its Swift type.
public enum ManagedStorage {
    /// An attribute value.
    case value(PersistentValue)
    /// Related objects: zero or one for a to-one, any number (in order) for a to-many.
    case objects([ManagedObject])
    /// A value no relationship can hold — an `NSOrderedSet` with an element that is not a managed object, named
    /// here by its type. Setting it is refused, as Core Data refuses it ("Unacceptable type of value").
    case unacceptable(String)
}
