import Foundation
import Synchronization

/// The schema of a store, Core Data's `NSManagedObjectModel`: its entities, checked and linked together.
///
/// Build one as Core Data does: make the entities and their properties, then hand them to a model.
///
/// ```swift
/// let model = ManagedObjectModel()
/// model.entities = [recipe, step]
/// let container = PersistentContainer(name: "Cookbook", managedObjectModel: model)
/// ```
///
/// A model, its entities and their properties can be changed until the model is used by a coordinator (a
/// ``PersistentStoreCoordinator`` made with it, as every ``PersistentContainer`` makes one). From then on the model
/// is *frozen*: a change is a programming error, which stops the program with "Can't modify an immutable model",
/// as Core Data's exception does.
///
/// Freezing checks the model: every entity is named and every attribute has a type, every relationship has a
/// destination among the model's entities and an inverse (if it names one) that points at the entity, names are
/// unique and usable, constraints name attributes, and each `ManagedObject` subclass declares only properties its
/// entity has. An inverse that does not point back is accepted, as Core Data loads it, and `warnings` says so, as
/// Xcode does. A
/// problem is an `NSError` that names the entity and property, and every store the coordinator then
/// loads fails with it; Core Data raises for some of these mistakes and documents no check for others, so here the
/// stricter reading holds for all.
public final class ManagedObjectModel: @unchecked Sendable, CustomStringConvertible {
    // The model is the one object Core Data has too, not a builder in front of a frozen copy: objects and
    // fetches reach it through their entities. What the object graph reads is kept in plain stored fields that
    // each change brings up to date and freezing fixes (see `EntityDescription`).

    /// Every entity, in the order they were given. Setting it puts the entities in this model (each belongs to
    /// one model); Core Data raises when the model is in use, and so does this setter.
    public var entities: [EntityDescription] {
        get { storedEntities }
        set {
            guard mayChange("entities") else { return }
            storedEntities = newValue
            for entity in newValue {
                entity.managedObjectModel = self
                entity.owningModel = self
            }
            entitiesDidChange()
        }
    }
    @exclusivity(unchecked) private var storedEntities: [EntityDescription] = []
    /// The entities by name.
    @exclusivity(unchecked) public private(set) var entitiesByName: [String: EntityDescription] = [:]
    @exclusivity(unchecked) private var entitiesByClass: [ObjectIdentifier: EntityDescription] = [:]
    /// This library's first fingerprint of the whole model (FNV-1a of the tables, columns and indexes), which
    /// stores written before per-entity hashes keep in their metadata: such a store opens with a model of the same
    /// fingerprint, and from then on keeps ``entityVersionHashesByName`` as Core Data does. Internal: Core Data's
    /// model has no such member (its hashes are ``entityVersionHashesByName`` and ``versionChecksum``).
    @exclusivity(unchecked) private(set) var versionHash = ""
    /// Each entity's ``EntityDescription/versionHash``, by entity name: what a store keeps in its metadata
    /// (`NSStoreModelVersionHashes`) and what decides whether a store and a model are compatible (see
    /// ``isConfiguration(withName:compatibleWithStoreMetadata:)``).
    @exclusivity(unchecked) public private(set) var entityVersionHashesByName: [String: Data] = [:]
    /// Core Data's `versionChecksum`: one checksum (Base64 of SHA-256) of every entity's version hash, naming this
    /// version of the model in a staged migration (``ManagedObjectModelReference``). Not equal to Core Data's.
    @exclusivity(unchecked) public private(set) var versionChecksum = ""
    /// Identifiers of this version of the model, for your own use (Xcode's "Model Version Identifier",
    /// `userDefinedModelVersionIdentifier` in the XML). As in Core Data they play no part in compatibility; a store
    /// keeps them in its metadata (`NSStoreModelVersionIdentifiers`).
    public var versionIdentifiers: Set<AnyHashable> = []
    /// For a model read from a `.xcdatamodeld`: its earlier versions, newest first, each read only when asked for,
    /// for migration to find a store's model.
    var versionsLoader: (@Sendable () throws -> [ModelVersion])?
    /// For the empty model a container starts with when the model it was named after could not be loaded: why
    /// ("Failed to load model named …"), so that a later "no such entity" can say where the entities went.
    var loadingFailure: String?
    /// Named groups of entities (Core Data's configurations), by name, as given; resolved when the model is frozen.
    private var configurationNames: [String: [String]] = [:]
    /// The configurations' entities, by configuration name. A store here always holds every entity;
    /// configurations are kept so a model read from Xcode's format says what it declared.
    private var configurationMembers: [String: [EntityDescription]] = [:]
    /// What loading the model noticed but did not treat as an error (for example a `representedClassName` with no
    /// class found, so the entity's objects are plain `ManagedObject`s, as Core Data does, or a transformable
    /// attribute that names no transformer and so uses the default one, which is also printed to standard error).
    ///
    /// Persistence-only, with the reading of model files it reports on: in the `ModelLoading` SPI group
    /// (`@_spi(ModelLoading) import Persistence`). Core Data logs such things to the console instead.
    @_spi(ModelLoading) public internal(set) var warnings: [String] = []
    /// Whether the model is in use (see ``freeze()``), under a lock: two coordinators may be made on two queues.
    private let state = Mutex<FreezeState>(.open)
    private enum FreezeState { case open, linking, frozen }

