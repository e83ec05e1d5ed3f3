import Foundation

/// The schema of a store: its entities, checked and linked together.
///
/// Making a model checks it: every relationship names an existing destination and a matching inverse, names
/// are unique and usable, constraints name attributes, and each `ManagedObject` subclass declares only
/// properties its entity has. A problem throws an `NSError` that names the entity and property.
public final class ManagedObjectModel: @unchecked Sendable, CustomStringConvertible {
    /// Every entity, in the order they were given.
    public let entities: [EntityDescription]
    /// The entities by name.
    public let entitiesByName: [String: EntityDescription]
    private let entitiesByClass: [ObjectIdentifier: EntityDescription]
    /// This library's first fingerprint of the whole model (FNV-1a of the tables, columns and indexes), which
    /// stores written before per-entity hashes keep in their metadata: such a store opens with a model of the same
    /// fingerprint, and from then on keeps ``entityVersionHashesByName`` as Core Data does. Internal: Core Data's
    /// model has no such member (its hashes are ``entityVersionHashesByName`` and ``versionChecksum``).
    let versionHash: String
    /// Each entity's ``EntityDescription/versionHash``, by entity name: what a store keeps in its metadata
    /// (`NSStoreModelVersionHashes`) and what decides whether a store and a model are compatible (see
    /// ``isConfiguration(withName:compatibleWithStoreMetadata:)``).
    public let entityVersionHashesByName: [String: Data]
    /// Core Data's `versionChecksum`: one checksum (Base64 of SHA-256) of every entity's version hash, naming this
    /// version of the model in a staged migration (``ManagedObjectModelReference``). Not equal to Core Data's.
    public let versionChecksum: String
    /// Identifiers of this version of the model, for your own use (Xcode's "Model Version Identifier",
    /// `userDefinedModelVersionIdentifier` in the XML). As in Core Data they play no part in compatibility; a store
    /// keeps them in its metadata (`NSStoreModelVersionIdentifiers`).
    public var versionIdentifiers: Set<AnyHashable> = []
    /// For a model read from a `.xcdatamodeld`: loads every version of it, for migration to find a store's model.
    var versionsLoader: (@Sendable () throws -> [ManagedObjectModel])?
    /// Named groups of entities (Core Data's configurations), by name. A store here always holds every entity;
    /// configurations are kept so a model read from Xcode's format says what it declared.
    private let configurationMembers: [String: [EntityDescription]]
    /// What loading the model noticed but did not treat as an error (for example a `representedClassName` with no
    /// class found, so the entity's objects are plain `ManagedObject`s, as Core Data does, or a transformable
    /// attribute that names no transformer and so uses the default one, which is also printed to standard error).
    ///
    /// Persistence-only, with the reading of model files it reports on: in the `ModelLoading` SPI group
    /// (`@_spi(ModelLoading) import Persistence`). Core Data logs such things to the console instead.
    @_spi(ModelLoading) public internal(set) var warnings: [String] = []

