/// Core Data's name for the kinds of merge policy (`NSMergePolicyType`): `MergePolicy(merge: .overwriteMergePolicyType)`
/// reads as Core Data code does.
public typealias MergePolicyType = MergePolicy.PolicyType

extension MergePolicy.PolicyType {
    /// Core Data's spelling of ``error``.
    public static let errorMergePolicyType = Self.error
    /// Core Data's spelling of ``mergeByPropertyStoreTrump``.
    public static let mergeByPropertyStoreTrumpMergePolicyType = Self.mergeByPropertyStoreTrump
    /// Core Data's spelling of ``mergeByPropertyObjectTrump``.
    public static let mergeByPropertyObjectTrumpMergePolicyType = Self.mergeByPropertyObjectTrump
    /// Core Data's spelling of ``overwrite``.
    public static let overwriteMergePolicyType = Self.overwrite
    /// Core Data's spelling of ``rollback``.
    public static let rollbackMergePolicyType = Self.rollback
}

#if !canImport(CoreData)
// Core Data's merge policy constants, typed `Any` as Core Data types them, for a context's `mergePolicy`:
// `context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy` reads as in an app. (Where Core Data exists, its
// own constants are used.)

/// ``MergePolicy/error``, as Core Data's constant.
nonisolated(unsafe) public let NSErrorMergePolicy: Any = MergePolicy.error
/// ``MergePolicy/mergeByPropertyStoreTrump``, as Core Data's constant.
nonisolated(unsafe) public let NSMergeByPropertyStoreTrumpMergePolicy: Any = MergePolicy.mergeByPropertyStoreTrump
/// ``MergePolicy/mergeByPropertyObjectTrump``, as Core Data's constant.
nonisolated(unsafe) public let NSMergeByPropertyObjectTrumpMergePolicy: Any = MergePolicy.mergeByPropertyObjectTrump
/// ``MergePolicy/overwrite``, as Core Data's constant.
nonisolated(unsafe) public let NSOverwriteMergePolicy: Any = MergePolicy.overwrite
/// ``MergePolicy/rollback``, as Core Data's constant.
nonisolated(unsafe) public let NSRollbackMergePolicy: Any = MergePolicy.rollback
#endif