    /// A model with no entities yet, as Core Data's `NSManagedObjectModel()`: set ``entities`` before handing it to
    /// a coordinator. A coordinator made with it as it is can still do work on store files that involves no objects
    /// (``PersistentStoreCoordinator/destroyPersistentStore(at:ofType:options:)``); a container whose model could
    /// not be loaded holds one too.
    public init() {
        entitiesDidChange()
    }

    /// A model of `entities`, checked and frozen at once; `configurations` names groups of them (each entity name
    /// must be one of `entities`). Persistence's shorthand, in the `ModelBuilding` SPI group, for the model an
    /// `.xcdatamodeld` would describe; it throws what freezing a model reports.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(entities: [
    ///     EntityDescription(name: "Movie", managedObjectClass: Movie.self, properties: [
    ///         .attribute("title", .string, optional: false),
    ///     ]),
    /// ])
    /// ```
    @_spi(ModelBuilding) public convenience init(entities: [EntityDescription], configurations: [String: [String]] = [:]) throws {
        self.init()
        for entity in entities where entity.managedObjectModel != nil {
            throw Self.invalid("Entity '\(entity.entityName)' already belongs to another model; make a new EntityDescription for each model.", entity: entity.entityName)
        }
        storedEntities = entities
        for entity in entities {
            entity.managedObjectModel = self
            entity.owningModel = self
        }
        configurationNames = configurations
        do {
            try freeze()
        } catch {
            // The entities stay free for another model, as before they were given to this one.
            for entity in entities {
                entity.managedObjectModel = nil
                entity.owningModel = nil
            }
            throw error
        }
    }

    /// `true` once the model is in use.
    var isFrozen: Bool { state.withLock { $0 == .frozen } }

    /// Checks and links the model and fixes it for good, once: what a coordinator does with its model. A model that
    /// fails its checks stays open and throws the same error each time (so it can still be mended).
    func freeze() throws {
        let proceed = try state.withLock { state -> Bool in
            switch state {
            case .frozen: return false
            case .linking: throw Self.invalid("The model is being checked on another queue.", entity: "")
            case .open:
                state = .linking
                return true
            }
        }
        guard proceed else { return }
        do {
            try link()
            for entity in storedEntities { entity.freeze() }
            state.withLock { $0 = .frozen }
            Self.printOnce(warnings)
        } catch {
            state.withLock { $0 = .open }
            throw error
        }
    }

