/// One attribute of an entity: a name, a type, whether it may be nil, the value new objects start with, and whether
/// the store keeps it (a transient attribute lives in memory only).
public final class AttributeDescription: Sendable, CustomStringConvertible {
    /// The attribute's name: its key for `value(forKey:)` and the name of a `@Managed` property that reads it.
    public let name: String
    /// What values the attribute holds.
    public let attributeType: AttributeType
    /// An optional attribute may be nil when saved; a non-optional one fails validation with code 1570.
    public let isOptional: Bool
    /// The value a newly inserted object starts with (`.null` for none).
    public let defaultValue: PersistentValue
    /// For a ``AttributeType/transformable`` attribute: the name its ``ValueTransformer`` is registered under
    /// (`ValueTransformer.setValueTransformer(_:forName:)`). The transformer turns the attribute's values into
    /// `Data` when they are set and back when they are read.
    ///
    /// Nil (or empty) means Core Data's default, the transformer registered as `NSSecureUnarchiveFromData`
    /// (`NSSecureUnarchiveFromDataTransformer`): a secure keyed archive of `NSArray`, `NSDictionary`, `NSSet`,
    /// `NSString`, `NSNumber`, `NSDate`, `NSData`, `NSURL`, `NSUUID` and `NSNull` values, Swift's counterparts
    /// included. Core Data logs a warning for each such attribute when it loads the model, and so does
    /// ``ManagedObjectModel`` (in ``ManagedObjectModel/warnings`` and, once per process, on standard error). Setting
    /// a value of another type changes nothing and fails the next save with 1550, naming the attribute and the type
    /// (Core Data raises `NSInvalidArgumentException`, "not among allowed top level class list", during the save).
    public let valueTransformerName: String?
    /// A transient attribute is never stored, as in Core Data: it has no column, its value lives only in the object
    /// in memory, and every object read from the store (fetched, a fault fired, refreshed without merging) starts
    /// with ``defaultValue``; refreshing with merging keeps the value in memory. Setting it is still a change (the
    /// object is updated, and validated, saved and rolled back like any other), but the save writes nothing for
    /// it: an object whose only changes are transient is saved without touching its row, so its row version stays
    /// the same and optimistic locking never checks it, and merge policies never compare a transient attribute
    /// with the store. It counts in the attribute's ``versionHash``. Fetches run by the store cannot
    /// use it in a predicate or sort descriptor; evaluate those on the objects in memory instead.
    public let isTransient: Bool
    /// Core Data's `versionHashModifier`: any text, counted in ``versionHash``. Change it to mark the attribute as
    /// another version when its values change meaning but nothing else about it does (Xcode's "Versioning Hash
    /// Modifier", `versionHashModifier` in the model's XML).
    public let versionHashModifier: String?
    /// The attribute's name in the model version a store was written with, when it has been renamed since (Xcode's
    /// "Renaming ID", `elementID` in the model's XML). Lightweight migration carries the old attribute's values
    /// over to this one; without it a renamed attribute is a removed one and a new one, and its values are lost.
    public let renamingIdentifier: String?
    /// Core Data's version hash of the attribute: SHA-256 of what shapes the store, as Apple documents it for
    /// `NSAttributeDescription.versionHash` — the name, `isOptional`, `isTransient`, the attribute type and
    /// ``versionHashModifier`` (Core Data's `isReadOnly` does not exist here). The default value, the transformer
    /// name and ``renamingIdentifier`` do not count. Apple does not publish its exact bytes: these hashes are not
    /// equal to Core Data's, only built from the same fields.
    public let versionHash: Data
    /// Whether persistent history keeps the attribute's value when its object is deleted (Core Data's
    /// `preservesValueInHistoryOnDeletion`, Xcode's "Preserve After Deletion", `preserveAfterDeletion="YES"` in
    /// the model file): the deletion's ``PersistentHistoryChange/tombstone`` then holds it, so a reader of the
    /// history can tell which object went (by a UUID, say) after its row is gone. It changes no table, so it does not
    /// count in ``versionHash``; a transient attribute has no stored value to keep.
    public let preservesValueInHistoryOnDeletion: Bool

    /// An attribute; ``PropertyDescription/attribute(_:_:optional:defaultValue:transient:preservesValueInHistoryOnDeletion:)`` is the
    /// short way to declare one in a model.
    public init(name: String, type: AttributeType, isOptional: Bool = true, defaultValue: PersistentValue = .null,
                valueTransformerName: String? = nil, isTransient: Bool = false, versionHashModifier: String? = nil,
                renamingIdentifier: String? = nil, preservesValueInHistoryOnDeletion: Bool = false) {
        self.name = name
        self.attributeType = type
        self.isOptional = isOptional
        self.valueTransformerName = valueTransformerName
        self.isTransient = isTransient
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        // Stored in the attribute's own form (an integer default of a double attribute becomes a double); one that
        // does not fit is kept as given and rejected by ManagedObjectModel.
        self.defaultValue = type.coerce(defaultValue) ?? defaultValue
        var hasher = PropertyDescription.hasher(kind: "attribute", name: name, isOptional: isOptional,
                                                isTransient: isTransient, modifier: versionHashModifier)
        hasher.update(field: type.rawValue)
        self.versionHash = hasher.finalize()
    }

    /// This attribute with other identifiers (see ``PropertyDescription/renamed(from:)``).
    func with(versionHashModifier: String?, renamingIdentifier: String?) -> AttributeDescription {
        AttributeDescription(name: name, type: attributeType, isOptional: isOptional, defaultValue: defaultValue,
                             valueTransformerName: valueTransformerName, isTransient: isTransient,
                             versionHashModifier: versionHashModifier, renamingIdentifier: renamingIdentifier)
    }

    public var description: String {
        (isTransient ? "transient " : "") + "\(name): \(attributeType.rawValue)"
            + (valueTransformerName.map { "(\($0))" } ?? "") + (isOptional ? "?" : "")
            + (defaultValue.isNull ? "" : " = \(defaultValue)")
    }
}
