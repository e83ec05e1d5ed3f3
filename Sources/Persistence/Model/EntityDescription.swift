import Foundation
import Synchronization

/// One entity of a model, Core Data's `NSEntityDescription`: its name, the class of its objects, its attributes and
/// relationships, its uniqueness constraints and its indexes.
///
/// ```swift
/// let movie = EntityDescription()
/// movie.name = "Movie"
/// movie.managedObjectClassName = NSStringFromClass(Movie.self)    // "Films.Movie"
/// movie.properties = [title, year, director]
/// movie.uniquenessConstraintKeys = [["title", "year"]]
/// ```
///
/// The class comes from ``managedObjectClassName``, found by `NSClassFromString`, as Core Data finds it. A name it
/// cannot find leaves the entity's objects plain `ManagedObject`s, as Core Data does, and the model warns (on
/// standard error, once per process) when it is used; Core Data logs a warning too.
///
/// An entity may inherit from another (its ``superentity``, set by listing it in the parent's ``subentities``): it
/// has every property of its parent, first and in the parent's order, then its own. A fetch of the parent returns
/// objects of its subentities too (see ``FetchRequest/includesSubentities``), and an ``isAbstract`` entity has no
/// objects of its own.
///
/// An entity belongs to one ``ManagedObjectModel``. Like the model, it can be changed until the model is used by a
/// coordinator; a change after that is a programming error, as Core Data raises one.
public final class EntityDescription: @unchecked Sendable, CustomStringConvertible {
    // One class serves both the description you build and the one the object graph reads, as in Core Data: an
    // object's `entity` is the very description the model was built from. What fetches and saves read (positions,
    // kinds, defaults, lookups by name) lives in plain stored fields, recomputed by ``refresh()`` after each change
    // and fixed for good when the model is frozen; reading them costs what reading constants would.

    /// The entity's name, unique in its model: what fetch requests and `insertNewObject(forEntityName:into:)` name.
    /// `nil` until you set it, as for Core Data's `NSEntityDescription()`; a model with an unnamed entity is refused
    /// when it is used.
    public var name: String? {
        get { declaredName }
        set {
            guard mayChange("name") else { return }
            declaredName = newValue
            entityName = newValue ?? ""
            refresh()
        }
    }
    @exclusivity(unchecked) private var declaredName: String?
    /// The name, for code that knows it is there (empty while there is none).
    @exclusivity(unchecked) private(set) var entityName: String

    /// The name of the class whose instances stand for the entity's objects, as `NSStringFromClass` writes it
    /// (`"Films.Movie"`); `ManagedObject`'s own name by default (Core Data's default is `NSManagedObject`).
    public var managedObjectClassName: String! {
        get { className }
        set {
            guard mayChange("managedObjectClassName") else { return }
            className = newValue ?? Self.plainClassName
            explicitClass = nil
            resolveClass()
            refresh()
        }
    }
    @exclusivity(unchecked) private var className: String
    /// The class the shorthand builder was given, which needs no lookup by name.
    @exclusivity(unchecked) private var explicitClass: ManagedObject.Type?
    /// `ManagedObject`'s own class name.
    static let plainClassName = NSStringFromClass(ManagedObject.self)

    /// The class instantiated for this entity's objects (`ManagedObject` itself when there is no subclass), found
    /// from ``managedObjectClassName``. Persistence-only: Core Data's entity has only the name.
    ///
    /// A subentity's class may be its parent's class, a subclass of it, or — as Core Data allows — a class that
    /// does not derive from it at all (entity `Country` inheriting from `Region`, class `Country: ManagedObject`).
    /// Its objects then have every property of the entity through `value(forKey:)`, and the `@Managed` properties
    /// their own class declares; a fetch of the parent typed as the parent's class cannot return them (see
    /// `ManagedObjectContext.fetch(_:)`), and a `@Managed` relationship to the parent must be declared with a
    /// class every object of the parent's family is an instance of (`ManagedObject?` at least).
    @exclusivity(unchecked) public private(set) var managedObjectClass: ManagedObject.Type
    /// Why ``managedObjectClassName`` found no class (nil when it did): the model's warning.
    private(set) var classLookupFailure: String?

