internal import CPersistenceSupport

/// Numbers the `@Managed` properties of an object in the order Swift initialises them, so a property finds its
/// slot by array index instead of by key path.
///
/// Swift runs stored-property initialisers in declaration order, subclass first, before `ManagedObject.init`; each
/// `Managed()` takes the next number from a per-thread counter and `ManagedObject.init` resets it for the next
/// object. ``ManagedClassLayout`` checks once per class that the numbers run 0, 1, 2… over the declared properties.
enum ManagedPropertyOrdinal {
    @inline(__always)
    static func next() -> UInt8 {
        UInt8(truncatingIfNeeded: persistence_next_property_ordinal())
    }

    @inline(__always)
    static func reset() {
        persistence_reset_property_ordinal()
    }
}
