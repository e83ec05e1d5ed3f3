import Foundation

/// One attribute of an entity, Core Data's `NSAttributeDescription`: a name, a type, whether it may be nil, the
/// value new objects start with, and whether the store keeps it (a transient attribute lives in memory only).
///
/// ```swift
/// let servings = AttributeDescription()
/// servings.name = "servings"
/// servings.attributeType = .integer16AttributeType
/// servings.isOptional = false
/// servings.defaultValue = 2
/// ```
///
/// Every attribute needs a type. Core Data accepts its undefined type on a transient attribute only; Persistence
/// has no undefined type at all, so a model with an attribute whose type was never set is refused when it is used.
public final class AttributeDescription: PropertyDescription, @unchecked Sendable {
    @exclusivity(unchecked) private var storedType: AttributeType
    /// The default as it was given, before it is made to fit the type.
    @exclusivity(unchecked) private(set) var declaredDefaultValue: PersistentValue
    /// A default set through ``defaultValue`` that has no stored form (reported when the model is used).
    private(set) var unstorableDefault: Any?
    /// The value a newly inserted object starts with (`.null` for none), in the attribute's own form (an integer
    /// default of a double attribute becomes a double): what the object graph reads.
    @exclusivity(unchecked) private(set) var persistentDefaultValue: PersistentValue = .null
    @exclusivity(unchecked) private var storedTransformerName: String?
    @exclusivity(unchecked) private var storedPreservesValue: Bool
    @exclusivity(unchecked) private var storedExternalStorage = false

    /// A new attribute, as Core Data's `NSAttributeDescription()` makes it: no name yet, optional, not transient,
    /// no default value, and no type until you set ``attributeType``.
    public init() {
        storedType = .undefined
        declaredDefaultValue = .null
        storedPreservesValue = false
        super.init(isAttribute: true, name: "", isOptional: true, isTransient: false, versionHashModifier: nil,
                   renamingIdentifier: nil)
    }

    /// An attribute with every field given at once: Persistence's shorthand, in the `ModelBuilding` SPI group
    /// (``PropertyDescription/attribute(_:_:optional:defaultValue:transient:preservesValueInHistoryOnDeletion:)``
    /// is the short way to declare one in a model).
    @_spi(ModelBuilding) public init(name: String, type: AttributeType, isOptional: Bool = true,
                                     defaultValue: PersistentValue = .null, valueTransformerName: String? = nil,
                                     isTransient: Bool = false, versionHashModifier: String? = nil,
                                     renamingIdentifier: String? = nil, preservesValueInHistoryOnDeletion: Bool = false) {
        storedType = type
        declaredDefaultValue = defaultValue
        storedTransformerName = valueTransformerName
        storedPreservesValue = preservesValueInHistoryOnDeletion
        super.init(isAttribute: true, name: name, isOptional: isOptional, isTransient: isTransient,
                   versionHashModifier: versionHashModifier, renamingIdentifier: renamingIdentifier)
        fitDefaultValue()
    }

    /// What values the attribute holds: one of Core Data's `NSAttributeType` constants, such as
    /// `.stringAttributeType` or `.integer16AttributeType` (see ``AttributeType``).
    public var attributeType: AttributeType {
        get { storedType }
        set {
            guard mayChange("attributeType") else { return }
            storedType = newValue
            fitDefaultValue()
            didChange()
        }
    }

    /// The value a newly inserted object starts with, or `nil` for none: a value of the attribute's type (`String`,
    /// an integer, `Double`, `Bool`, `Date`, `UUID`, `URL`, `Data`, `Decimal`). Read back, integers come as `Int`,
    /// as `value(forKey:)` gives them. A default that does not fit the type (text for an integer attribute, a type
    /// no attribute holds) makes the model fail when it is used, naming the attribute; Core Data documents no check.
    public var defaultValue: Any? {
        get {
            if let unstorableDefault { return unstorableDefault }
            return ManagedObject.swiftValue(persistentDefaultValue, type: storedType)
        }
        set {
            guard mayChange("defaultValue") else { return }
            if let value = PersistentValue(any: newValue) {
                declaredDefaultValue = value
                unstorableDefault = nil
            } else {
                declaredDefaultValue = .null
                unstorableDefault = newValue
            }
            fitDefaultValue()
            didChange()
        }
    }

