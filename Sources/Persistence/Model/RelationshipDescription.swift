import Foundation

/// What happens to related objects when an object is deleted: Core Data's `NSDeleteRule`, with its spellings.
public enum DeleteRule: UInt, Sendable, Hashable {
    /// Nothing is done: related objects keep pointing at the deleted object (you must tidy up yourself).
    case noActionDeleteRule = 0
    /// Related objects stay; their link back to the deleted object is cleared. The rule of a new relationship.
    case nullifyDeleteRule = 1
    /// Related objects are deleted too.
    case cascadeDeleteRule = 2
    /// The delete fails validation (code 1600) while any related object remains.
    case denyDeleteRule = 3

    /// The rule's name in messages and descriptions: `nullify`, `cascade`, `deny`, `noAction`.
    var name: String {
        switch self {
        case .noActionDeleteRule: "noAction"
        case .nullifyDeleteRule: "nullify"
        case .cascadeDeleteRule: "cascade"
        case .denyDeleteRule: "deny"
        }
    }
}

/// Persistence's short spellings of the delete rules, for the shorthand model builder
/// (`.toMany("items", "Item", inverse: "group", deleteRule: .cascade)`), in the `ModelBuilding` SPI group.
extension DeleteRule {
    /// ``nullifyDeleteRule``.
    @_spi(ModelBuilding) public static let nullify = DeleteRule.nullifyDeleteRule
    /// ``cascadeDeleteRule``.
    @_spi(ModelBuilding) public static let cascade = DeleteRule.cascadeDeleteRule
    /// ``denyDeleteRule``.
    @_spi(ModelBuilding) public static let deny = DeleteRule.denyDeleteRule
    /// ``noActionDeleteRule``.
    @_spi(ModelBuilding) public static let noAction = DeleteRule.noActionDeleteRule
}

/// One relationship of an entity, Core Data's `NSRelationshipDescription`: its destination, how many objects it
/// holds, whether it keeps them in order, its inverse, and its delete rule.
///
/// ```swift
/// let steps = RelationshipDescription()
/// steps.name = "steps"
/// steps.destinationEntity = step
/// steps.inverseRelationship = recipeOfStep    // and recipeOfStep.inverseRelationship = steps
/// steps.maxCount = 0                          // to-many, no limit; 1 makes a to-one
/// steps.isOrdered = true
/// steps.deleteRule = .cascadeDeleteRule
/// ```
///
/// As in Core Data, ``maxCount`` decides the kind: 1 makes a to-one relationship, anything else a to-many one
/// (``isToMany``), and a new relationship's is 0 — so a relationship meant to be to-one must say `maxCount = 1`.
public final class RelationshipDescription: PropertyDescription, @unchecked Sendable {
    /// The name of the entity the relationship points at: ``destinationEntity``'s name, or the name the shorthand
    /// builder was given (resolved when the model is made).
    @exclusivity(unchecked) public private(set) var destinationEntityName: String
    /// The name of the relationship on the destination that points back; `nil` for none (discouraged, as in
    /// Core Data: without an inverse the graph can go stale).
    @exclusivity(unchecked) public private(set) var inverseName: String?
    /// A to-many relationship holds any number of objects; a to-one holds one or none. As in Core Data it follows
    /// ``maxCount``: `false` exactly when the maximum is 1.
    @exclusivity(unchecked) public private(set) var isToMany: Bool
    @exclusivity(unchecked) private var storedIsOrdered: Bool
    @exclusivity(unchecked) private var storedDeleteRule: DeleteRule
    @exclusivity(unchecked) private var storedMinCount: Int
    @exclusivity(unchecked) private var storedMaxCount: Int
    @exclusivity(unchecked) private unowned(unsafe) var storedDestination: EntityDescription?
    @exclusivity(unchecked) private unowned(unsafe) var storedInverse: RelationshipDescription?

    /// A new relationship, as Core Data's `NSRelationshipDescription()` makes it: no name or destination yet,
    /// optional, to-many without limits (``maxCount`` 0), unordered, no inverse, and the nullify delete rule.
    public init() {
        destinationEntityName = ""
        isToMany = true
        storedIsOrdered = false
        storedDeleteRule = .nullifyDeleteRule
        storedMinCount = 0
        storedMaxCount = 0
        super.init(isAttribute: false, name: "", isOptional: true, isTransient: false, versionHashModifier: nil,
                   renamingIdentifier: nil)
    }

    /// A relationship with every field given at once, its destination and inverse by name: Persistence's
    /// shorthand, in the `ModelBuilding` SPI group
    /// (``PropertyDescription/toOne(_:_:inverse:deleteRule:optional:)`` and
    /// ``PropertyDescription/toMany(_:_:inverse:ordered:deleteRule:optional:minCount:maxCount:)`` are the short way
    /// to declare one in a model). A to-one's ``maxCount`` is 1, as Core Data keeps it, whatever `maxCount` says.
    @_spi(ModelBuilding) public init(name: String, destination: String, inverse: String?, toMany: Bool = false,
                                     ordered: Bool = false, deleteRule: DeleteRule = .nullifyDeleteRule,
                                     isOptional: Bool = true, minCount: Int = 0, maxCount: Int = 0,
                                     versionHashModifier: String? = nil, renamingIdentifier: String? = nil) {
        destinationEntityName = destination
        inverseName = inverse
        isToMany = toMany
        storedIsOrdered = ordered
        storedDeleteRule = deleteRule
        storedMinCount = toMany ? minCount : (isOptional ? 0 : 1)
        storedMaxCount = toMany ? maxCount : 1
        super.init(isAttribute: false, name: name, isOptional: isOptional, isTransient: false,
                   versionHashModifier: versionHashModifier, renamingIdentifier: renamingIdentifier)
    }

