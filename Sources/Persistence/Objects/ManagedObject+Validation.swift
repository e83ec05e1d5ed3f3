import Foundation

/// The model's validation rules, as the default ``ManagedObject/validateForInsert()``,
/// ``ManagedObject/validateForUpdate()``, ``ManagedObject/validateForDelete()`` and
/// ``ManagedObject/validateValue(_:forKey:)`` apply them, and how a save gathers what they throw.
extension ManagedObject {
    /// The default validation of an inserted or updated object: the model's rules, checked in bulk, then
    /// ``validateValue(_:forKey:)`` for each attribute and to-one relationship (an updated object's changed ones)
    /// when the class overrides it (the default one would only repeat the model's rules).
    func validateForSave() throws {
        var errors: [any Error] = []
        modelErrors(into: &errors)
        if let context = managedObjectContext, ManagedObjectOverrides.overridesValidateValue(type(of: self)) {
            let previous = context.validatingObject
            context.validatingObject = self
            defer { context.validatingObject = previous }
            let relationships = entity.relationshipAt
            let validate = { (index: Int) in
                if let relationship = relationships[index], relationship.isToMany { return }
                var value = self.anyValue(at: index)
                do {
                    try self.validateValue(&value, forKey: self.entity.properties[index].name)
                } catch {
                    errors.append(error)
                }
            }
            if insertedFlag {
                for index in entity.properties.indices { validate(index) }
            } else {
                for index in changedIndexes.sorted() { validate(index) }
            }
        }
        try Self.throwCombined(errors)
    }

    /// The default validation of a deletion: no deny rule may still hold objects (1600).
    func validateDeleteRules() throws {
        var errors: [any Error] = []
        for (index, relationship) in entity.relationshipAt.enumerated() where relationship?.deleteRule == .denyDeleteRule {
            let blocking = relatedObjects(at: index).filter { !$0.deletedFlag }
            guard !blocking.isEmpty else { continue }
            errors.append(PersistenceError(
                .validationRelationshipDeniedDelete,
                "\(entity.entityName) \(objectID) cannot be deleted: its relationship '\(relationship!.name)' still holds \(blocking.count) object(s) and its delete rule is deny.",
                object: self, key: relationship!.name))
        }
        try Self.throwCombined(errors)
    }

    /// The objects of the relationship at `index`, loaded if need be.
    func relatedObjects(at index: Int) -> [ManagedObject] {
        guard let relationship = entity.relationshipAt[index] else { return [] }
        if relationship.isToMany { return toManyObjects(at: index).objects }
        return toOneObject(at: index).map { [$0] } ?? []
    }

    /// The model's rules for the object as it stands: required values, values that fit, required to-ones, to-many
    /// counts.
    private func modelErrors(into errors: inout [any Error]) {
        let name = entity.entityName
        if faultState != .fired { fireFault() }
        for index in entity.mandatoryAttributeIndexes {
            guard attributeIsNil(at: index), let attribute = entity.attributeAt[index] else { continue }
            errors.append(PersistenceError(.validationMissingMandatoryProperty, "\(name).\(attribute.name) is required but is nil.",
                                           object: self, key: attribute.name, value: .null))
        }
        if holdsUnfittingValue {
            for (index, attribute) in entity.attributeAt.enumerated() {
                guard let attribute, case let value = attributeValue(at: index), !value.isNull,
                      attribute.attributeType.coerce(value) == nil else { continue }
                errors.append(PersistenceError(.managedObjectValidation,
                                               "\(name).\(attribute.name) holds \(attribute.attributeType.rawValue) values; \(value) (\(value.kindName)) does not fit.",
                                               object: self, key: attribute.name, value: value))
            }
        }
        for index in entity.checkedRelationshipIndexes {
            guard let relationship = entity.relationshipAt[index] else { continue }
            if !relationship.isToMany {
                if !relationship.isOptional, toOneObject(at: index) == nil {
                    errors.append(PersistenceError(.validationMissingMandatoryProperty,
                                                   "\(name).\(relationship.name) is required but points at no \(relationship.destinationEntityName).",
                                                   object: self, key: relationship.name))
                }
            } else {
                // Only a loaded relationship can have changed; an unloaded one was valid when saved.
                guard case .toMany(let related?) = slot(at: index) else { continue }
                // Apple (NSRelationshipDescription, "Cardinality"): a minimum of 0 means none, and the counts apply
                // only to a relationship that holds something, so an optional one may be empty whatever its
                // minimum. A non-optional to-many with no minimum may be empty too: its value, a set, is never
                // nil, and nothing sets a minimum (Apple does not say more; published apps save such empty sets).
                let minimum = relationship.isOptional && related.count == 0 ? 0 : relationship.minCount
                if related.count < minimum {
                    errors.append(PersistenceError(.validationRelationshipLacksMinimumCount,
                                                   "\(name).\(relationship.name) needs at least \(minimum) object(s) but holds \(related.count).",
                                                   object: self, key: relationship.name))
                } else if relationship.maxCount > 0, related.count > relationship.maxCount {
                    errors.append(PersistenceError(.validationRelationshipExceedsMaximumCount,
                                                   "\(name).\(relationship.name) may hold at most \(relationship.maxCount) object(s) but holds \(related.count).",
                                                   object: self, key: relationship.name))
                }
            }
        }
    }