    /// Attributes and relationships: the inherited ones first, in the parent's order, then this entity's own, in the
    /// order declared. Setting it sets the entity's own properties (Core Data's `properties` is settable the same
    /// way); each property belongs to one entity.
    public var properties: [PropertyDescription] {
        get { allProperties }
        set {
            guard mayChange("properties") else { return }
            ownProperties = newValue
            for property in newValue where property.entity == nil || !property.isFrozen {
                property.entity = self
            }
            refresh()
        }
    }
    @exclusivity(unchecked) private var ownProperties: [PropertyDescription]
    @exclusivity(unchecked) private var allProperties: [PropertyDescription] = []

    /// Each constraint is a list of attributes whose values, together, must be unique among all objects (of this
    /// entity and its subentities: a subentity inherits its parent's constraints). As in Core Data, an attribute is
    /// named by its name or given as its ``AttributeDescription``; the inherited constraints come first.
    public var uniquenessConstraints: [[Any]] {
        get { uniquenessConstraintKeys }
        set {
            guard mayChange("uniquenessConstraints") else { return }
            declaredConstraints = newValue.map { constraint in
                constraint.map { element in
                    if let name = element as? String { return name }
                    if let property = element as? PropertyDescription { return property.name }
                    // Not a name: kept in words, so the model's check names it as no attribute of the entity.
                    return "\(element)"
                }
            }
            refresh()
        }
    }
    @exclusivity(unchecked) private var declaredConstraints: [[String]]
    /// The uniqueness constraints as attribute names, inherited ones first: what the store enforces.
    @exclusivity(unchecked) private(set) var uniquenessConstraintKeys: [[String]] = []

    /// The entity this one inherits from, or `nil` for a root entity. Set by the parent's ``subentities``.
    @exclusivity(unchecked) public private(set) var superentity: EntityDescription?
    /// An abstract entity has no objects of its own, only objects of its subentities; inserting one fails the save.
    public var isAbstract: Bool {
        get { abstract }
        set {
            guard mayChange("isAbstract") else { return }
            abstract = newValue
            refresh()
        }
    }
    @exclusivity(unchecked) private var abstract: Bool
    /// How many of ``properties`` come from the ``superentity`` (they keep the parent's indexes).
    @exclusivity(unchecked) private(set) var inheritedPropertyCount = 0
    /// How many of ``uniquenessConstraints`` come from the ``superentity``.
    @exclusivity(unchecked) private(set) var inheritedConstraintCount = 0
    /// The entities that inherit directly from this one; set by ``subentities`` and by the model.
    private var subentityReferences: [EntityReference] = []
    /// This entity and everything that inherits from it, parents before children; set by the model.
    private var familyReferences: [EntityReference] = []
    /// `true` when every entity of the family has this entity's class or a subclass of it as its class, so every
    /// object a fetch of this entity returns is an instance of ``managedObjectClass``; set by the model.
    private(set) var familySharesClass = true
    /// Indexes on the entity's table (Core Data's fetch indexes); they speed fetches up and never change results.
    public var indexes: [FetchIndexDescription] {
        get { declaredIndexes }
        set {
            guard mayChange("indexes") else { return }
            declaredIndexes = newValue
            refresh()
        }
    }
    @exclusivity(unchecked) private var declaredIndexes: [FetchIndexDescription]
    /// Core Data's `versionHashModifier`: any text, counted in ``versionHash``, to mark the entity as another
    /// version when nothing else about it changed (Xcode's "Versioning Hash Modifier").
    public var versionHashModifier: String? {
        get { declaredVersionHashModifier }
        set {
            guard mayChange("versionHashModifier") else { return }
            declaredVersionHashModifier = newValue
            refresh()
        }
    }
    @exclusivity(unchecked) private var declaredVersionHashModifier: String?
    /// The entity's name in the model version a store was written with, when it has been renamed since (Xcode's
    /// "Renaming ID", `elementID` in the model's XML): lightweight migration keeps its objects.
    public var renamingIdentifier: String? {
        get { declaredRenamingIdentifier }
        set {
            guard mayChange("renamingIdentifier") else { return }
            declaredRenamingIdentifier = newValue
        }
    }
    @exclusivity(unchecked) private var declaredRenamingIdentifier: String?
    /// Core Data's version hash of the entity: SHA-256 of what Apple lists for `NSEntityDescription.versionHash` —
    /// the name, the superentity's version hash, whether it is abstract, the version hashes of its own properties
    /// (in name order) and ``versionHashModifier``. The class, uniqueness constraints and indexes do not count (a
    /// store's indexes are brought to the model's when it opens). A store keeps these hashes in its metadata
    /// (`NSStoreModelVersionHashes`) and opens without migrating when they are the model's. Apple does not publish
    /// its exact bytes: these are not equal to Core Data's, only built from the same fields.
    @exclusivity(unchecked) public private(set) var versionHash = Data()

