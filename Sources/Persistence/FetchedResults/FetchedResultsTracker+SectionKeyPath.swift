/// The section name key path: checked against the model before a fetch, and read from each object.
///
/// Core Data reads a section name with the object's `value(forKeyPath:)` while it names the sections, so a key that
/// nothing answers raises `NSUnknownKeyException` ("the entity … is not key value coding-compliant for the key …")
/// from `performFetch()` when there are objects, and later, when the first object arrives, when there are none.
/// Persistence throws from ``FetchedResultsController/performFetch()`` instead, and already when no object could
/// ever answer the key — the entity has no such property and its class does not answer it in
/// ``ManagedObject/value(forUndefinedKey:)`` — whether or not anything was fetched.
extension FetchedResultsTracker {
    /// The key path as it was given.
    var sectionKeyPathText: String { sectionKeyPath?.joined(separator: ".") ?? "" }

    /// Throws when no object that a fetch of `entity` can return could answer the section key path.
    func checkSectionKeyPath(for entity: EntityDescription, includesSubentities: Bool) throws {
        guard let keyPath = sectionKeyPath, !keyPath.isEmpty else { return }
        let entities = includesSubentities ? entity.family : [entity]
        if let reason = Self.unanswerable(keyPath[...], byAnyOf: entities) {
            throw sectionKeyPathError(reason, entityName: entity.entityName)
        }
    }

    /// The section name of `object` at a fetch; throws where Core Data raises.
    func sectionName(of object: ManagedObject, keyPath: [String]) throws -> String {
        switch object.sectionName(forKeyPath: keyPath) {
        case .name(let name): return name
        case .unanswered(let reason):
            throw sectionKeyPathError(reason, entityName: object.entity.entityName, object: object)
        }
    }

    /// The section name of `object` as a batch of changes places it. Where Core Data raises (an object that cannot
    /// answer the key path, arriving after the fetch), a change notification cannot throw: the object goes to the
    /// section named "", and the context's next save fails with the error, as other mistakes Core Data raises for
    /// do (see ``ManagedObject/setValue(_:forKey:)``).
    func trackedSectionName(of object: ManagedObject, keyPath: [String]) -> String {
        do {
            return try sectionName(of: object, keyPath: keyPath)
        } catch let error as PersistenceError {
            context.recordMisuse(error)
        } catch {}
        return ""
    }

    private func sectionKeyPathError(_ reason: String, entityName: String, object: ManagedObject? = nil)
        -> PersistenceError {
        PersistenceError(.coreData,
                         "\(controllerName): the section name key path '\(sectionKeyPathText)' of a fetch of \(entityName) cannot be read: \(reason). (Core Data raises NSUnknownKeyException, \"not key value coding-compliant for the key\", as it names the sections.)",
                         object: object, entityName: entityName, key: sectionKeyPathText)
    }

    /// Why none of `entities` can answer `keys`; nil when one of them can, or might (a key its class may answer).
    private static func unanswerable(_ keys: ArraySlice<String>, byAnyOf entities: [EntityDescription]) -> String? {
        var first: String?
        for entity in entities {
            guard let reason = unanswerable(keys, by: entity) else { return nil }
            if first == nil { first = reason }
        }
        return first
    }

    private static func unanswerable(_ keys: ArraySlice<String>, by entity: EntityDescription) -> String? {
        guard let key = keys.first else { return nil }
        let rest = keys.dropFirst()
        guard let index = entity.propertyIndexByName[key] else {
            // The class may compute the key; whether it does for this key shows only when an object is asked.
            if ManagedObjectOverrides.overridesValueForUndefinedKey(entity.managedObjectClass) { return nil }
            return "the entity \(entity.entityName) has no property '\(key)', and its class \(entity.managedObjectClass) does not answer it in value(forUndefinedKey:)"
        }
        if let relationship = entity.relationshipAt[index] {
            if relationship.isToMany {
                return "\(entity.entityName).\(key) is a to-many relationship; a section key path goes through to-one relationships only"
            }
            guard !rest.isEmpty, let destination = relationship.destinationEntity else { return nil }
            // A related object may be of any entity that inherits from the destination.
            return unanswerable(rest, byAnyOf: destination.family)
        }
        guard let next = rest.first else { return nil }
        return "\(entity.entityName).\(key) is an attribute, whose value has no key '\(next)': Persistence follows a section key path through objects only"
    }
}
