/// How a `@Managed` property's value travels between the object and its Swift type.
public enum ManagedStorage {
    /// An attribute value.
    case value(PersistentValue)
    /// Related objects: zero or one for a to-one, any number (in order) for a to-many.
    case objects([ManagedObject])
}