    /// The entity's attributes by name, its superentities' included.
    @exclusivity(unchecked) public private(set) var attributesByName: [String: AttributeDescription] = [:]
    /// The entity's relationships by name, its superentities' included.
    @exclusivity(unchecked) public private(set) var relationshipsByName: [String: RelationshipDescription] = [:]
    /// Position of each property in ``properties``; objects keep their values in that order.
    @exclusivity(unchecked) private(set) var propertyIndexByName: [String: Int] = [:]
    /// Per property: its attribute (nil for a relationship).
    @exclusivity(unchecked) private(set) var attributeAt: [AttributeDescription?] = []
    /// Per property: its relationship (nil for an attribute).
    @exclusivity(unchecked) private(set) var relationshipAt: [RelationshipDescription?] = []

    /// The values a newly inserted object starts with (shared until the object writes one).
    @exclusivity(unchecked) private(set) var initialSlots: [PropertySlot] = []
    /// The attributes whose default value is not nil: what a new object's packed row is given.
    @exclusivity(unchecked) private(set) var defaultedAttributeIndexes: [Int] = []
    /// The to-many relationships (their lists are written apart from the row).
    @exclusivity(unchecked) private(set) var toManyIndexes: [Int] = []
    /// Attributes that must not be nil at save.
    @exclusivity(unchecked) private(set) var mandatoryAttributeIndexes: [Int] = []
    /// Transient attributes: kept in memory only, with no column in the store.
    @exclusivity(unchecked) private(set) var transientIndexes: [Int] = []
    /// Relationships with something to check at save: a required to-one, a to-many with a count range.
    @exclusivity(unchecked) private(set) var checkedRelationshipIndexes: [Int] = []

    /// The scope of this entity's temporary IDs: this description's own (see ``ManagedObjectID/Scope``), set last
    /// in `init` (as it refers to the entity) and again if the entity is renamed before its model is used. Read
    /// for every insert, so without exclusivity checks.
    @exclusivity(unchecked) private(set) var temporaryIDScope: ManagedObjectID.Scope!
    /// The scopes of this entity's IDs in each store, by store identifier and kind (see ``idScope(store:temporary:)``).
    private let idScopes = Mutex<[IDScopeKey: ManagedObjectID.Scope]>([:])

    private struct IDScopeKey: Hashable {
        let store: String
        let temporary: Bool
    }

    /// The model the entity belongs to: set when the entity is put in a model's ``ManagedObjectModel/entities``.
    public internal(set) unowned(unsafe) var managedObjectModel: ManagedObjectModel!
    /// The model to tell about changes (held weakly: an entity may outlive a model it was put in).
    weak var owningModel: ManagedObjectModel?
    var index = 0
    /// Set when the entity's model is used by a coordinator; from then on every setter refuses.
    private let frozen = Atomic<Bool>(false)

