import Foundation

/// Every failure Persistence reports: Core Data's error code, a message a person can act on, and the details
/// that locate the problem (object, entity, key, value, SQL, file).
///
/// Codes are Core Data's own (`NSCocoaErrorDomain`), so what a learner reads here matches what Apple's
/// framework would say: 1570 for a missing mandatory property, 133020 for a merge conflict, and so on.
public struct PersistenceError: Error, Sendable, CustomStringConvertible {
    /// Core Data's numeric error codes.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// 1550: an object failed validation (a value of the wrong type or out of range).
        public static let managedObjectValidation = Code(rawValue: 1550)
        /// 1551: objects in one save break a uniqueness constraint among themselves.
        public static let managedObjectConstraintValidation = Code(rawValue: 1551)
        /// 1560: several validation errors; see ``PersistenceError/detailedErrors``.
        public static let validationMultipleErrors = Code(rawValue: 1560)
        /// 1570: a non-optional property has no value.
        public static let validationMissingMandatoryProperty = Code(rawValue: 1570)
        /// 1580: a to-many relationship has fewer objects than its minimum.
        public static let validationRelationshipLacksMinimumCount = Code(rawValue: 1580)
        /// 1590: a to-many relationship has more objects than its maximum.
        public static let validationRelationshipExceedsMaximumCount = Code(rawValue: 1590)
        /// 1600: a deny delete rule stops the deletion of an object that still has related objects.
        public static let validationRelationshipDeniedDelete = Code(rawValue: 1600)
        /// 133000: the object's row is gone from the store.
        public static let managedObjectReferentialIntegrity = Code(rawValue: 133_000)
        /// 133020: optimistic locking failed: "Could not merge changes."
        public static let managedObjectMerge = Code(rawValue: 133_020)
        /// 133021: a save collides with a stored row under a uniqueness constraint.
        public static let managedObjectConstraintMerge = Code(rawValue: 133_021)
        /// 134000: the store URL or type is not valid.
        public static let persistentStoreInvalidType = Code(rawValue: 134_000)
        /// 134020: the operation is not valid for this store or context (e.g. unknown entity or key).
        public static let persistentStoreIncompatibleSchema = Code(rawValue: 134_020)
        /// 134030: the store could not save.
        public static let persistentStoreSave = Code(rawValue: 134_030)
        /// 134060: a general Core Data error (bad request, misuse of the API).
        public static let coreData = Code(rawValue: 134_060)
        /// 134100: the store was made with a different model.
        public static let persistentStoreIncompatibleVersionHash = Code(rawValue: 134_100)
        /// 134110: a migration failed part-way (the store is left as it was); the message says where and why.
        public static let migration = Code(rawValue: 134_110)
        /// 134130: the store needs migrating but none of the model versions the app has is the one it was written with.
        public static let migrationMissingSourceModel = Code(rawValue: 134_130)
        /// 134140: no mapping from the store's model to the current one could be inferred (a change that is not
        /// lightweight); the message names the entity, the property and why.
        public static let migrationMissingMappingModel = Code(rawValue: 134_140)
        /// 134190: an inferred mapping model could not be made.
        public static let inferredMappingModel = Code(rawValue: 134_190)
        /// 256: the store file could not be read.
        public static let fileReadUnknown = Code(rawValue: 256)
        /// 257: no permission to read the store file or its folder.
        public static let fileReadNoPermission = Code(rawValue: 257)
        /// 259: the store file is not a database (corrupt or another format).
        public static let fileReadCorruptFile = Code(rawValue: 259)
        /// 260: the store's folder does not exist.
        public static let fileReadNoSuchFile = Code(rawValue: 260)
        /// 3072: the operation was cancelled (Foundation's `NSUserCancelledError`), e.g. an asynchronous fetch.
        public static let userCancelled = Code(rawValue: 3072)
        /// 513: no permission to write the store file or its folder.
        public static let fileWriteNoPermission = Code(rawValue: 513)

