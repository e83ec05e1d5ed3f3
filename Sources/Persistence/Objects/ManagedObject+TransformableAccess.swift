/// The typed `@Managed` accessors of transformable attributes (``ManagedTransformable``, Swift arrays and
/// dictionaries): through the attribute's value transformer, as key-value coding goes. Apart from the other kinds'
/// accessors, which they leave as they are.
extension ManagedObject {
    /// The value of transformable `@Managed` property `ordinal` as its transformer gives it back; nil for nil.
    private func transformedValue(ordinal: UInt8) -> Any? {
        guard let index = entity.propertyIndex(ordinal: ordinal) ?? entity.primitivePropertyIndex(ordinal: ordinal),
              let attribute = entity.attributeAt[index] else { return nil }
        checkQueue(attribute.name)
        return reverseTransformed(attributeValue(at: index), attribute: attribute)
    }

    /// The value of non-optional transformable `@Managed` property `ordinal`. Nil, or a value of another type
    /// than `type`, is a `NilRead`; a test harness told of it reads `placeholder`, and without one the program
    /// stops all the same.
    public final func _transformableValue<Value>(ordinal: UInt8, as type: Value.Type, placeholder: Value?) -> Value {
        let found = transformedValue(ordinal: ordinal)
        if let value = found as? Value { return value }
        let read = reportNilRead(ordinal: ordinal, as: type, toOne: false, found: found.map { Swift.type(of: $0) })
        if let placeholder { return placeholder }
        fatalError(read.map { "\($0)" } ?? "\(Swift.type(of: self)) has no value of type \(type) to read for its @Managed property #\(ordinal).")
    }

    /// The value of optional transformable `@Managed` property `ordinal`: nil for nil; a value of another type
    /// than `type` is a `NilRead` and reads nil.
    public final func _optionalTransformableValue<Value>(ordinal: UInt8, as type: Value.Type) -> Value? {
        guard let found = transformedValue(ordinal: ordinal) else { return nil }
        if let value = found as? Value { return value }
        reportNilRead(ordinal: ordinal, as: type, toOne: false, found: Swift.type(of: found))
        return nil
    }

    /// Sets transformable `@Managed` property `ordinal` as ``setValue(_:forKey:)`` sets it (nil included; a
    /// primitive accessor as ``setPrimitiveValue(_:forKey:)``), its mistakes reported by the next save.
    public final func _setTransformableValue(_ value: Any?, ordinal: UInt8) {
        if let index = entity.propertyIndex(ordinal: ordinal) {
            return setValue(value, forKey: entity.properties[index].name)
        }
        if let index = entity.primitivePropertyIndex(ordinal: ordinal) {
            return setPrimitiveValue(value, forKey: entity.properties[index].name)
        }
        _setManagedStorage(.value(.null), ordinal: ordinal)
    }
}
