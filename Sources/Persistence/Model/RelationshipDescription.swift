/// What happens to related objects when an object is deleted.
public enum DeleteRule: String, Sendable, Hashable {
    /// Related objects stay; their link back to the deleted object is cleared.
    case nullify
    /// Related objects are deleted too.
    case cascade
    /// The delete fails validation (code 1600) while any related object remains.
    case deny
    /// Nothing is done: related objects keep pointing at the deleted object (you must tidy up yourself).
    case noAction
}

/// One relationship of an entity: its destination, to-one or to-many (optionally ordered), its inverse,
/// and its delete rule.
public final class RelationshipDescription: @unchecked Sendable, CustomStringConvertible {
    public let name: String
    public let destinationEntityName: String
    /// The name of the relationship on the destination that points back; `nil` for none (discouraged, as in
    /// Core Data: without an inverse the graph can go stale).
    public let inverseName: String?
    public let isToMany: Bool
    /// A to-many relationship that keeps its objects in order.
    public let isOrdered: Bool
    public let deleteRule: DeleteRule
    /// A non-optional to-one must point at an object when saved; a non-optional to-many must hold at least one.
    public let isOptional: Bool
    /// For a to-many: the fewest and most objects allowed at save (0 means no limit).
    public let minCount: Int
    public let maxCount: Int

    // Set once by ManagedObjectModel while it resolves names; never changed afterwards.
    public internal(set) unowned(unsafe) var destinationEntity: EntityDescription!
    public internal(set) unowned(unsafe) var inverseRelationship: RelationshipDescription?

    public init(name: String, destination: String, inverse: String?, toMany: Bool = false, ordered: Bool = false,
                deleteRule: DeleteRule = .nullify, isOptional: Bool = true, minCount: Int = 0, maxCount: Int = 0) {
        self.name = name
        self.destinationEntityName = destination
        self.inverseName = inverse
        self.isToMany = toMany
        self.isOrdered = ordered
        self.deleteRule = deleteRule
        self.isOptional = isOptional
        self.minCount = minCount
        self.maxCount = maxCount
    }

    public var description: String {
        let kind = isToMany ? (isOrdered ? "ordered to-many" : "to-many") : "to-one"
        return "\(name): \(kind) \(destinationEntityName)" + (inverseName.map { " (inverse \($0))" } ?? "")
            + " delete: \(deleteRule.rawValue)"
    }
}
