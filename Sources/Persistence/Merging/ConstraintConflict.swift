/// New objects of a save that break a uniqueness constraint (Core Data's `NSConstraintConflict`), handed to
/// ``MergePolicy/resolve(constraintConflicts:)``.
///
/// Two kinds, told apart by ``databaseObject`` as in Core Data: with one, the ``conflictingObjects`` (new objects)
/// hold the constraint's values of a row already stored, which ``databaseObject`` is in this context; without
/// one, the ``conflictingObjects`` are new objects of this save that share the values among themselves, in the
/// order they were inserted.
///
/// Use it on the saving context's queue, during the call it is handed to.
public struct ConstraintConflict: CustomStringConvertible {
    /// The constraint's attribute names.
    public let constraint: [String]
    /// The values the conflicting objects share, by attribute name.
    public let constraintValues: [String: PersistentValue]
    /// The stored object the new ones clash with, in the saving context (a fault until used), or nil when the
    /// clash is among new objects only.
    public let databaseObject: ManagedObject?
    /// The stored attribute values of ``databaseObject`` (nil without one). Persistence reads them from the
    /// object as this context last read it from the store.
    public let databaseSnapshot: [String: PersistentValue]?
    /// The new objects in conflict.
    public let conflictingObjects: [ManagedObject]
    /// The attribute values of each of ``conflictingObjects``, in the same order. A new object has no values
    /// stored yet (Apple: "the original property values"): these are the ones it would be saved with.
    public let conflictingSnapshots: [[String: PersistentValue]]
    /// The store's findings behind a conflict with a stored row (empty for one among new objects).
    var clashes: [ConflictResolver.ConstraintClash] = []

    /// A conflict (Core Data's `init(constraint:database:databaseSnapshot:conflicting:conflictingSnapshots:)`);
    /// saves make them, and you rarely need to. One you make resolves nothing under the default implementation:
    /// only those of a save do.
    public init(constraint: [String], database databaseObject: ManagedObject?,
                databaseSnapshot: [String: PersistentValue]?, conflicting conflictingObjects: [ManagedObject],
                conflictingSnapshots: [[String: PersistentValue]]) {
        self.constraint = constraint
        self.databaseObject = databaseObject
        self.databaseSnapshot = databaseSnapshot
        self.conflictingObjects = conflictingObjects
        self.conflictingSnapshots = conflictingSnapshots
        var values: [String: PersistentValue] = [:]
        if let first = conflictingSnapshots.first {
            for name in constraint { values[name] = first[name] }
        }
        self.constraintValues = values
    }

    /// A conflict among the new objects `objects`, which share the values of `constraint`.
    init(constraint: [String], amongNew objects: [ManagedObject]) {
        self.init(constraint: constraint, database: nil, databaseSnapshot: nil, conflicting: objects,
                  conflictingSnapshots: objects.map { MergeConflict.attributeSnapshot($0.slots, entity: $0.entity) })
    }

    /// A conflict of the new objects of `clashes` with the stored `databaseObject`.
    init(constraint: [String], database databaseObject: ManagedObject, clashes: [ConflictResolver.ConstraintClash]) {
        let objects = clashes.map(\.object)
        let snapshot: [String: PersistentValue]?
        if databaseObject.faultState != .fired { databaseObject.fireFault() }
        if databaseObject.isInaccessible || databaseObject.slots.isEmpty {
            snapshot = nil
        } else {
            snapshot = MergeConflict.attributeSnapshot(databaseObject.committedSlots ?? databaseObject.slots,
                                                       entity: databaseObject.entity)
        }
        self.init(constraint: constraint, database: databaseObject, databaseSnapshot: snapshot, conflicting: objects,
                  conflictingSnapshots: objects.map { MergeConflict.attributeSnapshot($0.slots, entity: $0.entity) })
        self.clashes = clashes
    }

    /// Core Data's constraint merge error (133021) for this clash with a stored row, its conflicts in the form the
    /// store's own 133021 lists them: one per new object, naming the constraint and the stored object's ID.
    func storeClashError() -> PersistenceError {
        let object = conflictingObjects[0]
        let storedID = databaseObject.map { [$0.objectID] } ?? []
        let conflicts = conflictingObjects.map { new in
            MergeConflict(sourceObject: new, objectID: new.objectID, oldVersion: new.version, newVersion: 0,
                          objectSnapshot: MergeConflict.attributeSnapshot(new.slots, entity: new.entity),
                          cachedSnapshot: [:], persistedSnapshot: [:], constraint: constraint,
                          conflictingObjectIDs: storedID)
        }
        return PersistenceError(.managedObjectConstraintMerge,
                                "\(object.entity.entityName) \(object.objectID) clashes with a stored object on (\(constraint.joined(separator: ", "))), which must be unique.",
                                object: object, conflicts: conflicts)
    }

    /// The constraint, the values and the objects.
    public var description: String {
        let values = constraint.map { "\($0) = \(constraintValues[$0].map { "\($0)" } ?? "nil")" }.joined(separator: ", ")
        let stored = databaseObject.map { " and stored \($0.objectID)" } ?? ""
        return "(\(values)) shared by \(conflictingObjects.map(\.objectID))\(stored)"
    }
}