    /// Per property: what it is, without references (read on every property access).
    @exclusivity(unchecked) private(set) var kinds: [PropertyKind] = []
    /// How a fetched row of this entity is packed in memory (nil: its rows stay slots).
    @exclusivity(unchecked) private(set) var packedLayout: PackedRowLayout?
    /// Property index per `@Managed` ordinal of ``managedObjectClass`` (see ``ManagedPropertyOrdinal``); set when
    /// the model checks the class.
    var ordinalIndexes: [Int] = []
    /// Per `@Managed` ordinal, where its value lies in a packed row (see ``PackedOrdinalCell``): read on every typed
    /// access, so it is a plain buffer (no reference counting) rather than an array. Set with ``ordinalIndexes``.
    var ordinalCells = UnsafeMutableBufferPointer<PackedOrdinalCell>(start: nil, count: 0)

    /// A new entity, as Core Data's `NSEntityDescription()` makes it: no name and no properties yet, objects of
    /// class `ManagedObject`, not abstract, no superentity.
    public init() {
        declaredName = nil
        entityName = ""
        className = Self.plainClassName
        managedObjectClass = ManagedObject.self
        ownProperties = []
        declaredConstraints = []
        abstract = false
        declaredIndexes = []
        refresh()
        temporaryIDScope = ManagedObjectID.Scope.make(for: self, store: "", temporary: true)
    }

    /// An entity with everything given at once: Persistence's shorthand, in the `ModelBuilding` SPI group
    /// (`@_spi(ModelBuilding) import Persistence`), for the model an `.xcdatamodeld` would describe.
    ///
    /// ```swift
    /// EntityDescription(name: "Movie", managedObjectClass: Movie.self, properties: [
    ///     .attribute("title", .string, optional: false),
    ///     .attribute("year", .integer32, defaultValue: 2000),
    ///     .toOne("director", "Director", inverse: "movies"),
    /// ], uniquenessConstraints: [["title", "year"]])
    /// ```
    ///
    /// With a `parent` it inherits the parent's properties and uniqueness constraints and `properties` lists only
    /// its own; `managedObjectClass` defaults to the parent's class.
    @_spi(ModelBuilding) public init(name: String, managedObjectClass: ManagedObject.Type? = nil,
                                     parent: EntityDescription? = nil, isAbstract: Bool = false,
                                     properties: [PropertyDescription], uniquenessConstraints: [[String]] = [],
                                     indexes: [FetchIndexDescription] = [], versionHashModifier: String? = nil,
                                     renamingIdentifier: String? = nil) {
        declaredName = name
        entityName = name
        let type = managedObjectClass ?? parent?.managedObjectClass ?? ManagedObject.self
        explicitClass = type
        // NSStringFromClass stops the program for a nested class, which the shorthand may be given.
        className = String(reflecting: type)
        self.managedObjectClass = type
        superentity = parent
        ownProperties = properties
        declaredConstraints = uniquenessConstraints
        abstract = isAbstract
        declaredIndexes = indexes
        declaredVersionHashModifier = versionHashModifier
        declaredRenamingIdentifier = renamingIdentifier
        for property in properties where property.entity == nil { property.entity = self }
        refresh()
        temporaryIDScope = ManagedObjectID.Scope.make(for: self, store: "", temporary: true)
    }

