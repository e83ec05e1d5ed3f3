import Foundation

/// Every failure Persistence reports: an `NSError` in `NSCocoaErrorDomain` with Core Data's code and `userInfo`
/// keys, as Core Data's failures are, plus the details that locate the problem (object, entity, key, value, SQL,
/// file).
///
/// A learner's code sees it as Apple code sees Core Data's errors: `catch let error as NSError where error.code ==
/// NSManagedObjectMergeError`, `catch let error as CocoaError where error.code == .managedObjectMerge`,
/// `error.userInfo[NSValidationKeyErrorKey]` — all match here, on Linux too, because the thrown value is an `NSError`
/// (a Swift error struct would not match `as NSError` on Linux). The type itself is Persistence's; code written for
/// Apple platforms never names it.
@_spi(TestHarness) public final class PersistenceError: NSError, @unchecked Sendable {
    /// Core Data's numeric error codes: Foundation's `CocoaError.Code`, with Core Data's names (see
    /// `CocoaError+CoreData.swift`).
    public typealias Code = CocoaError.Code

    /// What went wrong, in a sentence a person can act on (also the `NSLocalizedDescriptionKey` of `userInfo`).
    public let message: String
    /// The ID of the object concerned, when there is one.
    public let objectID: ManagedObjectID?
    /// The object concerned, when the error was found on it (Core Data's `NSValidationObjectErrorKey`, or
    /// `NSAffectedObjectsErrorKey` for an error that is not a validation error). Use it on its context's queue only.
    public let object: ManagedObject?
    /// The entity concerned.
    public let entityName: String?
    /// The property concerned (Core Data's `NSValidationKeyErrorKey`).
    public let key: String?
    /// The offending value (Core Data's `NSValidationValueErrorKey`).
    public let value: PersistentValue?
    /// For code 1560: one error per problem found, each as it was made — Persistence's own, or the app's from
    /// `validateForInsert()` and `validate<Key>` overrides, unchanged (Core Data's `NSDetailedErrorsKey`).
    public let detailedErrors: [NSError]
    /// The merge conflicts, for codes 133020 and 133021.
    public let conflicts: [MergeConflict]
    /// The SQL that failed, when SQLite reported the error.
    public let sql: String?
    /// SQLite's extended result code, when SQLite reported the error.
    public let sqliteCode: Int32?
    /// The store or file concerned.
    public let url: URL?

    /// An error with Core Data's `code`, a `message` a person can act on, and whatever of the rest is known.
    public init(
        _ code: Code, _ message: String, object: ManagedObject? = nil, objectID: ManagedObjectID? = nil,
        entityName: String? = nil,
        key: String? = nil, value: PersistentValue? = nil, detailedErrors: [NSError] = [],
        conflicts: [MergeConflict] = [], sql: String? = nil, sqliteCode: Int32? = nil, url: URL? = nil
    ) {
        self.message = message
        self.object = object
        self.objectID = objectID ?? object?.objectID
        self.entityName = entityName ?? self.objectID?.entityName
        self.key = key
        self.value = value
        self.detailedErrors = detailedErrors
        self.conflicts = conflicts
        self.sql = sql
        self.sqliteCode = sqliteCode
        self.url = url
        super.init(domain: NSCocoaErrorDomain, code: code.rawValue,
                   userInfo: Self.userInfo(code: code.rawValue, message: message, object: object, key: key,
                                           value: value, detailedErrors: detailedErrors, conflicts: conflicts,
                                           sqliteCode: sqliteCode, url: url))
    }

    /// Not archived: an error holding live objects has no meaning outside its process.
    public required init?(coder: NSCoder) { nil }

    /// This error with another code, message or URL (the rest kept).
    func with(code: Code? = nil, message: String? = nil, url: URL? = nil) -> PersistenceError {
        PersistenceError(code ?? Code(rawValue: self.code), message ?? self.message, object: object,
                         objectID: objectID, entityName: entityName, key: key, value: value,
                         detailedErrors: detailedErrors, conflicts: conflicts, sql: sql, sqliteCode: sqliteCode,
                         url: url ?? self.url)
    }

    /// Core Data's code as a `CocoaError.Code` (`code` is `NSError`'s `Int`).
    public var coreDataCode: Code { Code(rawValue: code) }

    /// NSError's first line (domain, code, the message), then the SQL and the detailed errors, one a line.
    public override var description: String {
        var text = "Error Domain=\(domain) Code=\(code) \"\(message)\""
        if let sql { text += "\n  SQL: \(sql)" }
        for detail in detailedErrors { text += "\n  - \(detail.code): \(detail.localizedDescription)" }
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