    /// Rebuilds what the model derives from its entities (lookups by name, version hashes); called after any change
    /// of an entity while the model is open.
    func entitiesDidChange() {
        if state.withLock({ $0 == .linking }) { return }
        entitiesByName = Dictionary(storedEntities.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
        versionHash = Self.hash(of: storedEntities)
        entityVersionHashesByName = Dictionary(storedEntities.map { ($0.entityName, $0.versionHash) },
                                               uniquingKeysWith: { first, _ in first })
        versionChecksum = Self.checksum(of: entityVersionHashesByName)
    }

    /// Checks the entities and links them together (destinations, inverses, subentities, classes).
    private func link() throws {
        let entities = storedEntities
        for entity in entities { entity.prepareForChecking() }
        // Parents first: a subentity's derived tables start from its parent's.
        var refreshed: Set<ObjectIdentifier> = []
        func refreshFromTheTop(_ entity: EntityDescription) {
            guard refreshed.insert(ObjectIdentifier(entity)).inserted else { return }
            if let parent = entity.superentity { refreshFromTheTop(parent) }
            entity.refresh()
        }
        for entity in entities { refreshFromTheTop(entity) }
        var byName: [String: EntityDescription] = [:]
        var byClass: [ObjectIdentifier: EntityDescription] = [:]
        var warnings: [String] = []
        for (index, entity) in entities.enumerated() {
            guard entity.name != nil else {
                throw Self.invalid("Entity \(index + 1) of \(entities.count) has no name; set its name.", entity: "")
            }
            try Self.checkName(entity.entityName, what: "Entity name")
            guard byName[entity.entityName] == nil else {
                throw Self.invalid("The model has two entities named '\(entity.entityName)'.", entity: entity.entityName)
            }
            guard entity.managedObjectModel === self else {
                throw Self.invalid("Entity '\(entity.entityName)' already belongs to another model; make a new EntityDescription for each model.", entity: entity.entityName)
            }
            if let failure = entity.classLookupFailure { warnings.append(failure) }
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
        entitiesByName = byName
        entitiesByClass = byClass
        EntityDescription.linkSubentities(of: entities)

        for entity in entities { try Self.checkProperties(of: entity, in: byName, warnings: &warnings) }
        var members: [String: [EntityDescription]] = [:]
        for (configuration, names) in configurationNames {
            members[configuration] = try names.map { name in
                guard let entity = byName[name] else {
                    throw Self.invalid("Configuration '\(configuration)' names '\(name)', which is not an entity of this model. Entities: \(byName.keys.sorted().joined(separator: ", ")).", entity: name)
                }
                return entity
            }
        }
        configurationMembers = members
        versionHash = Self.hash(of: entities)
        entityVersionHashesByName = Dictionary(uniqueKeysWithValues: entities.map { ($0.entityName, $0.versionHash) })
        versionChecksum = Self.checksum(of: entityVersionHashesByName)
        for entity in entities {
            entity.managedObjectModel = self
            entity.owningModel = self
        }
        for entity in entities { try entity.checkManagedObjectClass() }
        self.warnings += warnings + Self.defaultTransformerWarnings(for: entities)
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
                                   "The model has no entity named '\(name)'. \(entitiesListed)",
                                   entityName: name)
        }
        return entity
    }

    public var description: String { entities.map(\.description).joined(separator: "\n") }

    /// "Its entities: …" for messages — or, for a container's stand-in model, why it has none.
    var entitiesListed: String {
        if entities.isEmpty, let loadingFailure {
            return "It has no entities: its container could not load its model (\(loadingFailure)). Core Data logs that at launch and carries on in the same way; look the model up before making the container to catch it there."
        }
        return "Its entities: \(entities.map(\.entityName).joined(separator: ", "))."
    }

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

