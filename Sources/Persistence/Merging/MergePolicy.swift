/// How a save resolves conflicts with what other contexts (or batch requests) wrote to the store since this
/// context read its objects — Core Data's `NSMergePolicy`.
///
/// **Optimistic locking.** Every row has a version. An object changed (or deleted) in a context that read an older
/// version is in conflict:
/// - ``error`` (the default): the save fails with code 133020, "Could not merge changes.", listing the conflicts.
/// - ``mergeByPropertyStoreTrump``: property by property, the store's value wins where the store changed the
///   property; the object's other changes are saved.
/// - ``mergeByPropertyObjectTrump``: property by property, the object's changes win; properties it did not change
///   take the store's newer values.
/// - ``overwrite``: the object's whole state is written over the row.
/// - ``rollback``: the object's changes are dropped in favour of the store's values.
///
/// A deletion in conflict (this context deletes an object another context changed since it was read) goes ahead
/// under all four: the row is deleted, the other context's change is lost, and only ``error`` stops the save.
/// Apple documents the policies property by property and says nothing of deletions; a deletion has no property to
/// merge, and by the time the policy runs its delete rules have already cascaded to and nullified related objects,
/// so cancelling it alone would save a half-undone graph. To keep a row another context may have changed, fetch it
/// again before deleting, or save under ``error`` and decide.
///
/// When the row was deleted by someone else, the store-trumping policies (and ``rollback``) drop the object from the
/// context; the object-trumping ones (and ``overwrite``) write it again under the same ID.
///
/// **Uniqueness constraints.** A new object whose constraint values match a stored row (Apple leaves the winner
/// undocumented; this is Persistence's rule):
/// - ``error``: the save fails with code 133021.
/// - ``mergeByPropertyObjectTrump``, ``overwrite``: the new object takes over the stored row — it gets that row's
///   ID, and its values are written to it (the object this context already had for that row leaves the context).
/// - ``mergeByPropertyStoreTrump``, ``rollback``: the stored row stays as it is and the new object is discarded
///   (it leaves the context, as a rolled-back insert does); fetch the stored one by its constraint values.
///
/// New objects of one save that share constraint values follow the same rule, the one inserted first standing for
/// the older, "stored" side — so one row is written, the usual way to de-duplicate an import:
/// - ``error``: the save fails with code 1551, naming the objects.
/// - ``mergeByPropertyObjectTrump``, ``overwrite``: the one inserted last survives and is written (taking over a
///   stored row it clashes with, as above); the others are discarded.
/// - ``mergeByPropertyStoreTrump``, ``rollback``: the one inserted first survives (and is itself discarded if a
///   stored row holds the same values); the others are discarded.
///
/// A discarded object is not written: objects related to it are saved — and left in memory — as pointing at nothing,
/// so relate the surviving object (or fetch the stored one) when relationships matter.
///
/// **Subclassing.** As with Core Data's class, an app subclasses `MergePolicy`, initialises it with the type
/// closest to what it wants (``init(merge:)``), and overrides ``resolve(optimisticLockingConflicts:)`` and
/// ``resolve(constraintConflicts:)``, calling `super` and then adjusting the objects (Apple: "you should typically
/// invoke the superclass's implementation"). A save calls them on the context's queue, never under the
/// coordinator's lock, with the conflicts as the store found them:
/// - what an override changes in the conflicting objects (and in other objects already in the store) is saved with
///   them; inserting or deleting objects is allowed for conflicts among this save's new objects (a
///   ``ConstraintConflict`` without ``ConstraintConflict/databaseObject``), which are resolved before validation,
///   but not for conflicts with the store, which fail the save (code 134060);
/// - an error an override throws fails the save with that error; the conflicting objects are put back as they
///   were before resolution, and the context keeps its unsaved changes;
/// - a conflict left unresolved (an override that does not call `super`, or a subclass of ``error`` type that
///   does) fails the save: the store checks again when it writes and reports the same conflict, and the save fails
///   with 133020 (or 133021 for a uniqueness constraint) rather than ask again. Apple does not document what Core
///   Data does then.
///
/// **Threads.** A policy is shared by contexts on any queue (the shared instances are), so it is `Sendable`.
/// `MergePolicy` itself holds only its immutable ``mergeType``; a subclass inherits an unchecked conformance and
/// must keep that promise itself: only `let` properties of `Sendable` values, or state it protects with a lock. Its
/// methods receive objects of the saving context, which they may use only during the call.
///
/// **Equality.** Apple does not document how `NSMergePolicy` compares. Here two policies are equal when they are of
/// the same class and ``mergeType``, so `MergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)` equals
/// ``mergeByPropertyObjectTrump`` (and behaves as it), while an instance of a subclass never equals a shared
/// instance. A subclass whose instances differ by more than their type should not rely on `==`; compare with `===`.
open class MergePolicy: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The five policies.
    public enum PolicyType: Sendable, Hashable {
        /// Fail the save on any conflict (Core Data's `NSErrorMergePolicyType`).
        case error
        /// The store's changed properties win (`NSMergeByPropertyStoreTrumpMergePolicyType`).
        case mergeByPropertyStoreTrump
        /// The object's changed properties win (`NSMergeByPropertyObjectTrumpMergePolicyType`).
        case mergeByPropertyObjectTrump
        /// The object's whole state is written (`NSOverwriteMergePolicyType`).
        case overwrite
        /// The object's changes give way to the store (`NSRollbackMergePolicyType`).
        case rollback
    }

    /// Which of the five policies this one applies (Core Data's `mergeType`).
    public let mergeType: PolicyType

    /// A policy of `type` (Core Data's `NSMergePolicy(merge:)`). A subclass passes the type closest to what it
    /// wants, whose rules its overrides get by calling `super`.
    public init(merge type: PolicyType) {
        self.mergeType = type
    }

    /// Fail the save on any conflict: the default of every context (Core Data's `NSErrorMergePolicy`).
    public static let error = MergePolicy(merge: .error)
    /// Property by property, the store's changes win (`NSMergeByPropertyStoreTrumpMergePolicy`).
    public static let mergeByPropertyStoreTrump = MergePolicy(merge: .mergeByPropertyStoreTrump)
    /// Property by property, the object's changes win (`NSMergeByPropertyObjectTrumpMergePolicy`).
    public static let mergeByPropertyObjectTrump = MergePolicy(merge: .mergeByPropertyObjectTrump)
    /// The object's whole state is written over the row (`NSOverwriteMergePolicy`).
    public static let overwrite = MergePolicy(merge: .overwrite)
    /// The object's changes are dropped for the store's values (`NSRollbackMergePolicy`).
    public static let rollback = MergePolicy(merge: .rollback)

    /// `true` for the policies under which the in-memory object wins.
    var objectWins: Bool { mergeType == .mergeByPropertyObjectTrump || mergeType == .overwrite }

    /// `true` when this is `MergePolicy` itself rather than a subclass: its methods then do nothing but the
    /// rules of ``mergeType``, which a save may apply without building the conflicts they would be handed.
    var isPlain: Bool { Swift.type(of: self) == MergePolicy.self }

    // MARK: - Resolving

    /// Resolves `list`, objects of this save whose row another context changed or deleted since this context read
    /// it (Core Data's `resolve(optimisticLockingConflicts:)`), by the rules of ``mergeType`` (see ``MergePolicy``):
    /// under ``error`` it throws 133020 "Could not merge changes." listing `list`; under the others it merges each
    /// conflict's ``MergeConflict/sourceObject`` with the stored row, after which the object is saved as it then
    /// stands — so an override that changes the object after calling `super` has that change saved.
    ///
    /// Outside a save the rules have no save to apply to: only ``error``'s throw happens.
    open func resolve(optimisticLockingConflicts list: [MergeConflict]) throws {
        guard !list.isEmpty else { return }
        if mergeType == .error {
            throw PersistenceError(.managedObjectMerge, "Could not merge changes.", objectID: list[0].objectID, conflicts: list)
        }
        try ConflictResolution.current?.resolveVersionConflicts(list, under: self)
    }

    /// Resolves `list`, new objects of this save that clash on a uniqueness constraint (Core Data's
    /// `resolve(constraintConflicts:)`), by the rules of ``mergeType`` (see ``MergePolicy``). A conflict with a
    /// ``ConstraintConflict/databaseObject`` is a clash with a stored row: under ``error`` it throws 133021; under
    /// the others the new object takes the row over or is discarded. A conflict without one is a clash among new
    /// objects of this save: under ``error`` it is left for validation, which fails the save with 1551; under the
    /// others one object survives and the rest are discarded.
    ///
    /// Outside a save the rules have no save to apply to: only ``error``'s throw happens.
    open func resolve(constraintConflicts list: [ConstraintConflict]) throws {
        guard !list.isEmpty else { return }
        if mergeType == .error {
            guard let clash = list.first(where: { $0.databaseObject != nil }) else { return }
            throw clash.storeClashError()
        }
        try ConflictResolution.current?.resolveConstraintConflicts(list, under: self)
    }

    // MARK: - Equality, description

    /// Policies of the same class and ``mergeType`` are equal (see ``MergePolicy``).
    public static func == (lhs: MergePolicy, rhs: MergePolicy) -> Bool {
        lhs === rhs || (Swift.type(of: lhs) == Swift.type(of: rhs) && lhs.mergeType == rhs.mergeType)
    }

    /// Hashes what `==` compares: the class and the merge type.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(Swift.type(of: self)))
        hasher.combine(mergeType)
    }

    /// The policy's type, and its class when it is a subclass.
    open var description: String {
        let name = switch mergeType {
        case .error: "error"
        case .mergeByPropertyStoreTrump: "mergeByPropertyStoreTrump"
        case .mergeByPropertyObjectTrump: "mergeByPropertyObjectTrump"
        case .overwrite: "overwrite"
        case .rollback: "rollback"
        }
        return isPlain ? name : "\(Swift.type(of: self))(\(name))"
    }
}
