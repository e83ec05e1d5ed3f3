import Foundation

/// Primitive access and the access and change notification methods, for hand-written accessors:
///
/// ```swift
/// var date: Date {
///     get {
///         willAccessValue(forKey: "date"); defer { didAccessValue(forKey: "date") }
///         return primitiveValue(forKey: "date") as! Date
///     }
///     set {
///         willChangeValue(forKey: "date"); defer { didChangeValue(forKey: "date") }
///         setPrimitiveValue(newValue, forKey: "date")
///     }
/// }
/// ```
///
/// As in Core Data, the primitive methods reach the object's own storage without the notifications, and the
/// change notifications are what records a change: a value set only with ``setPrimitiveValue(_:forKey:)`` does not
/// make a saved object updated.
extension ManagedObject {
    /// The value of `key` in the object's own storage, in the forms ``value(forKey:)`` uses (a to-one as its object,
    /// a to-many as a set, an ordered one as an array); nil for nil or an unknown key.
    ///
    /// It does not call ``willAccessValue(forKey:)`` or ``didAccessValue(forKey:)`` (Apple: it "does not invoke the
    /// access notification methods"). A fault is filled first, as the values must be read from somewhere.
    public func primitiveValue(forKey key: String) -> Any? {
        checkQueue(key)
        guard let index = entity.propertyIndexByName[key] else { return nil }
        return anyValue(at: index)
    }

    /// Sets `key` to `value` in the object's own storage, taking values as ``setValue(_:forKey:)`` does (a to-one's
    /// object, a to-many's set or array), on this object's side only: a relationship's inverse is not touched.
    ///
    /// Apple: it "does not invoke the change notification methods" (``willChangeValue(forKey:)`` and
    /// ``didChangeValue(forKey:)``), which are how a context learns of a change. So, alone, it records nothing: a
    /// saved object does not become updated, ``changedValues()`` does not list the key, and a save writes it only
    /// if the key is recorded as changed by those methods (a new object is written whole, so its primitive values
    /// are saved). Call it between `willChangeValue(forKey:)` and `didChangeValue(forKey:)` to make a change that
    /// is saved; call it alone where Apple suggests, in ``awakeFromInsert()`` or ``awakeFromFetch()``, to set a value
    /// without marking the object changed.
    ///
    /// Apple advises it for attributes, not relationships; for a relationship with an inverse, "you are also
    /// responsible for maintaining the inverse relationship (irrespective of change notifications)". So here too:
    /// `note.setPrimitiveValue(folder, forKey: "folder")` leaves `folder`'s `notes` as they were, with or without
    /// the change notifications around it; set the other side yourself.
    public func setPrimitiveValue(_ value: Any?, forKey key: String) {
        checkQueue(key)
        let context = managedObjectContext
        let outer = context?.primitiveWriter
        context?.primitiveWriter = self
        defer { context?.primitiveWriter = outer }
        do {
            try setCheckedValue(value, forKey: key)
        } catch let error as PersistenceError {
            context?.recordMisuse(error)
        } catch {}
    }
}