    private static func checkProperties(of entity: EntityDescription, in entities: [String: EntityDescription],
                                        warnings: inout [String]) throws {
        var seen: Set<String> = []
        for (index, property) in entity.properties.enumerated() {
            // Inherited properties were checked with the entity that declares them.
            if index < entity.inheritedPropertyCount {
                seen.insert(property.name.lowercased())
                continue
            }
            try checkName(property.name, what: "Property name", entity: entity.entityName)
            guard property.entity === entity else {
                throw invalid("Property '\(entity.entityName).\(property.name)' already belongs to entity '\(property.entity?.entityName ?? "?")'; a property belongs to one entity, so make a new description for each.", entity: entity.entityName, key: property.name)
            }
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
            if let attribute = property.asAttribute {
                try checkAttribute(attribute, of: entity)
                continue
            }
            let relationship = property.asRelationship!
            guard !relationship.isTransient else {
                throw invalid("Relationship '\(entity.entityName).\(relationship.name)' is transient. Transient relationships are not supported (transient attributes are); make it a stored relationship, or keep the related objects in a property of your class.", entity: entity.entityName, key: relationship.name)
            }
            guard !relationship.destinationEntityName.isEmpty else {
                throw invalid("Relationship '\(entity.entityName).\(relationship.name)' has no destination entity; set its destinationEntity.", entity: entity.entityName, key: relationship.name)
            }
            guard let destination = entities[relationship.destinationEntityName],
                  !relationship.hasDestinationObject || relationship.destinationEntity === destination else {
                throw invalid("Relationship '\(entity.entityName).\(relationship.name)' points at '\(relationship.destinationEntityName)', which is not an entity of this model. Entities: \(entities.keys.sorted().joined(separator: ", ")).", entity: entity.entityName, key: relationship.name)
            }
            relationship.link(destination: destination, inverse: nil)
            if relationship.isOrdered && !relationship.isToMany {
                throw invalid("Relationship '\(entity.entityName).\(relationship.name)' is to-one (maxCount 1) and cannot be ordered.", entity: entity.entityName, key: relationship.name)
            }
            if relationship.minCount < 0 || relationship.maxCount < 0 || (relationship.isToMany && relationship.maxCount > 0 && relationship.minCount > relationship.maxCount) {
                throw invalid("Relationship '\(entity.entityName).\(relationship.name)' has an impossible count range \(relationship.minCount)…\(relationship.maxCount).", entity: entity.entityName, key: relationship.name)
            }
            guard let inverseName = relationship.inverseName else { continue }
            guard let inverse = destination.relationshipsByName[inverseName],
                  relationship.inverseRelationship.map({ $0 === inverse }) ?? true else {
                throw invalid("Relationship '\(entity.entityName).\(relationship.name)' names the inverse '\(relationship.destinationEntityName).\(inverseName)', which does not exist.", entity: entity.entityName, key: relationship.name)
            }
            // The inverse may point at this entity or at one of its parents (a relationship declared on a
            // subentity can pair with one that points at the parent).
            guard entity.ancestorNames.contains(inverse.destinationEntityName) else {
                throw invalid("'\(entity.entityName).\(relationship.name)' names '\(destination.entityName).\(inverseName)' as its inverse, but that relationship points at '\(inverse.destinationEntityName)', not at '\(entity.entityName)'.",
                              entity: entity.entityName, key: relationship.name)
            }
            if inverse.inverseName != relationship.name {
                // Xcode only warns about an inverse that does not point back, and Core Data loads such a model
                // (see RelationshipDescription.inverseRelationship for what each side then keeps up to date).
                warnings.append("\(entity.entityName).\(relationship.name) -- inverse relationship \(destination.entityName).\(inverseName) does not point back: "
                                + (inverse.inverseName.map { "its inverse is \(inverse.destinationEntityName).\($0)" } ?? "it has no inverse")
                                + ". Changing \(entity.entityName).\(relationship.name) updates \(destination.entityName).\(inverseName), but not the other way round.")
            }
            if relationship.isOrdered && inverse.isOrdered {
                throw invalid("'\(entity.entityName).\(relationship.name)' and its inverse cannot both be ordered.", entity: entity.entityName, key: relationship.name)
            }
            relationship.link(destination: destination, inverse: inverse)
        }
        for constraint in entity.uniquenessConstraintKeys.dropFirst(entity.inheritedConstraintCount) {
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

    /// The checks of one attribute of `entity`: a type, a transformer only on a transformable attribute, and a
    /// default value that fits.
    private static func checkAttribute(_ attribute: AttributeDescription, of entity: EntityDescription) throws {
        let place = "'\(entity.entityName).\(attribute.name)'"
        guard attribute.attributeType != .undefined else {
            throw invalid("Attribute \(place) has no type; set its attributeType. (Core Data allows the undefined type on a transient attribute, for values of any kind; Persistence has no such values, so every attribute needs a type.)", entity: entity.entityName, key: attribute.name)
        }
        // A transformable attribute without a transformer name uses the default one (see
        // defaultTransformerWarnings); only a name on another type is a mistake.
        if attribute.attributeType != .transformable, attribute.valueTransformerName.map({ !$0.isEmpty }) ?? false {
            throw invalid("Attribute \(place) names a value transformer but is \(attribute.attributeType.rawValue); only transformable attributes use one.",
                          entity: entity.entityName, key: attribute.name)
        }
        if let unstorable = attribute.unstorableDefault {
            throw invalid("The default value \(unstorable) of \(place) is a \(type(of: unstorable)), which no attribute holds; give a \(attribute.attributeType.rawValue) value.", entity: entity.entityName, key: attribute.name)
        }
        if attribute.attributeType.coerce(attribute.persistentDefaultValue) == nil {
            throw invalid("The default value \(attribute.persistentDefaultValue) of \(place) is not a \(attribute.attributeType.rawValue) value.", entity: entity.entityName, key: attribute.name)
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
                switch property.role {
                // Only transient attributes carry the mark, so every model without one hashes as it always has.
                case .attribute(let a): text += "A:\(a.name):\(a.attributeType.rawValue)\(a.isTransient ? ":T" : "");"
                case .relationship(let r):
                    text += "R:\(r.name):\(r.destinationEntityName):\(r.inverseName ?? "-"):\(r.isToMany):\(r.isOrdered);"
                }
            }
            for constraint in entity.uniquenessConstraintKeys { text += "U:\(constraint.joined(separator: ","));" }
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
