/// Persistence's shorthand for properties in a model written in code, in the `ModelBuilding` SPI group
/// (`@_spi(ModelBuilding) import Persistence`): one expression per property where Core Data's own way, used in
/// lesson 3, makes a description with `init()` and sets its fields one by one. A model made of these is the one an
/// `.xcdatamodeld` would describe; nothing here exists in Core Data.
extension PropertyDescription {
    /// An attribute: `.attribute("title", .string, optional: false)`; one kept in memory only, never stored:
    /// `.attribute("isExpanded", .boolean, defaultValue: false, transient: true)` (see
    /// ``PropertyDescription/isTransient``); one whose value persistent history keeps when its object is deleted:
    /// `.attribute("uuid", .uuid, preservesValueInHistoryOnDeletion: true)` (see
    /// ``AttributeDescription/preservesValueInHistoryOnDeletion``).
    @_spi(ModelBuilding) public static func attribute(_ name: String, _ type: AttributeType, optional: Bool = true,
                                                      defaultValue: PersistentValue = .null, transient: Bool = false,
                                                      preservesValueInHistoryOnDeletion: Bool = false) -> PropertyDescription {
        AttributeDescription(name: name, type: type, isOptional: optional, defaultValue: defaultValue,
                             isTransient: transient,
                             preservesValueInHistoryOnDeletion: preservesValueInHistoryOnDeletion)
    }

    /// A transformable attribute: `.transformable("tags", transformer: "TagsTransformer")`. Its values are turned
    /// into `Data` by the ``ValueTransformer`` registered under that name — without one, by Core Data's default
    /// (see ``AttributeDescription/valueTransformerName``); read and write them with a `@Managed` property of their
    /// Swift type (`@Managed var tags: [String]`, see ``ManagedTransformable``), or with `value(forKey:)` and
    /// `setValue(_:forKey:)`.
    @_spi(ModelBuilding) public static func transformable(_ name: String, transformer: String? = nil,
                                                          optional: Bool = true,
                                                          transient: Bool = false) -> PropertyDescription {
        AttributeDescription(name: name, type: .transformable, isOptional: optional,
                             valueTransformerName: transformer, isTransient: transient)
    }

    /// A to-one relationship: `.toOne("group", "Group", inverse: "items")`.
    @_spi(ModelBuilding) public static func toOne(_ name: String, _ destination: String, inverse: String?,
                                                  deleteRule: DeleteRule = .nullifyDeleteRule,
                                                  optional: Bool = true) -> PropertyDescription {
        RelationshipDescription(name: name, destination: destination, inverse: inverse, deleteRule: deleteRule,
                                isOptional: optional)
    }

    /// A to-many relationship: `.toMany("items", "Item", inverse: "group", ordered: true, deleteRule: .cascade)`.
    @_spi(ModelBuilding) public static func toMany(_ name: String, _ destination: String, inverse: String?,
                                                   ordered: Bool = false, deleteRule: DeleteRule = .nullifyDeleteRule,
                                                   optional: Bool = true, minCount: Int = 0,
                                                   maxCount: Int = 0) -> PropertyDescription {
        RelationshipDescription(name: name, destination: destination, inverse: inverse, toMany: true,
                                ordered: ordered, deleteRule: deleteRule, isOptional: optional,
                                minCount: minCount, maxCount: maxCount)
    }

    /// This property, renamed from `oldName` (its ``renamingIdentifier``): lightweight migration keeps the values
    /// a store holds under `oldName`. `.attribute("remoteID", .string).renamed(from: "remoteIdentifier")`.
    @_spi(ModelBuilding) public func renamed(from oldName: String) -> PropertyDescription {
        copy(versionHashModifier: versionHashModifier, renamingIdentifier: oldName)
    }

    /// This property with `modifier` as its ``versionHashModifier``: a store written before counts as another
    /// version, so opening it migrates it.
    @_spi(ModelBuilding) public func versionHashModifier(_ modifier: String?) -> PropertyDescription {
        copy(versionHashModifier: modifier, renamingIdentifier: renamingIdentifier)
    }

    /// A new property like this one, with other identifiers.
    private func copy(versionHashModifier: String?, renamingIdentifier: String?) -> PropertyDescription {
        switch role {
        case .attribute(let a):
            return AttributeDescription(name: a.name, type: a.attributeType, isOptional: a.isOptional,
                                        defaultValue: a.declaredDefaultValue,
                                        valueTransformerName: a.valueTransformerName, isTransient: a.isTransient,
                                        versionHashModifier: versionHashModifier,
                                        renamingIdentifier: renamingIdentifier,
                                        preservesValueInHistoryOnDeletion: a.preservesValueInHistoryOnDeletion)
        case .relationship(let r):
            return RelationshipDescription(name: r.name, destination: r.destinationEntityName, inverse: r.inverseName,
                                           toMany: r.isToMany, ordered: r.isOrdered, deleteRule: r.deleteRule,
                                           isOptional: r.isOptional, minCount: r.minCount,
                                           maxCount: r.isToMany ? r.maxCount : 0,
                                           versionHashModifier: versionHashModifier,
                                           renamingIdentifier: renamingIdentifier)
        }
    }
}
