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