        public var description: String { String(rawValue) }
    }

    /// Core Data's error code.
    public var code: Code
    /// What went wrong, in a sentence a person can act on.
    public var message: String
    /// The ID of the object concerned, when there is one.
    public var objectID: ManagedObjectID?
    /// The object concerned, when the error was found on it (Core Data's `NSValidationObjectErrorKey`, or
    /// `NSAffectedObjectsErrorKey` for an error that is not a validation error). Use it on its context's queue only.
    public var object: ManagedObject? { objectReference?.object }
    var objectReference: ErrorObjectReference?
    /// The entity concerned.
    public var entityName: String?
    /// The property concerned (Core Data's `NSValidationKeyErrorKey`).
    public var key: String?
    /// The offending value (Core Data's `NSValidationValueErrorKey`).
    public var value: PersistentValue?
    /// For code 1560: one error per problem found.
    public var detailedErrors: [PersistenceError]
    /// The merge conflicts, for codes 133020 and 133021.
    public var conflicts: [MergeConflict]
    /// The SQL that failed, when SQLite reported the error.
    public var sql: String?
    /// SQLite's extended result code, when SQLite reported the error.
    public var sqliteCode: Int32?
    /// The store or file concerned.
    public var url: URL?

    /// An error with Core Data's `code`, a `message` a person can act on, and whatever of the rest is known.
    public init(
        _ code: Code, _ message: String, object: ManagedObject? = nil, objectID: ManagedObjectID? = nil,
        entityName: String? = nil,
        key: String? = nil, value: PersistentValue? = nil, detailedErrors: [PersistenceError] = [],
        conflicts: [MergeConflict] = [], sql: String? = nil, sqliteCode: Int32? = nil, url: URL? = nil
    ) {
        self.code = code
        self.message = message
        self.objectReference = object.map(ErrorObjectReference.init)
        self.objectID = objectID ?? object?.objectID
        self.entityName = entityName ?? self.objectID?.entityName
        self.key = key
        self.value = value
        self.detailedErrors = detailedErrors
        self.conflicts = conflicts
        self.sql = sql
        self.sqliteCode = sqliteCode
        self.url = url
    }

    public var description: String {
        var text = "Persistence error \(code.rawValue): \(message)"
        if let sql { text += "\n  SQL: \(sql)" }
        for detail in detailedErrors { text += "\n  - \(detail.code.rawValue): \(detail.message)" }
        return text
    }

    /// The error for a failure SQLite reported while running `sql`: a damaged file (SQLite's "corrupt" or "not a
    /// database", found only when a damaged page is read) is 259, as in Core Data; anything else 134030.
    static func sqlite(_ error: SQLiteError, _ context: String, url: URL? = nil) -> PersistenceError {
        let damaged = error.isDamagedFile
        return PersistenceError(damaged ? .fileReadCorruptFile : .persistentStoreSave,
                                "\(context): \(error.message) (SQLite \(error.code))\(damaged ? ". The store file is damaged; restore it from a backup." : "")",
                                sql: error.sql, sqliteCode: error.code, url: url)
    }
}

extension PersistenceError: LocalizedError {
    public var errorDescription: String? { description }
}

