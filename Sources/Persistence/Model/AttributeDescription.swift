/// One attribute of an entity: a name, a type, whether it may be nil, and the value new objects start with.
public final class AttributeDescription: Sendable, CustomStringConvertible {
    public let name: String
    public let attributeType: AttributeType
    /// An optional attribute may be nil when saved; a non-optional one fails validation with code 1570.
    public let isOptional: Bool
    /// The value a newly inserted object starts with (`.null` for none).
    public let defaultValue: PersistentValue
    /// For a ``AttributeType/transformable`` attribute: the name its ``ValueTransformer`` is registered under
    /// (`ValueTransformer.setValueTransformer(_:forName:)`). The transformer turns the attribute's values into
    /// `Data` when they are set and back when they are read.
    public let valueTransformerName: String?

    public init(name: String, type: AttributeType, isOptional: Bool = true, defaultValue: PersistentValue = .null,
                valueTransformerName: String? = nil) {
        self.name = name
        self.attributeType = type
        self.isOptional = isOptional
        self.valueTransformerName = valueTransformerName
        // Stored in the attribute's own form (an integer default of a double attribute becomes a double); one that
        // does not fit is kept as given and rejected by ManagedObjectModel.
        self.defaultValue = type.coerce(defaultValue) ?? defaultValue
    }

    public var description: String {
        "\(name): \(attributeType.rawValue)" + (valueTransformerName.map { "(\($0))" } ?? "") + (isOptional ? "?" : "")
            + (defaultValue.isNull ? "" : " = \(defaultValue)")
    }
}