    /// A model of `entities`; `configurations` names groups of them (each entity name must be one of `entities`).
    public init(entities: [EntityDescription], configurations: [String: [String]] = [:]) throws {
        var byName: [String: EntityDescription] = [:]
        var byClass: [ObjectIdentifier: EntityDescription] = [:]
        for (index, entity) in entities.enumerated() {
            try Self.checkName(entity.entityName, what: "Entity name")
            guard byName[entity.entityName] == nil else {
                throw Self.invalid("The model has two entities named '\(entity.entityName)'.", entity: entity.entityName)
            }
            guard entity.managedObjectModel == nil else {
                throw Self.invalid("Entity '\(entity.entityName)' already belongs to another model; make a new EntityDescription for each model.", entity: entity.entityName)
            }
            byName[entity.entityName] = entity
            entity.index = index
            if entity.managedObjectClass != ManagedObject.self {
                let id = ObjectIdentifier(entity.managedObjectClass)
                if let other = byClass[id] {
                    // A subentity may share its parent's class; the class then stands for the parent, the entity
                    // higher up.
                    if entity.isKindOf(entity: other) { continue }
                    if other.isKindOf(entity: entity) {
                        byClass[id] = entity
                        continue
                    }
                    throw Self.invalid("Multiple entity descriptions claim the subclass \(entity.managedObjectClass): entities '\(other.entityName)' and '\(entity.entityName)' both use it. A subclass maps to exactly one entity, or `\(entity.managedObjectClass)(context:)` and fetches by class could not tell which entity is meant; give one of them another class.", entity: entity.entityName)
                }
                byClass[id] = entity
            }
        }
        for entity in entities {
            guard let parent = entity.superentity else { continue }
            guard byName[parent.entityName] === parent else {
                throw Self.invalid("Entity '\(entity.entityName)' inherits from '\(parent.entityName)', which is not one of the model's entities; put the parent in the same model.", entity: entity.entityName)
            }
            // The entity's class need not derive from the parent's: Core Data lets the two hierarchies differ
            // (a subentity's class may come straight from ManagedObject). What relies on a class holding a
            // subentity's objects checks for itself: typed relationships when the class is checked below,
            // typed fetches when they run.
        }
        self.entities = entities
        self.entitiesByName = byName
        self.entitiesByClass = byClass
        EntityDescription.linkSubentities(of: entities)

        for entity in entities { try Self.checkProperties(of: entity, in: byName) }
        var members: [String: [EntityDescription]] = [:]
        for (configuration, names) in configurations {
            members[configuration] = try names.map { name in
                guard let entity = byName[name] else {
                    throw Self.invalid("Configuration '\(configuration)' names '\(name)', which is not an entity of this model. Entities: \(byName.keys.sorted().joined(separator: ", ")).", entity: name)
                }
                return entity
            }
        }
        self.configurationMembers = members
        self.versionHash = Self.hash(of: entities)
        self.entityVersionHashesByName = Dictionary(uniqueKeysWithValues: entities.map { ($0.entityName, $0.versionHash) })
        self.versionChecksum = Self.checksum(of: entityVersionHashesByName)
        for entity in entities { entity.managedObjectModel = self }
        for entity in entities { try entity.checkManagedObjectClass() }
        warnings = Self.defaultTransformerWarnings(for: entities)
        Self.printOnce(warnings)
    }

    /// A model with no entities (Core Data's `NSManagedObjectModel()`): what a coordinator needs for work on store
    /// files that involves no objects (``PersistentStoreCoordinator/destroyPersistentStore(at:ofType:options:)``),
    /// and what a container whose model could not be loaded holds.
    public init() {
        entities = []
        entitiesByName = [:]
        entitiesByClass = [:]
        configurationMembers = [:]
        versionHash = Self.hash(of: [])
        entityVersionHashesByName = [:]
        versionChecksum = Self.checksum(of: [:])
    }

    private static func checksum(of hashes: [String: Data]) -> String {
        var hasher = SHA256()
        for name in hashes.keys.sorted() {
            hasher.update(field: name)
            hasher.update(hashes[name]!)
        }
        return hasher.finalize().base64EncodedString()
    }

    /// The entity whose objects are instances of `type`. Persistence-only (Core Data's model has no lookup by
    /// class; a class finds its entity with ``ManagedObject/entity()``), for tests and kata support code: in the
    /// `TestHarness` SPI group.
    @_spi(TestHarness) public func entity(for type: ManagedObject.Type) -> EntityDescription? {
        entitiesByClass[ObjectIdentifier(type)]
    }

    /// The entity named `name`, or an error listing the model's entities.
    func entity(named name: String) throws -> EntityDescription {
        guard let entity = entitiesByName[name] else {
            throw PersistenceError(.persistentStoreIncompatibleSchema,
                                   "The model has no entity named '\(name)'. Its entities: \(entities.map(\.entityName).joined(separator: ", ")).",
                                   entityName: name)
        }
        return entity
    }

    public var description: String { entities.map(\.description).joined(separator: "\n") }

    /// The names of the model's configurations, sorted.
    public var configurations: [String] { configurationMembers.keys.sorted() }

    /// The entities of the configuration `name`, or `nil` when the model has no such configuration.
    public func entities(forConfigurationName name: String) -> [EntityDescription]? {
        configurationMembers[name]
    }

    // MARK: - Checks

    private static func invalid(_ message: String, entity: String, key: String? = nil) -> PersistenceError {
        PersistenceError(.coreData, "Invalid model: " + message, entityName: entity, key: key)
    }