    /// Recomputes everything the entity derives from its fields, its properties' and its parent's, then does the
    /// same for its subentities and tells its model: what keeps the derived tables true while the entity is built.
    func refresh() {
        var hasher = SHA256()
        hasher.update(field: "entity")
        hasher.update(field: entityName)
        hasher.update(superentity?.versionHash ?? Data())
        hasher.update(field: abstract ? "abstract" : "")
        for property in ownProperties.sorted(by: { $0.name < $1.name }) { hasher.update(property.versionHash) }
        hasher.update(field: declaredVersionHashModifier ?? "")
        versionHash = hasher.finalize()
        inheritedPropertyCount = superentity?.properties.count ?? 0
        inheritedConstraintCount = superentity?.uniquenessConstraintKeys.count ?? 0
        let properties = (superentity?.properties ?? []) + ownProperties
        allProperties = properties
        uniquenessConstraintKeys = (superentity?.uniquenessConstraintKeys ?? []) + declaredConstraints
        var attributes: [String: AttributeDescription] = [:]
        var relationships: [String: RelationshipDescription] = [:]
        var positions: [String: Int] = [:]
        var attributeAt: [AttributeDescription?] = []
        var relationshipAt: [RelationshipDescription?] = []
        for (index, property) in properties.enumerated() {
            // Duplicates are reported by ManagedObjectModel's checks; the first one wins here.
            if positions[property.name] == nil { positions[property.name] = index }
            switch property.role {
            case .attribute(let a):
                attributes[a.name] = attributes[a.name] ?? a
                attributeAt.append(a)
                relationshipAt.append(nil)
            case .relationship(let r):
                relationships[r.name] = relationships[r.name] ?? r
                attributeAt.append(nil)
                relationshipAt.append(r)
            }
        }
        self.attributesByName = attributes
        self.relationshipsByName = relationships
        self.propertyIndexByName = positions
        self.attributeAt = attributeAt
        self.relationshipAt = relationshipAt
        self.kinds = properties.map { property in
            switch property.role {
            case .attribute(let a): .attribute(a.attributeType)
            case .relationship(let r): r.isToMany ? .toMany : .toOne
            }
        }
        self.packedLayout = PackedRowLayout(kinds: self.kinds)
        self.initialSlots = properties.map { property in
            switch property.role {
            case .attribute(let a): .value(a.persistentDefaultValue)
            case .relationship(let r): r.isToMany ? .toMany(RelatedObjects()) : .toOne(nil)
            }
        }
        self.defaultedAttributeIndexes = properties.indices.filter {
            attributeAt[$0].map { !$0.persistentDefaultValue.isNull } ?? false
        }
        self.toManyIndexes = properties.indices.filter { relationshipAt[$0]?.isToMany == true }
        self.mandatoryAttributeIndexes = properties.indices.filter { attributeAt[$0].map { !$0.isOptional } ?? false }
        self.transientIndexes = properties.indices.filter { attributeAt[$0]?.isTransient == true }
        self.checkedRelationshipIndexes = properties.indices.filter {
            guard let r = relationshipAt[$0] else { return false }
            return !r.isOptional || (r.isToMany && (r.minCount > 0 || r.maxCount > 0))
        }
        for child in subentityReferences { child.entity.refresh() }
        owningModel?.entitiesDidChange()
    }

    /// Called by a property of this entity after it changed.
    func propertiesDidChange() { refresh() }

    /// Finds the class ``managedObjectClassName`` names, as Core Data does through `NSClassFromString`.
    private func resolveClass() {
        classLookupFailure = nil
        if let explicitClass {
            managedObjectClass = explicitClass
            return
        }
        if className.isEmpty || className == Self.plainClassName || className == "NSManagedObject"
            || className == "ManagedObject" {
            managedObjectClass = ManagedObject.self
            return
        }
        guard let found = NSClassFromString(className) else {
            managedObjectClass = ManagedObject.self
            classLookupFailure = "Entity '\(entityName)': no class named '\(className)' was found (managedObjectClassName), so its objects are plain ManagedObjects, as Core Data makes them. Set it with NSStringFromClass(YourClass.self), which writes the module too."
            return
        }
        guard let type = found as? ManagedObject.Type else {
            managedObjectClass = ManagedObject.self
            classLookupFailure = "Entity '\(entityName)': managedObjectClassName '\(className)' names a class that is not a subclass of ManagedObject, so its objects are plain ManagedObjects."
            return
        }
        managedObjectClass = type
    }

    // MARK: Changes