/// One object that could not be saved because the store changed under it (optimistic locking), or one clash
/// under a uniqueness constraint (Core Data's `NSMergeConflict`).
///
/// Each snapshot holds, as Core Data's do, the values of every attribute and to-one relationship — not to-many
/// relationships — by property name: a relationship's value is the related object's ``ManagedObjectID``, and a nil
/// value is `NSNull()` (as in ``ManagedObject/committedValues(forKeys:)``). Transient attributes are left out: the
/// store holds none.
public struct MergeConflict: Sendable, CustomStringConvertible {
    /// The ID of the object being saved (Persistence-only; Core Data: `sourceObject.objectID`).
    @_spi(TestHarness) public internal(set) var objectID: ManagedObjectID
    /// The object being saved, never nil as in Core Data. The conflict holds it strongly, so it stays alive while the
    /// conflict (or the error carrying it) is around. Use it on its context's queue only.
    public var sourceObject: ManagedObject { sourceReference.object }
    let sourceReference: ErrorObjectReference
    /// The row version the context last saw (Persistence-only; Core Data's ``oldVersionNumber``).
    @_spi(TestHarness) public internal(set) var oldVersion: Int64
    /// The row version now in the store, 0 when the row was deleted (Persistence-only; Core Data's
    /// ``newVersionNumber``).
    @_spi(TestHarness) public internal(set) var newVersion: Int64
    /// The version of the object the context last saw.
    public var oldVersionNumber: Int { Int(oldVersion) }
    /// The version now in the store: 0 when the row was deleted, and then ``persistedSnapshot`` is nil.
    public var newVersionNumber: Int { Int(newVersion) }
    /// The object's values as it would save them.
    public internal(set) var objectSnapshot: [String: Any]? {
        get { snapshots.object }
        set { snapshots.object = newValue }
    }
    /// The values the context last read from the store (nil for a conflict under a uniqueness constraint).
    public internal(set) var cachedSnapshot: [String: Any]? {
        get { snapshots.cached }
        set { snapshots.cached = newValue }
    }
    /// The values now in the store: nil when the row was deleted (``newVersionNumber`` 0), as in Core Data, and for
    /// a conflict under a uniqueness constraint.
    public internal(set) var persistedSnapshot: [String: Any]? {
        get { snapshots.persisted }
        set { snapshots.persisted = newValue }
    }
    private var snapshots: Snapshots
    /// For a uniqueness conflict in an error: the constraint's attribute names (Persistence-only; Core Data hands
    /// such clashes to the merge policy as ``ConstraintConflict``s).
    @_spi(TestHarness) public internal(set) var constraint: [String]
    /// For a uniqueness conflict in an error: the IDs of the stored (or other new) objects that hold the same values
    /// (Persistence-only).
    @_spi(TestHarness) public internal(set) var conflictingObjectIDs: [ManagedObjectID]

    /// The three snapshots. `@unchecked Sendable` because `Any` is not: a save makes them as fresh copies of values
    /// (strings, numbers, dates, data, object IDs, `NSNull`) that nothing else holds, and a transformable
    /// attribute's value is one its transformer made for this snapshot alone.
    private struct Snapshots: @unchecked Sendable {
        var object: [String: Any]?
        var cached: [String: Any]?
        var persisted: [String: Any]?
    }

    /// A conflict as a save makes it.
    init(sourceObject: ManagedObject, objectID: ManagedObjectID, oldVersion: Int64, newVersion: Int64,
         objectSnapshot: [String: Any]?, cachedSnapshot: [String: Any]?, persistedSnapshot: [String: Any]?,
         constraint: [String] = [], conflictingObjectIDs: [ManagedObjectID] = []) {
        self.sourceReference = ErrorObjectReference(sourceObject)
        self.objectID = objectID
        self.oldVersion = oldVersion
        self.newVersion = newVersion
        self.snapshots = Snapshots(object: objectSnapshot, cached: cachedSnapshot, persisted: persistedSnapshot)
        self.constraint = constraint
        self.conflictingObjectIDs = conflictingObjectIDs
    }

    /// A conflict of `source` (Core Data's initializer), whose ``objectSnapshot`` is the object's values now; saves
    /// make them, and you rarely need to. Call it on the object's context's queue.
    public init(source: ManagedObject, newVersion: Int, oldVersion: Int, cachedSnapshot: [String: Any]?,
                persistedSnapshot: [String: Any]?) {
        self.init(sourceObject: source, objectID: source.objectID, oldVersion: Int64(oldVersion),
                  newVersion: Int64(newVersion), objectSnapshot: source.conflictSnapshot(),
                  cachedSnapshot: cachedSnapshot, persistedSnapshot: persistedSnapshot)
    }

    public var description: String {
        if !constraint.isEmpty {
            return "\(objectID.entityName) clashes on (\(constraint.joined(separator: ", "))) with \(conflictingObjectIDs)"
        }
        return "\(objectID): version \(oldVersion) in the context, \(newVersion) in the store"
    }
}

