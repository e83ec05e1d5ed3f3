import Foundation

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
    /// The values the conflicting objects share, by attribute name (`NSNull()` for nil).
    public let constraintValues: [String: Any]
    /// The stored object the new ones clash with, in the saving context (a fault until used), or nil when the
    /// clash is among new objects only.
    public let databaseObject: ManagedObject?
    /// The stored values of ``databaseObject`` (nil without one), in the form of ``MergeConflict``'s snapshots
    /// (attributes and to-one relationships' object IDs). Persistence reads them from the object as this context
    /// last read it from the store.
    public let databaseSnapshot: [String: Any]?
    /// The new objects in conflict.
    public let conflictingObjects: [ManagedObject]
    /// The values of each of ``conflictingObjects``, in the same order and the form of ``MergeConflict``'s
    /// snapshots. A new object has no values stored yet (Apple: "the original property values"): these are the
    /// ones it would be saved with. Keyed by `AnyHashable` as Core Data types them; a `String` subscript works.
    public let conflictingSnapshots: [[AnyHashable: Any]]
    /// The store's findings behind a conflict with a stored row (empty for one among new objects).
    var clashes: [ConflictResolver.ConstraintClash] = []

    /// A conflict (Core Data's `init(constraint:database:databaseSnapshot:conflicting:conflictingSnapshots:)`);
    /// saves make them, and you rarely need to. One you make resolves nothing under the default implementation:
    /// only those of a save do.
    /// `conflictingSnapshots` is typed `[Any]` as in Core Data; each element is a dictionary (`[String: Any]` or
    /// `[AnyHashable: Any]`), and one that is not counts as empty.
    public init(constraint: [String], database databaseObject: ManagedObject?,
                databaseSnapshot: [AnyHashable: Any]?, conflicting conflictingObjects: [ManagedObject],
                conflictingSnapshots: [Any]) {
        self.init(constraint: constraint, database: databaseObject,
                  databaseSnapshot: databaseSnapshot.map { snapshot in
                      Dictionary(snapshot.compactMap { key, value in (key.base as? String).map { ($0, value) } },
                                 uniquingKeysWith: { first, _ in first })
                  },
                  conflicting: conflictingObjects,
                  snapshots: conflictingSnapshots.map { $0 as? [AnyHashable: Any] ?? [:] })
    }

    private init(constraint: [String], database databaseObject: ManagedObject?,
                 databaseSnapshot: [String: Any]?, conflicting conflictingObjects: [ManagedObject],
                 snapshots conflictingSnapshots: [[AnyHashable: Any]]) {
        self.constraint = constraint
        self.databaseObject = databaseObject
        self.databaseSnapshot = databaseSnapshot
        self.conflictingObjects = conflictingObjects
        self.conflictingSnapshots = conflictingSnapshots
        var values: [String: Any] = [:]
        if let first = conflictingSnapshots.first {
            for name in constraint { values[name] = first[name] }
        }
        self.constraintValues = values
    }

    /// A conflict among the new objects `objects`, which share the values of `constraint`.
    init(constraint: [String], amongNew objects: [ManagedObject]) {
        self.init(constraint: constraint, database: nil, databaseSnapshot: nil, conflicting: objects,
                  snapshots: objects.map { $0.conflictSnapshot() })
    }

    /// A conflict of the new objects of `clashes` with the stored `databaseObject`.
    init(constraint: [String], database databaseObject: ManagedObject, clashes: [ConflictResolver.ConstraintClash]) {
        let objects = clashes.map(\.object)
        let snapshot: [String: Any]?
        if databaseObject.faultState != .fired { databaseObject.fireFault() }
        if databaseObject.isInaccessible || databaseObject.slots.isEmpty {
            snapshot = nil
        } else {
            snapshot = databaseObject.conflictSnapshot(of: databaseObject.committedSlots ?? databaseObject.slots)
        }
        self.init(constraint: constraint, database: databaseObject, databaseSnapshot: snapshot, conflicting: objects,
                  snapshots: objects.map { $0.conflictSnapshot() })
        self.clashes = clashes
    }

    /// Core Data's constraint merge error (133021) for this clash with a stored row, its conflicts in the form the
    /// store's own 133021 lists them: one per new object, naming the constraint and the stored object's ID.
    func storeClashError() -> PersistenceError {
        let object = conflictingObjects[0]
        let storedID = databaseObject.map { [$0.objectID] } ?? []
        let conflicts = conflictingObjects.map { new in
            MergeConflict(sourceObject: new, objectID: new.objectID, oldVersion: new.version, newVersion: 0,
                          objectSnapshot: new.conflictSnapshot(), cachedSnapshot: nil, persistedSnapshot: nil,
                          constraint: constraint,
                          conflictingObjectIDs: storedID)
        }
        return PersistenceError(.managedObjectConstraintMerge,
                                "\(object.entity.entityName) \(object.objectID) clashes with a stored object on (\(constraint.joined(separator: ", "))), which must be unique.",
                                object: object, conflicts: conflicts)
    }

    /// The constraint, the values and the objects.
    public var description: String {
        let values = constraint.map { "\($0) = \(constraintValues[$0].map { $0 is NSNull ? "nil" : "\($0)" } ?? "nil")" }.joined(separator: ", ")
        let stored = databaseObject.map { " and stored \($0.objectID)" } ?? ""
        return "(\(values)) shared by \(conflictingObjects.map(\.objectID))\(stored)"
    }
}