    /// `true` once the entity's model is in use.
    var isFrozen: Bool { frozen.load(ordering: .acquiring) }

    /// Fixes the entity and its own properties for good (its model is in use): the names the model resolved, the
    /// class it found, the temporary ID scope under the final name.
    func freeze() {
        if temporaryIDScope.entityName != entityName {
            temporaryIDScope = ManagedObjectID.Scope.make(for: self, store: "", temporary: true)
        }
        frozen.store(true, ordering: .releasing)
        for property in ownProperties { property.freeze() }
    }

    /// Brings the names the model resolves against up to date (relationships set to objects, a class set by
    /// name): the first step of checking the model.
    func prepareForChecking() {
        resolveClass()
        for property in ownProperties { property.asRelationship?.resolveNames() }
    }

    /// `true` when the entity may still change; otherwise reports the change of `key` as the programming error it
    /// is (see ``ManagedObjectModel/programmingErrorHandling``) and answers `false`, so the setter changes nothing.
    private func mayChange(_ key: String) -> Bool {
        guard isFrozen else { return true }
        ManagedObjectModel.refuseChange(of: "\(key) of entity '\(entityName)'", entityName: entityName, key: nil)
        return false
    }

    /// The own properties, in the order declared (``properties`` without the inherited ones).
    var declaredProperties: [PropertyDescription] { ownProperties }

    deinit {
        // The scopes point at this description without counting: they must stop handing it out first.
        temporaryIDScope.entityWillGo()
        idScopes.withLock { scopes in for scope in scopes.values { scope.entityWillGo() } }
        ordinalCells.deallocate()
    }

    /// The one scope of this entity's IDs in the store `store` (its identifier; empty for temporary IDs and for a
    /// context with no store yet), temporary or permanent: IDs made with it name this description as their
    /// ``ManagedObjectID/entity``.
    func idScope(store: String, temporary: Bool) -> ManagedObjectID.Scope {
        if temporary && store.isEmpty { return temporaryIDScope }
        return idScopes.withLock { scopes in
            let key = IDScopeKey(store: store, temporary: temporary)
            if let scope = scopes[key] { return scope }
            let scope = ManagedObjectID.Scope.make(for: self, store: store, temporary: temporary)
            scopes[key] = scope
            return scope
        }
    }

    /// The entities that inherit directly from this one, in the model's order. Setting it makes this entity their
    /// ``superentity``, as in Core Data; each must be in the same model.
    public var subentities: [EntityDescription] {
        get { subentityReferences.map(\.entity) }
        set {
            guard mayChange("subentities") else { return }
            for child in subentityReferences.map(\.entity) where child.superentity === self && !newValue.contains(where: { $0 === child }) {
                guard child.mayChange("superentity") else { return }
                child.superentity = nil
                child.refresh()
            }
            // A parent listed as its own subentity would make the family a circle, which nothing could walk.
            if let looping = newValue.first(where: { isKindOf(entity: $0) }) {
                ManagedObjectModel.reportProgrammingError("Entity '\(entityName)' cannot have '\(looping.entityName)' as a subentity: it is '\(looping.entityName)' itself or inherits from it.", entityName: entityName)
                return
            }
            subentityReferences = newValue.map(EntityReference.init)
            for child in newValue {
                guard child.mayChange("superentity") else { continue }
                child.superentity = self
                child.refresh()
            }
        }
    }

