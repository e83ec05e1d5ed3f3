import Foundation

/// The checks every batch request makes on the keys and values it is about to write. Batch requests skip
/// validation (as in Core Data), but a key the entity does not have, or a value its attribute cannot hold, is an
/// error before anything is written: SQLite would store it silently and every later read would be wrong.
enum BatchValueChecker {
    /// The attribute `key` of `entity`, or an error listing the attributes a batch request may write.
    /// - Parameter place: where the key was found, for the message ("Batch update of Movie").
    static func attribute(_ key: String, of entity: EntityDescription, place: String) throws -> (index: Int, attribute: AttributeDescription) {
        let choices = entity.storedAttributeNames.joined(separator: ", ")
        guard let index = entity.propertyIndexByName[key] else {
            throw PersistenceError(.persistentStoreIncompatibleSchema,
                                   "\(place): \(entity.entityName) has no attribute named '\(key)'. Its attributes: \(choices).",
                                   entityName: entity.entityName, key: key)
        }
        guard let attribute = entity.attributeAt[index] else {
            throw PersistenceError(.persistentStoreIncompatibleSchema,
                                   "\(place): \(entity.entityName).\(key) is a relationship; batch requests write attributes only, as in Core Data. Its attributes: \(choices).",
                                   entityName: entity.entityName, key: key)
        }
        guard !attribute.isTransient else {
            throw PersistenceError(.persistentStoreIncompatibleSchema,
                                   "\(place): \(entity.entityName).\(key) is a transient attribute, kept in memory only; batch requests work on the store, which has no column for it. Its stored attributes: \(choices).",
                                   entityName: entity.entityName, key: key)
        }
        return (index, attribute)
    }

    /// `raw` converted to `attribute`'s own kind of value (an integer for a double attribute becomes a double, as
    /// when an object is saved), or an error naming the key and the value.
    /// - Throws: 1550 for a value of the wrong type or out of range, 1570 for nil in a non-optional attribute.
    static func value(_ raw: Any, for attribute: AttributeDescription, of entity: EntityDescription,
                      place: String) throws -> PersistentValue {
        let name = "\(entity.entityName).\(attribute.name)"
        guard let value = PersistentValue(any: raw) else {
            throw PersistenceError(.managedObjectValidation,
                                   "\(place): \(name) holds \(attribute.attributeType.rawValue) values; \(String(describing: raw)) of type \(type(of: raw)) has no stored form.",
                                   entityName: entity.entityName, key: attribute.name)
        }
        return try checked(value, for: attribute, of: entity, place: place)
    }

    /// `value` converted to `attribute`'s kind, or an error (see ``value(_:for:of:place:)``).
    static func checked(_ value: PersistentValue, for attribute: AttributeDescription, of entity: EntityDescription,
                        place: String) throws -> PersistentValue {
        let name = "\(entity.entityName).\(attribute.name)"
        if value.isNull {
            guard attribute.isOptional else {
                throw PersistenceError(.validationMissingMandatoryProperty, "\(place): \(name) is required but the value is nil.",
                                       entityName: entity.entityName, key: attribute.name, value: .null)
            }
            return .null
        }
        guard let fitting = attribute.attributeType.coerce(value) else {
            throw PersistenceError(.managedObjectValidation,
                                   "\(place): \(name) holds \(attribute.attributeType.rawValue) values; \(value) (\(value.kindName)) does not fit.",
                                   entityName: entity.entityName, key: attribute.name, value: value)
        }
        return fitting
    }
}