    /// The entity the relationship points at. Set it before the model is used; a destination that is not one of
    /// the model's entities makes the model fail when it is used.
    public unowned(unsafe) var destinationEntity: EntityDescription! {
        get { storedDestination }
        set {
            guard mayChange("destinationEntity") else { return }
            storedDestination = newValue
            destinationEntityName = newValue?.entityName ?? ""
            didChange()
        }
    }

    /// The relationship on the destination that points back, if any. Core Data wants both ends to name each other:
    /// set it on both.
    ///
    /// An inverse that does not point back (`A.items` names `B.owner`, while `B.owner` names another relationship
    /// or none) is accepted, as Core Data loads such a model and Xcode only warns; the model's `warnings` says so.
    /// Each side is then kept up to date through its own inverse only: setting `a.items` sets the `owner` of the
    /// objects added and clears it on those removed, while setting `b.owner` updates what `B.owner` names (nothing,
    /// or that other relationship) and leaves `a.items` as it was. Delete rules work the same way: deleting an `A`
    /// whose `items` nullify clears their `owner`; deleting a `B` touches no `items`. Apple documents none of this
    /// beyond "the inverse relationship is used to keep the graph consistent"; this is the reading that maintains
    /// no more than each relationship's own inverse says.
    ///
    /// In the store a to-many whose to-one inverse does not point back is read through that inverse's column, as
    /// a pair's to-many is: after a save, `a.items` holds the objects whose `owner` is `a`, whatever it held in
    /// memory (undocumented by Apple; the stricter reading, since the store keeps one answer rather than two that can
    /// disagree), and an ordered one keeps its order there too. A to-many whose inverse is a to-many that does not
    /// point back keeps its own join table.
    public unowned(unsafe) var inverseRelationship: RelationshipDescription? {
        get { storedInverse }
        set {
            guard mayChange("inverseRelationship") else { return }
            storedInverse = newValue
            inverseName = newValue?.name
            didChange()
        }
    }

    /// A to-many relationship that keeps its objects in order (Core Data hands it over as an `NSOrderedSet`). A
    /// to-one cannot be ordered, and two ends of a pair cannot both be.
    public var isOrdered: Bool {
        get { storedIsOrdered }
        set {
            guard mayChange("isOrdered") else { return }
            storedIsOrdered = newValue
            didChange()
        }
    }

    /// What deleting an object does to the objects this relationship holds (see ``DeleteRule``).
    public var deleteRule: DeleteRule {
        get { storedDeleteRule }
        set {
            guard mayChange("deleteRule") else { return }
            storedDeleteRule = newValue
            didChange()
        }
    }

    /// For a to-many: the fewest objects allowed at save (0 means no limit). As Apple documents, it applies only
    /// when the relationship holds something: an optional relationship may be empty whatever its minimum. A
    /// non-optional to-many may still be empty unless the minimum asks for more: its value, a set, is never nil.
    public var minCount: Int {
        get { storedMinCount }
        set {
            guard mayChange("minCount") else { return }
            storedMinCount = newValue
            didChange()
        }
    }

    /// The most objects the relationship may hold: 1 makes it a to-one relationship; more, a to-many one with
    /// that limit at save; 0 (a new relationship's), a to-many one without limit.
    public var maxCount: Int {
        get { storedMaxCount }
        set {
            guard mayChange("maxCount") else { return }
            storedMaxCount = newValue
            isToMany = newValue != 1
            didChange()
        }
    }

    /// The destination's and inverse's names, from the objects they were set to (the entity may have been named
    /// after it was set as the destination); called when the model is checked.
    func resolveNames() {
        if let storedDestination { destinationEntityName = storedDestination.entityName }
        if let storedInverse { inverseName = storedInverse.name }
    }

    /// Links the relationship to what its names resolve to; called when the model is checked.
    func link(destination: EntityDescription, inverse: RelationshipDescription?) {
        storedDestination = destination
        storedInverse = inverse
    }

    /// `true` when ``destinationEntity`` was set to an object (not only named).
    var hasDestinationObject: Bool { storedDestination != nil }

    /// Core Data's version hash of the relationship: SHA-256 of the name, `isOptional`, `isTransient`, the
    /// destination entity's name, the inverse's name, the minimum and maximum counts (a to-one counts as at most 1,
    /// as Core Data stores it) and ``versionHashModifier``, as Apple documents for
    /// `NSRelationshipDescription.versionHash`. Whether an ordered to-many counts as another version is
    /// undocumented; it does here, since the store keeps its order. The delete rule does not count. The bytes are
    /// not Core Data's, only built from the same fields.
    var relationshipVersionHash: Data {
        var hasher = PropertyDescription.hasher(kind: "relationship", name: name, isOptional: isOptional,
                                                isTransient: isTransient, modifier: versionHashModifier)
        hasher.update(field: destinationEntityName)
        hasher.update(field: inverseName ?? "")
        hasher.update(field: String(isToMany ? minCount : (isOptional ? 0 : 1)))
        hasher.update(field: String(isToMany ? maxCount : 1))
        hasher.update(field: isOrdered ? "ordered" : "")
        return hasher.finalize()
    }

    var relationshipDescriptionText: String {
        let kind = isToMany ? (isOrdered ? "ordered to-many" : "to-many") : "to-one"
        return "\(name): \(kind) \(destinationEntityName)" + (inverseName.map { " (inverse \($0))" } ?? "")
            + " delete: \(deleteRule.name)"
    }
}
