/// What the classes of an entity's objects allow, now that a subentity's class need not derive from its parent's
/// (entity `Country` inheriting from `Region`, class `Country: ManagedObject`, as Core Data allows).
extension EntityDescription {
    /// `true` when every object a fetch of this entity returns is an instance of `type`, so the results can be
    /// handed out as `[type]` without looking at each one.
    func fetchesOnlyInstances(of type: AnyClass, includingSubentities: Bool) -> Bool {
        ClassAncestry.isClass(managedObjectClass, subclassOf: type) && (!includingSubentities || familySharesClass)
    }

    /// The first entity of this one's family whose objects are not instances of `type` (nil when all of them are):
    /// what a typed relationship to this entity could hold but not give back as `type`.
    func firstMember(notOf type: AnyClass) -> EntityDescription? {
        family.first { !ClassAncestry.isClass($0.managedObjectClass, subclassOf: type) }
    }

    /// The error for a typed fetch of this entity (`requestKind` "FetchRequest" or "AsynchronousFetchRequest", of
    /// `resultType`) whose results include `object`, which is not a `resultType`.
    ///
    /// Core Data's Swift `fetch(_:)` returns `[T]` without a check of its own (undocumented; an element that is not
    /// a `T` traps where the array is used, as any element that fails its cast). A typed result here cannot hold
    /// such an object either, so the fetch throws and says what to do instead.
    func resultClassError(_ object: ManagedObject, requestKind: String, resultType: Any.Type) -> PersistenceError {
        let found = object.entity
        return PersistenceError(.coreData,
                                "\(requestKind)<\(resultType)> for \(entityName) found an object of \(found === self ? "" : "its subentity ")\(found.entityName), whose class \(type(of: object)) is not \(resultType) (a subentity's class need not derive from its parent's). Fetch with \(requestKind)<ManagedObject> (or a class all the results share), or set includesSubentities to false.",
                                object: object, entityName: entityName)
    }
}
