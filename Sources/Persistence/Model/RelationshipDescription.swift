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
    /// The relationship's name: its key, and the name of a `@Managed` property that reads it.
    public let name: String
    /// The name of the entity the relationship points at.
    public let destinationEntityName: String
    /// The name of the relationship on the destination that points back; `nil` for none (discouraged, as in
    /// Core Data: without an inverse the graph can go stale).
    public let inverseName: String?
    /// A to-many relationship holds any number of objects; a to-one holds one or none.
    public let isToMany: Bool
    /// A to-many relationship that keeps its objects in order.
    public let isOrdered: Bool
    /// What deleting an object does to the objects this relationship holds.
    public let deleteRule: DeleteRule
    /// A non-optional to-one must point at an object when saved. A non-optional to-many may still be empty unless
    /// ``minCount`` asks for more: its value, a set, is never nil (Apple documents no more; set a minimum of 1 to
    /// require an object).
    public let isOptional: Bool
    /// For a to-many: the fewest objects allowed at save (0 means no limit). As Apple documents, it applies only
    /// when the relationship holds something: an optional relationship may be empty whatever its minimum.
    public let minCount: Int
    /// For a to-many: the most objects allowed at save (0 means no limit).
    public let maxCount: Int
    /// Core Data's `versionHashModifier`: any text, counted in ``versionHash`` (see
    /// ``AttributeDescription/versionHashModifier``).
    public let versionHashModifier: String?
    /// The relationship's name in the model version a store was written with, when it has been renamed since
    /// (Xcode's "Renaming ID"); lightweight migration keeps its links under the new name.
    public let renamingIdentifier: String?
    /// Core Data's version hash of the relationship: SHA-256 of the name, `isOptional`, `isTransient` (always false
    /// here), the destination entity's name, the inverse's name, the minimum and maximum counts (a to-one counts
    /// as at most 1, as Core Data stores it) and ``versionHashModifier``, as Apple documents for
    /// `NSRelationshipDescription.versionHash`. Whether an ordered to-many counts as another version is
    /// undocumented; it does here, since the store keeps its order. The delete rule does not count. The bytes are
    /// not Core Data's, only built from the same fields.
    public var versionHash: Data {
        var hasher = PropertyDescription.hasher(kind: "relationship", name: name, isOptional: isOptional,
                                                isTransient: false, modifier: versionHashModifier)
        hasher.update(field: destinationEntityName)
        hasher.update(field: inverseName ?? "")
        hasher.update(field: String(isToMany ? minCount : (isOptional ? 0 : 1)))
        hasher.update(field: String(isToMany ? maxCount : 1))
        hasher.update(field: isOrdered ? "ordered" : "")
        return hasher.finalize()
    }

    // Set once by ManagedObjectModel while it resolves names; never changed afterwards.
    /// The entity the relationship points at (set when the model is made).
    public internal(set) unowned(unsafe) var destinationEntity: EntityDescription!
    /// The relationship on the destination that points back, if any (set when the model is made).
    public internal(set) unowned(unsafe) var inverseRelationship: RelationshipDescription?

    /// A relationship; ``PropertyDescription/toOne(_:_:inverse:deleteRule:optional:)`` and
    /// ``PropertyDescription/toMany(_:_:inverse:ordered:deleteRule:optional:minCount:maxCount:)`` are the short way
    /// to declare one in a model.
    public init(name: String, destination: String, inverse: String?, toMany: Bool = false, ordered: Bool = false,
                deleteRule: DeleteRule = .nullify, isOptional: Bool = true, minCount: Int = 0, maxCount: Int = 0,
                versionHashModifier: String? = nil, renamingIdentifier: String? = nil) {
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
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

    /// This relationship with other identifiers (see ``PropertyDescription/renamed(from:)``).
    func with(versionHashModifier: String?, renamingIdentifier: String?) -> RelationshipDescription {
        RelationshipDescription(name: name, destination: destinationEntityName, inverse: inverseName, toMany: isToMany,
                                ordered: isOrdered, deleteRule: deleteRule, isOptional: isOptional, minCount: minCount,
                                maxCount: maxCount, versionHashModifier: versionHashModifier,
                                renamingIdentifier: renamingIdentifier)
    }

    public var description: String {
        let kind = isToMany ? (isOrdered ? "ordered to-many" : "to-many") : "to-one"
        return "\(name): \(kind) \(destinationEntityName)" + (inverseName.map { " (inverse \($0))" } ?? "")
            + " delete: \(deleteRule.rawValue)"
    }
}
