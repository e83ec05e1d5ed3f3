/// A to-one relationship declared non-optional, `@Managed var country: Country`, as Core Data accepts
/// `@NSManaged var country: Country`. Setting it is setting a `Country?`; reading it while the relationship is nil
/// is a programming error (`NilRead`): it stops the program, as the device would, naming the class, the property
/// and the object. The model check takes it for any to-one relationship to the class, optional in the model or
/// not — Core Data does not tie the Swift declaration to the model's optionality — and refuses it for a to-many
/// relationship or an attribute.
extension ManagedObject: ManagedPropertyValue {
    public static func fromManagedStorage(_ storage: ManagedStorage) -> Self {
        if case .objects(let objects) = storage, let object = objects.first as? Self { return object }
        return nilReadPlaceholder()
    }

    public static func _fromManagedStorage(_ storage: ManagedStorage, of object: ManagedObject,
                                           ordinal: UInt8) -> Self {
        if case .objects(let objects) = storage, let related = objects.first as? Self { return related }
        object._readNilThroughNonOptionalToOne(ordinal: ordinal, as: self)
        return nilReadPlaceholder()
    }

    /// What a nil read gives after a test harness was told of it (see `NilRead`): an object of this class in no
    /// context, with an empty entity. Never related to anything.
    private static func nilReadPlaceholder() -> Self {
        self.init(entity: EntityDescription(name: "NilRead", properties: []), insertInto: nil)
    }
}