    private static func checkName(_ name: String, what: String, entity: String? = nil) throws {
        let scalars = name.unicodeScalars
        let valid = !name.isEmpty
            && scalars.first.map { $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) } == true
            && scalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) }
        guard valid else {
            throw invalid("\(what) '\(name)' must start with a letter or '_' and hold only ASCII letters, digits and '_'.",
                          entity: entity ?? name)
        }
    }

    private static let reservedPropertyNames: Set<String> = [
        "objectid", "entity", "managedobjectcontext", "description", "isinserted", "isupdated", "isdeleted",
        "isfault", "haschanges", "self",
    ]

    private static func checkProperties(of entity: EntityDescription, in entities: [String: EntityDescription]) throws {
        var seen: Set<String> = []
        for (index, property) in entity.properties.enumerated() {
            // Inherited properties were checked with the entity that declares them.
            if index < entity.inheritedPropertyCount {
                seen.insert(property.name.lowercased())
                continue
            }
            try checkName(property.name, what: "Property name", entity: entity.entityName)
            let folded = property.name.lowercased()
            guard !folded.hasPrefix("z_") else {
                throw invalid("Property '\(entity.entityName).\(property.name)': names starting with 'Z_' are kept for the store's own columns.", entity: entity.entityName, key: property.name)
            }
            guard !reservedPropertyNames.contains(folded) else {
                throw invalid("Property '\(entity.entityName).\(property.name)' clashes with a ManagedObject member; choose another name.", entity: entity.entityName, key: property.name)
            }
            // Column names are upper-cased (Core Data's ZNAME style), so names must differ in more than case.
            guard seen.insert(folded).inserted else {
                if let parent = entity.superentity, parent.properties.contains(where: { $0.name.lowercased() == folded }) {
                    throw invalid("Entity '\(entity.entityName)' declares '\(property.name)', which it already inherits from '\(parent.entityName)'; a subentity cannot redeclare an inherited property.", entity: entity.entityName, key: property.name)
                }
                throw invalid("Entity '\(entity.entityName)' has two properties named '\(property.name)' (names must differ in more than case).", entity: entity.entityName, key: property.name)
            }
            // A transformable attribute without a transformer name uses the default one (see
            // defaultTransformerWarnings); only a name on another type is a mistake.
            if case .attribute(let attribute) = property, attribute.attributeType != .transformable,
               attribute.valueTransformerName.map({ !$0.isEmpty }) ?? false {
                throw invalid("Attribute '\(entity.entityName).\(attribute.name)' names a value transformer but is \(attribute.attributeType.rawValue); only transformable attributes use one.",
                              entity: entity.entityName, key: attribute.name)
            }
            if case .attribute(let attribute) = property, attribute.attributeType.coerce(attribute.defaultValue) == nil {
                throw invalid("The default value \(attribute.defaultValue) of '\(entity.entityName).\(attribute.name)' is not a \(attribute.attributeType.rawValue) value.", entity: entity.entityName, key: attribute.name)
            }
            guard case .relationship(let relationship) = property else { continue }
            guard let destination = entities[relationship.destinationEntityName] else {
                throw invalid("Relationship '\(entity.entityName).\(relationship.name)' points at '\(relationship.destinationEntityName)', which is not an entity of this model. Entities: \(entities.keys.sorted().joined(separator: ", ")).", entity: entity.entityName, key: relationship.name)
            }
            relationship.destinationEntity = destination
            if relationship.isOrdered && !relationship.isToMany {
                throw invalid("Relationship '\(entity.entityName).\(relationship.name)' is to-one and cannot be ordered.", entity: entity.entityName, key: relationship.name)
            }
            if relationship.minCount < 0 || relationship.maxCount < 0 || (relationship.maxCount > 0 && relationship.minCount > relationship.maxCount) {
                throw invalid("Relationship '\(entity.entityName).\(relationship.name)' has an impossible count range \(relationship.minCount)…\(relationship.maxCount).", entity: entity.entityName, key: relationship.name)
            }
            guard let inverseName = relationship.inverseName else { continue }
            guard let inverse = destination.relationshipsByName[inverseName] else {
                throw invalid("Relationship '\(entity.entityName).\(relationship.name)' names the inverse '\(relationship.destinationEntityName).\(inverseName)', which does not exist.", entity: entity.entityName, key: relationship.name)
            }
            // The inverse may point at this entity or at one of its parents (a relationship declared on a
            // subentity can pair with one that points at the parent).
            guard entity.ancestorNames.contains(inverse.destinationEntityName), inverse.inverseName == relationship.name else {
                throw invalid("'\(entity.entityName).\(relationship.name)' and '\(destination.entityName).\(inverseName)' must name each other as inverses and point at each other's entities.", entity: entity.entityName, key: relationship.name)
            }
            if relationship.isOrdered && inverse.isOrdered {
                throw invalid("'\(entity.entityName).\(relationship.name)' and its inverse cannot both be ordered.", entity: entity.entityName, key: relationship.name)
            }
            relationship.inverseRelationship = inverse
        }
        for constraint in entity.uniquenessConstraints.dropFirst(entity.inheritedConstraintCount) {
            guard !constraint.isEmpty else {
                throw invalid("Entity '\(entity.entityName)' has an empty uniqueness constraint.", entity: entity.entityName)
            }
            for key in constraint where entity.attributesByName[key] == nil {
                throw invalid("The uniqueness constraint (\(constraint.joined(separator: ", "))) of '\(entity.entityName)' names '\(key)', which is not one of its attributes.", entity: entity.entityName, key: key)
            }
            // The store enforces constraints with a unique index, and a transient attribute has no column to index.
            for key in constraint where entity.attributesByName[key]?.isTransient == true {
                throw invalid("The uniqueness constraint (\(constraint.joined(separator: ", "))) of '\(entity.entityName)' names '\(key)', which is transient: the store never sees its values, so it cannot keep them unique.", entity: entity.entityName, key: key)
            }
        }
        var indexNames: Set<String> = []
        for index in entity.indexes {
            try checkName(index.name, what: "Index name", entity: entity.entityName)
            guard indexNames.insert(index.name.lowercased()).inserted else {
                throw invalid("Entity '\(entity.entityName)' has two indexes named '\(index.name)' (names must differ in more than case).", entity: entity.entityName)
            }
            guard !index.elements.isEmpty else {
                throw invalid("The index '\(index.name)' of '\(entity.entityName)' has no properties.", entity: entity.entityName)
            }
            for element in index.elements {
                // Only attributes and to-ones have a column to index.
                let indexable = entity.attributesByName[element.property] != nil
                    || entity.relationshipsByName[element.property].map { !$0.isToMany } == true
                guard indexable else {
                    throw invalid("The index '\(index.name)' of '\(entity.entityName)' names '\(element.property)', which is not one of its attributes or to-one relationships.", entity: entity.entityName, key: element.property)
                }
                if entity.attributesByName[element.property]?.isTransient == true {
                    throw invalid("The index '\(index.name)' of '\(entity.entityName)' names '\(element.property)', which is transient and has no column in the store to index.", entity: entity.entityName, key: element.property)
                }
            }
        }
    }

    /// FNV-1a over a canonical description of what the tables depend on. Optionality, default values, classes and
    /// configurations do not change the tables, so changing them keeps a store compatible. A transient attribute
    /// is marked as such (Core Data counts `isTransient` in a property's version hash), so making an attribute
    /// transient, or stored again, makes the store incompatible.
    private static func hash(of entities: [EntityDescription]) -> String {
        var text = ""
        for entity in entities.sorted(by: { $0.entityName < $1.entityName }) {
            text += "E:\(entity.entityName);"
            // Only models with inheritance say so, so every other model hashes as it always has.
            if let parent = entity.superentity { text += "P:\(parent.entityName);" }
            if entity.isAbstract { text += "X;" }
            for property in entity.properties.sorted(by: { $0.name < $1.name }) {
                switch property {
                // Only transient attributes carry the mark, so every model without one hashes as it always has.
                case .attribute(let a): text += "A:\(a.name):\(a.attributeType.rawValue)\(a.isTransient ? ":T" : "");"
                case .relationship(let r):
                    text += "R:\(r.name):\(r.destinationEntityName):\(r.inverseName ?? "-"):\(r.isToMany):\(r.isOrdered);"
                }
            }
            for constraint in entity.uniquenessConstraints { text += "U:\(constraint.joined(separator: ","));" }
            // Indexes are tables too (SQLite creates them with the store); a model without any hashes as before.
            for index in entity.indexes.sorted(by: { $0.name < $1.name }) {
                text += "I:\(index.name):" + index.elements.map { $0.property + ($0.isAscending ? "+" : "-") }.joined(separator: ",") + ";"
            }
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16, uppercase: true)
    }
}