    /// The default ``validateValue(_:forKey:)``: the model's rules applied to `value` for `key`.
    func validateModelRules(_ value: Any?, forKey key: String) throws {
        let name = entity.entityName
        guard let index = entity.propertyIndexByName[key] else {
            throw PersistenceError(.managedObjectValidation,
                                   "validateValue(_:forKey:): the entity \(name) has no property named '\(key)' (Core Data raises NSUnknownKeyException here).",
                                   object: self, key: key)
        }
        let isNil = value == nil || value is NSNull
        if let relationship = entity.relationshipAt[index] {
            if isNil {
                guard relationship.isOptional || relationship.isToMany else {
                    throw PersistenceError(.validationMissingMandatoryProperty,
                                           "\(name).\(key) is required but points at no \(relationship.destinationEntityName).",
                                           object: self, key: key)
                }
                return
            }
            if !relationship.isToMany {
                guard let object = value as? ManagedObject, let destination = relationship.destinationEntity,
                      object.entity.isKindOf(entity: destination) else {
                    throw PersistenceError(.managedObjectValidation,
                                           "\(name).\(key) is a to-one relationship to \(relationship.destinationEntityName); \(type(of: value!)) does not fit.",
                                           object: self, key: key)
                }
            }
            return
        }
        guard let attribute = entity.attributeAt[index] else { return }
        if isNil {
            guard attribute.isOptional else {
                throw PersistenceError(.validationMissingMandatoryProperty, "\(name).\(key) is required but is nil.",
                                       object: self, key: key, value: .null)
            }
            return
        }
        guard attribute.attributeType != .transformable else { return }
        guard let stored = PersistentValue(any: value), attribute.attributeType.coerce(stored) != nil else {
            throw PersistenceError(.managedObjectValidation,
                                   "\(name).\(key) holds \(attribute.attributeType.rawValue) values; \(value!) (\(type(of: value!))) does not fit.",
                                   object: self, key: key, value: PersistentValue(any: value))
        }
    }

    /// Throws nothing for no error, the error itself for one, and error 1560 listing them for several — as Core
    /// Data combines validation errors under `NSDetailedErrorsKey`. Each detail is the error as it was thrown: the
    /// app's own (its domain, code and `userInfo`, from `validateForInsert()` or a `validate<Key>` override) kept
    /// unchanged, as Core Data keeps them; a 1560 of Persistence's own among them gives its details instead.
    static func throwCombined(_ errors: [any Error]) throws {
        if errors.isEmpty { return }
        if errors.count == 1 { throw errors[0] }
        var details: [NSError] = []
        for error in errors {
            if let error = error as? PersistenceError, error.code == CocoaError.Code.validationMultipleErrors.rawValue {
                details += error.detailedErrors
            } else {
                details.append(error as NSError)
            }
        }
        throw PersistenceError(.validationMultipleErrors,
                               "Multiple validation errors occurred (\(details.count)): "
                                   + details.map(\.localizedDescription).joined(separator: " "),
                               detailedErrors: details)
    }
}