    /// For a ``AttributeType/transformable`` attribute: the name its ``ValueTransformer`` is registered under
    /// (`ValueTransformer.setValueTransformer(_:forName:)`). The transformer turns the attribute's values into
    /// `Data` when they are set and back when they are read.
    ///
    /// Nil (or empty) means Core Data's default, the transformer registered as `NSSecureUnarchiveFromData`
    /// (`NSSecureUnarchiveFromDataTransformer`): a secure keyed archive of `NSArray`, `NSDictionary`, `NSSet`,
    /// `NSString`, `NSNumber`, `NSDate`, `NSData`, `NSURL`, `NSUUID` and `NSNull` values, Swift's counterparts
    /// included. Core Data logs a warning for each such attribute when it loads the model, and so does
    /// ``ManagedObjectModel`` (on standard error, once per process). Setting a value of another type changes
    /// nothing and fails the next save with 1550, naming the attribute and the type (Core Data raises
    /// `NSInvalidArgumentException`, "not among allowed top level class list", during the save).
    public var valueTransformerName: String? {
        get { storedTransformerName }
        set {
            guard mayChange("valueTransformerName") else { return }
            storedTransformerName = newValue
            didChange()
        }
    }

    /// Whether persistent history keeps the attribute's value when its object is deleted (Core Data's
    /// `preservesValueInHistoryOnDeletion`, Xcode's "Preserve After Deletion", `preserveAfterDeletion="YES"` in
    /// the model file): the deletion's ``PersistentHistoryChange/tombstone`` then holds it, so a reader of the
    /// history can tell which object went (by a UUID, say) after its row is gone. It changes no table, so it does not
    /// count in ``PropertyDescription/versionHash``; a transient attribute has no stored value to keep.
    public var preservesValueInHistoryOnDeletion: Bool {
        get { storedPreservesValue }
        set {
            guard mayChange("preservesValueInHistoryOnDeletion") else { return }
            storedPreservesValue = newValue
        }
    }

    /// Core Data's permission to keep large binary data in files beside the store rather than in its rows (Xcode's
    /// "Allows External Storage"). Core Data decides by size, and the values read the same either way; Persistence
    /// keeps every value in the store's rows, so the flag is kept but changes nothing. It does not count in
    /// ``PropertyDescription/versionHash``, as Apple lists it among none of the hash's fields.
    public var allowsExternalBinaryDataStorage: Bool {
        get { storedExternalStorage }
        set {
            guard mayChange("allowsExternalBinaryDataStorage") else { return }
            storedExternalStorage = newValue
        }
    }

    /// Core Data's version hash of the attribute: SHA-256 of what shapes the store, as Apple documents it for
    /// `NSAttributeDescription.versionHash` — the name, `isOptional`, `isTransient`, the attribute type and
    /// ``versionHashModifier`` (Core Data's `isReadOnly` does not exist here). The default value, the transformer
    /// name and ``renamingIdentifier`` do not count. Apple does not publish its exact bytes: these hashes are not
    /// equal to Core Data's, only built from the same fields.
    var attributeVersionHash: Data {
        var hasher = PropertyDescription.hasher(kind: "attribute", name: name, isOptional: isOptional,
                                                isTransient: isTransient, modifier: versionHashModifier)
        hasher.update(field: storedType.rawValue)
        return hasher.finalize()
    }

    /// Stores the default in the attribute's own form; one that does not fit is kept as given and rejected when
    /// the model is checked.
    private func fitDefaultValue() {
        persistentDefaultValue = storedType.coerce(declaredDefaultValue) ?? declaredDefaultValue
    }

    var attributeDescriptionText: String {
        (isTransient ? "transient " : "") + "\(name): \(attributeType.rawValue)"
            + (valueTransformerName.map { "(\($0))" } ?? "") + (isOptional ? "?" : "")
            + (persistentDefaultValue.isNull ? "" : " = \(persistentDefaultValue)")
    }
}
