import Foundation
import Synchronization

/// What every property of an entity has, attribute or relationship: Core Data's `NSPropertyDescription`. Make one
/// of its two kinds, ``AttributeDescription`` or ``RelationshipDescription``, with `init()`, set its fields, and
/// list it in ``EntityDescription/properties``:
///
/// ```swift
/// let title = AttributeDescription()
/// title.name = "title"
/// title.attributeType = .stringAttributeType
/// title.isOptional = false
/// ```
///
/// As in Core Data, a property can be changed until its model is used by a coordinator (see
/// ``ManagedObjectModel``); a change after that is a programming error, which stops the program as Core Data's
/// exception ("Can't modify an immutable model") does.
///
/// Persistence works on these same objects: there is no second, frozen copy of the model. What the object graph
/// reads on every fetch and save (positions, kinds, defaults) is kept in plain stored fields, brought up to date by
/// each change and fixed for good when the model is frozen, so the hot paths read them as they would constants.
public class PropertyDescription: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// Whether this is an ``AttributeDescription`` (else a ``RelationshipDescription``): lets ``role`` cast without
    /// a dynamic check.
    let isAttribute: Bool
    @exclusivity(unchecked) private var storedName: String
    @exclusivity(unchecked) private var storedIsOptional: Bool
    @exclusivity(unchecked) private var storedIsTransient: Bool
    @exclusivity(unchecked) private var storedVersionHashModifier: String?
    @exclusivity(unchecked) private var storedRenamingIdentifier: String?
    /// Set when the property's model is used by a coordinator; from then on every setter refuses.
    private let frozen = Atomic<Bool>(false)

    /// The entity that declares the property (subentities that inherit it list it too). Set when the property is
    /// put in an entity's ``EntityDescription/properties``; `nil` before.
    public internal(set) unowned(unsafe) var entity: EntityDescription!

    init(isAttribute: Bool, name: String, isOptional: Bool, isTransient: Bool, versionHashModifier: String?,
         renamingIdentifier: String?) {
        self.isAttribute = isAttribute
        storedName = name
        storedIsOptional = isOptional
        storedIsTransient = isTransient
        storedVersionHashModifier = versionHashModifier
        storedRenamingIdentifier = renamingIdentifier
    }

    /// The property's name, unique in its entity (superentities' properties included): its key for
    /// `value(forKey:)` and the name of a `@Managed` property that reads it. Empty until you set it.
    public final var name: String {
        get { storedName }
        set {
            guard mayChange("name") else { return }
            storedName = newValue
            didChange()
        }
    }

    /// An optional property may be nil (or, for a to-many, empty) when saved. `true` for a new property, as in Core
    /// Data. A non-optional attribute without a value fails the save with 1570.
    public final var isOptional: Bool {
        get { storedIsOptional }
        set {
            guard mayChange("isOptional") else { return }
            storedIsOptional = newValue
            didChange()
        }
    }

    /// A transient attribute is never stored, as in Core Data: it has no column, its value lives only in the object
    /// in memory, and every object read from the store (fetched, a fault fired, refreshed without merging) starts
    /// with its default value; refreshing with merging keeps the value in memory. Setting it is still a change (the
    /// object is updated, and validated, saved and rolled back like any other), but the save writes nothing for
    /// it: an object whose only changes are transient is saved without touching its row, so its row version stays
    /// the same and optimistic locking never checks it, and merge policies never compare a transient attribute
    /// with the store. It counts in the property's ``versionHash``. Fetches run by the store cannot use it in a
    /// predicate or sort descriptor; evaluate those on the objects in memory instead.
    ///
    /// Persistence has transient attributes only: a model with a transient relationship is refused when it is used.
    public final var isTransient: Bool {
        get { storedIsTransient }
        set {
            guard mayChange("isTransient") else { return }
            storedIsTransient = newValue
            didChange()
        }
    }

    /// Core Data's `versionHashModifier`: any text, counted in ``versionHash``. Change it to mark the property as
    /// another version when its values change meaning but nothing else about it does (Xcode's "Versioning Hash
    /// Modifier", `versionHashModifier` in the model's XML).
    public final var versionHashModifier: String? {
        get { storedVersionHashModifier }
        set {
            guard mayChange("versionHashModifier") else { return }
            storedVersionHashModifier = newValue
            didChange()
        }
    }

    /// The property's name in the model version a store was written with, when it has been renamed since (Xcode's
    /// "Renaming ID", `elementID` in the model's XML). Lightweight migration carries the old property's values over
    /// to this one; without it a renamed property is a removed one and a new one, and its values are lost.
    public final var renamingIdentifier: String? {
        get { storedRenamingIdentifier }
        set {
            guard mayChange("renamingIdentifier") else { return }
            storedRenamingIdentifier = newValue
            didChange()
        }
    }

    /// Core Data's version hash of the property: SHA-256 of what shapes the store, the fields Apple lists for
    /// `versionHash` — the name, ``isOptional``, ``isTransient`` and ``versionHashModifier`` (Core Data's
    /// `isReadOnly` does not exist here), then for an attribute its type, and for a relationship the destination
    /// entity's name, the inverse's name and the minimum and maximum counts (a to-one counts as at most 1, as Core
    /// Data stores it). Whether an ordered to-many counts as another version is undocumented; it does here, since
    /// the store keeps its order. A default value, a transformer name, a delete rule and ``renamingIdentifier`` do
    /// not count. Apple does not publish its exact bytes: these hashes are not equal to Core Data's, only built from
    /// the same fields.
    public final var versionHash: Data {
        switch role {
        case .attribute(let a): return a.attributeVersionHash
        case .relationship(let r): return r.relationshipVersionHash
        }
    }

    /// The property as the kind it is, for a `switch`.
    @inline(__always)
    final var role: PropertyRole {
        isAttribute ? .attribute(unsafeDowncast(self, to: AttributeDescription.self))
            : .relationship(unsafeDowncast(self, to: RelationshipDescription.self))
    }

    /// The attribute this property is, if it is one.
    @inline(__always)
    final var asAttribute: AttributeDescription? {
        isAttribute ? unsafeDowncast(self, to: AttributeDescription.self) : nil
    }

    /// The relationship this property is, if it is one.
    @inline(__always)
    final var asRelationship: RelationshipDescription? {
        isAttribute ? nil : unsafeDowncast(self, to: RelationshipDescription.self)
    }

    // MARK: Changes

    /// `true` once the property's model is in use.
    final var isFrozen: Bool { frozen.load(ordering: .acquiring) }

    /// Fixes the property for good (its model is in use).
    final func freeze() { frozen.store(true, ordering: .releasing) }

    /// `true` when the property may still change; otherwise reports the change of `key` as the programming error it
    /// is (see ``ManagedObjectModel/programmingErrorHandling``) and answers `false`, so the setter changes nothing.
    final func mayChange(_ key: String) -> Bool {
        guard isFrozen else { return true }
        let owner = entity.map { "\($0.entityName)." } ?? ""
        ManagedObjectModel.refuseChange(of: "\(key) of \(isAttribute ? "attribute" : "relationship") '\(owner)\(storedName)'",
                                        entityName: entity?.entityName, key: storedName)
        return false
    }

    /// Brings what the entity derives from its properties up to date after a change of this one.
    final func didChange() {
        entity?.propertiesDidChange()
    }

    // MARK: Identity

    /// A property is one object of its model: two descriptions are equal when they are the same instance, as Core
    /// Data's `NSPropertyDescription`s compare. This lets a history change list its
    /// ``PersistentHistoryChange/updatedProperties`` as a set, as Core Data does.
    public static func == (lhs: PropertyDescription, rhs: PropertyDescription) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String {
        switch role {
        case .attribute(let a): return a.attributeDescriptionText
        case .relationship(let r): return r.relationshipDescriptionText
        }
    }

    /// The hash every property's ``versionHash`` starts with: the fields Apple lists for
    /// `NSPropertyDescription.versionHash` (`isReadOnly` does not exist here).
    static func hasher(kind: String, name: String, isOptional: Bool, isTransient: Bool, modifier: String?) -> SHA256 {
        var hasher = SHA256()
        hasher.update(field: kind)
        hasher.update(field: name)
        hasher.update(field: isOptional ? "optional" : "required")
        hasher.update(field: isTransient ? "transient" : "stored")
        hasher.update(field: modifier ?? "")
        return hasher
    }
}

/// A property as the kind it is: what the engine switches on.
enum PropertyRole {
    case attribute(AttributeDescription)
    case relationship(RelationshipDescription)
}
