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
public struct MergePolicy: Sendable, Hashable, CustomStringConvertible {
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

    /// Which of the five policies this is.
    public let type: PolicyType

    /// The policy of `type` (Core Data's `NSMergePolicy(merge:)`).
    public init(merge type: PolicyType) {
        self.type = type
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
    var objectWins: Bool { type == .mergeByPropertyObjectTrump || type == .overwrite }

    public var description: String {
        switch type {
        case .error: "error"
        case .mergeByPropertyStoreTrump: "mergeByPropertyStoreTrump"
        case .mergeByPropertyObjectTrump: "mergeByPropertyObjectTrump"
        case .overwrite: "overwrite"
        case .rollback: "rollback"
        }
    }
}