    /// The subentities by name.
    public var subentitiesByName: [String: EntityDescription] {
        Dictionary(subentities.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `true` when this entity is `entity` or inherits from it (Core Data's `isKindOf(entity:)`).
    public func isKindOf(entity: EntityDescription) -> Bool {
        var current: EntityDescription? = self
        while let candidate = current {
            if candidate === entity { return true }
            current = candidate.superentity
        }
        return false
    }

    /// `true` when objects of this entity are results of a fetch of `entity`.
    @inline(__always)
    func matches(_ entity: EntityDescription, includingSubentities: Bool) -> Bool {
        self === entity || (includingSubentities && superentity != nil && isKindOf(entity: entity))
    }

    /// The entity that declares uniqueness constraint `number` of ``uniquenessConstraints`` (inherited ones come
    /// first, so a number below the parent's count is the parent's, or further up).
    func constraintOwner(_ number: Int) -> EntityDescription {
        var owner = self
        while let parent = owner.superentity, number < parent.uniquenessConstraintKeys.count { owner = parent }
        return owner
    }

    /// The entity at the top of this one's inheritance chain (itself when it has no parent).
    public var rootEntity: EntityDescription {
        var current = self
        while let parent = current.superentity { current = parent }
        return current
    }

    /// The names of this entity and its parents, nearest first.
    var ancestorNames: [String] {
        var names: [String] = []
        var current: EntityDescription? = self
        while let entity = current {
            names.append(entity.entityName)
            current = entity.superentity
        }
        return names
    }

    /// This entity and all that inherit from it, parents before children.
    var family: [EntityDescription] { familyReferences.map(\.entity) }

    /// `true` when this entity has a parent or subentities: its objects share a table with other entities'.
    var isInHierarchy: Bool { superentity != nil || !subentityReferences.isEmpty }

    /// `true` when fetches of this entity can return objects of other entities.
    var hasSubentities: Bool { !subentityReferences.isEmpty }

    /// Links the model's entities to their subentities (called once by the model).
    static func linkSubentities(of entities: [EntityDescription]) {
        for entity in entities {
            entity.subentityReferences = entities.filter { $0.superentity === entity }.map(EntityReference.init)
        }
        func family(of entity: EntityDescription) -> [EntityDescription] {
            [entity] + entity.subentityReferences.flatMap { family(of: $0.entity) }
        }
        for entity in entities {
            let members = family(of: entity)
            entity.familyReferences = members.map(EntityReference.init)
            entity.familySharesClass = members.allSatisfy {
                ClassAncestry.isClass($0.managedObjectClass, subclassOf: entity.managedObjectClass)
            }
        }
    }

    /// Properties by name.
    public var propertiesByName: [String: PropertyDescription] {
        Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Attribute names in declaration order.
    public var attributeNames: [String] { properties.compactMap { $0.asAttribute?.name } }

    /// The names of the attributes the store keeps (every attribute but the transient ones), in declaration order.
    var storedAttributeNames: [String] {
        properties.compactMap { property in property.asAttribute.flatMap { $0.isTransient ? nil : $0.name } }
    }

    /// `true` when the entity has a transient attribute, its own or inherited.
    var hasTransientAttributes: Bool { !transientIndexes.isEmpty }

    /// `true` when property `index` is a transient attribute.
    func isTransient(at index: Int) -> Bool { attributeAt[index]?.isTransient == true }

    public var description: String {
        (isAbstract ? "abstract " : "") + "entity \(entityName)" + (superentity.map { ": \($0.entityName)" } ?? "")
            + " (\(managedObjectClass)) {\n" + properties.map { "  \($0)" }.joined(separator: "\n") + "\n}"
    }

    /// The index of the property `key`, or a clear error naming the entity and its keys.
    func propertyIndex(forKey key: String) throws -> Int {
        guard let index = propertyIndexByName[key] else {
            throw PersistenceError(.persistentStoreIncompatibleSchema,
                                   "\(entityName) has no property named '\(key)'. Its properties: \(properties.map(\.name).joined(separator: ", ")).",
                                   entityName: entityName, key: key)
        }
        return index
    }
}

/// A reference from an entity to a related entity of the same model. The model keeps every entity alive, and
/// parents and children pointing at each other strongly would keep a dropped model alive forever.
private struct EntityReference {
    unowned(unsafe) let entity: EntityDescription
}

/// What a property is, as a plain value.
enum PropertyKind: Equatable {
    case attribute(AttributeType)
    case toOne
    case toMany
}
