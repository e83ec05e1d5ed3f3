import Foundation

/// One property of an entity: an attribute or a relationship. The static functions are the short way to
/// declare a model in code.
public enum PropertyDescription: Sendable {
    /// A value the object holds.
    case attribute(AttributeDescription)
    /// A link to other objects.
    case relationship(RelationshipDescription)

    /// The property's name, unique in its entity (superentities' properties included).
    public var name: String {
        switch self {
        case .attribute(let a): return a.name
        case .relationship(let r): return r.name
        }
    }

    /// The property's version hash (see ``AttributeDescription/versionHash`` and
    /// ``RelationshipDescription/versionHash``).
    public var versionHash: Data {
        switch self {
        case .attribute(let a): return a.versionHash
        case .relationship(let r): return r.versionHash
        }
    }

    /// Core Data's `versionHashModifier` of the property.
    public var versionHashModifier: String? {
        switch self {
        case .attribute(let a): return a.versionHashModifier
        case .relationship(let r): return r.versionHashModifier
        }
    }

    /// The property's name in an earlier model version (Core Data's `renamingIdentifier`), if it was renamed.
    public var renamingIdentifier: String? {
        switch self {
        case .attribute(let a): return a.renamingIdentifier
        case .relationship(let r): return r.renamingIdentifier
        }
    }

    /// This property, renamed from `oldName` (its ``renamingIdentifier``): lightweight migration keeps the values
    /// a store holds under `oldName`. `.attribute("remoteID", .string).renamed(from: "remoteIdentifier")`.
    public func renamed(from oldName: String) -> PropertyDescription {
        switch self {
        case .attribute(let a): return .attribute(a.with(versionHashModifier: a.versionHashModifier, renamingIdentifier: oldName))
        case .relationship(let r): return .relationship(r.with(versionHashModifier: r.versionHashModifier, renamingIdentifier: oldName))
        }
    }

    /// This property with `modifier` as its ``versionHashModifier``: a store written before counts as another
    /// version, so opening it migrates it.
    public func versionHashModifier(_ modifier: String?) -> PropertyDescription {
        switch self {
        case .attribute(let a): return .attribute(a.with(versionHashModifier: modifier, renamingIdentifier: a.renamingIdentifier))
        case .relationship(let r): return .relationship(r.with(versionHashModifier: modifier, renamingIdentifier: r.renamingIdentifier))
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

    /// An attribute: `.attribute("title", .string, optional: false)`; one kept in memory only, never stored:
    /// `.attribute("isExpanded", .boolean, defaultValue: false, transient: true)` (see
    /// ``AttributeDescription/isTransient``); one whose value persistent history keeps when its object is deleted:
    /// `.attribute("uuid", .uuid, preservesValueInHistoryOnDeletion: true)` (see
    /// ``AttributeDescription/preservesValueInHistoryOnDeletion``).
    public static func attribute(_ name: String, _ type: AttributeType, optional: Bool = true,
                                 defaultValue: PersistentValue = .null, transient: Bool = false,
                                 preservesValueInHistoryOnDeletion: Bool = false) -> PropertyDescription {
        .attribute(AttributeDescription(name: name, type: type, isOptional: optional, defaultValue: defaultValue,
                                        isTransient: transient,
                                        preservesValueInHistoryOnDeletion: preservesValueInHistoryOnDeletion))
    }

    /// A transformable attribute: `.transformable("tags", transformer: "TagsTransformer")`. Its values are turned
    /// into `Data` by the ``ValueTransformer`` registered under that name — without one, by Core Data's default
    /// (see ``AttributeDescription/valueTransformerName``); read and write them with `value(forKey:)` and
    /// `setValue(_:forKey:)`, or a computed property of the class that calls them.
    public static func transformable(_ name: String, transformer: String? = nil, optional: Bool = true,
                                     transient: Bool = false) -> PropertyDescription {
        .attribute(AttributeDescription(name: name, type: .transformable, isOptional: optional,
                                        valueTransformerName: transformer, isTransient: transient))
    }

    /// A to-one relationship: `.toOne("group", "Group", inverse: "items")`.
    public static func toOne(_ name: String, _ destination: String, inverse: String?,
                             deleteRule: DeleteRule = .nullify, optional: Bool = true) -> PropertyDescription {
        .relationship(RelationshipDescription(name: name, destination: destination, inverse: inverse,
                                              deleteRule: deleteRule, isOptional: optional))
    }

    /// A to-many relationship: `.toMany("items", "Item", inverse: "group", ordered: true, deleteRule: .cascade)`.
    public static func toMany(_ name: String, _ destination: String, inverse: String?, ordered: Bool = false,
                              deleteRule: DeleteRule = .nullify, optional: Bool = true,
                              minCount: Int = 0, maxCount: Int = 0) -> PropertyDescription {
        .relationship(RelationshipDescription(name: name, destination: destination, inverse: inverse, toMany: true,
                                              ordered: ordered, deleteRule: deleteRule, isOptional: optional,
                                              minCount: minCount, maxCount: maxCount))
    }
}
