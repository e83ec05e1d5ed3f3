import Foundation
import Synchronization

/// One entity of a model: its name, the class of its objects, its attributes and relationships, its
/// uniqueness constraints and its indexes.
///
/// ```swift
/// EntityDescription(name: "Movie", managedObjectClass: Movie.self, properties: [
///     .attribute("title", .string, optional: false),
///     .attribute("year", .integer32, defaultValue: 2000),
///     .toOne("director", "Director", inverse: "movies"),
/// ], uniquenessConstraints: [["title", "year"]])
/// ```
///
/// An entity may inherit from another (its ``superentity``): it has every property of its parent, first and in the
/// parent's order, then its own. A fetch of the parent returns objects of its subentities too (see
/// ``FetchRequest/includesSubentities``), and an ``isAbstract`` entity has no objects of its own:
///
/// ```swift
/// let item = EntityDescription(name: "Item", isAbstract: true, properties: [.attribute("title", .string)])
/// let note = EntityDescription(name: "Note", parent: item, properties: [.attribute("text", .string)])
/// ```
///
/// An entity belongs to one ``ManagedObjectModel``; once the model is made it never changes.
public final class EntityDescription: @unchecked Sendable, CustomStringConvertible {
    /// The entity's name, unique in its model: what fetch requests and `insertNewObject(forEntityName:into:)` name.
    ///
    /// Optional because Core Data types it so (an `NSEntityDescription` made with `init()` has no name yet); an
    /// entity here is always made with one, so it is never `nil`.
    public var name: String? { entityName }
    /// The name, for code that knows it is there.
    let entityName: String
    /// The class instantiated for this entity's objects (`ManagedObject` itself when there is no subclass).
    ///
    /// A subentity's class may be its parent's class, a subclass of it, or — as Core Data allows — a class that
    /// does not derive from it at all (entity `Country` inheriting from `Region`, class `Country: ManagedObject`).
    /// Its objects then have every property of the entity through `value(forKey:)`, and the `@Managed` properties
    /// their own class declares; a fetch of the parent typed as the parent's class cannot return them (see
    /// `ManagedObjectContext.fetch(_:)`), and a `@Managed` relationship to the parent must be declared with a
    /// class every object of the parent's family is an instance of (`ManagedObject?` at least).
    public let managedObjectClass: ManagedObject.Type
    /// Attributes and relationships: the inherited ones first, in the parent's order, then this entity's own, in the
    /// order declared.
    public let properties: [PropertyDescription]
    /// Each constraint is a list of attribute names whose values, together, must be unique among all objects (of
    /// this entity and its subentities: a subentity inherits its parent's constraints).
    public let uniquenessConstraints: [[String]]
    /// The entity this one inherits from, or `nil` for a root entity.
    public let superentity: EntityDescription?
    /// An abstract entity has no objects of its own, only objects of its subentities; inserting one fails the save.
    public let isAbstract: Bool
    /// How many of ``properties`` come from the ``superentity`` (they keep the parent's indexes).
    let inheritedPropertyCount: Int
    /// How many of ``uniquenessConstraints`` come from the ``superentity``.
    let inheritedConstraintCount: Int
    /// The entities that inherit directly from this one; set by the model.
    private var subentityReferences: [EntityReference] = []
    /// This entity and everything that inherits from it, parents before children; set by the model.
    private var familyReferences: [EntityReference] = []
    /// `true` when every entity of the family has this entity's class or a subclass of it as its class, so every
    /// object a fetch of this entity returns is an instance of ``managedObjectClass``; set by the model.
    private(set) var familySharesClass = true
    /// Indexes on the entity's table (Core Data's fetch indexes); they speed fetches up and never change results.
    public let indexes: [FetchIndexDescription]
    /// Core Data's `versionHashModifier`: any text, counted in ``versionHash``, to mark the entity as another
    /// version when nothing else about it changed (Xcode's "Versioning Hash Modifier").
    public let versionHashModifier: String?
    /// The entity's name in the model version a store was written with, when it has been renamed since (Xcode's
    /// "Renaming ID", `elementID` in the model's XML): lightweight migration keeps its objects.
    public let renamingIdentifier: String?
    /// Core Data's version hash of the entity: SHA-256 of what Apple lists for `NSEntityDescription.versionHash` —
    /// the name, the superentity's version hash, whether it is abstract, the version hashes of its own properties
    /// (in name order) and ``versionHashModifier``. The class, uniqueness constraints and indexes do not count (a
    /// store's indexes are brought to the model's when it opens). A store keeps these hashes in its metadata
    /// (`NSStoreModelVersionHashes`) and opens without migrating when they are the model's. Apple does not publish
    /// its exact bytes: these are not equal to Core Data's, only built from the same fields.
    public let versionHash: Data

    /// The entity's attributes by name, its superentities' included.
    public let attributesByName: [String: AttributeDescription]
    /// The entity's relationships by name, its superentities' included.
    public let relationshipsByName: [String: RelationshipDescription]
    /// Position of each property in ``properties``; objects keep their values in that order.
    let propertyIndexByName: [String: Int]
    /// Per property: its attribute (nil for a relationship).
    let attributeAt: [AttributeDescription?]
    /// Per property: its relationship (nil for an attribute).
    let relationshipAt: [RelationshipDescription?]

    /// The values a newly inserted object starts with (shared until the object writes one).
    let initialSlots: [PropertySlot]
    /// The attributes whose default value is not nil: what a new object's packed row is given.
    let defaultedAttributeIndexes: [Int]
    /// The to-many relationships (their lists are written apart from the row).
    let toManyIndexes: [Int]
    /// Attributes that must not be nil at save.
    let mandatoryAttributeIndexes: [Int]
    /// Transient attributes: kept in memory only, with no column in the store.
    let transientIndexes: [Int]
    /// Relationships with something to check at save: a required to-one, a to-many with a count range.
    let checkedRelationshipIndexes: [Int]

    /// The scope of this entity's temporary IDs: this description's own (see ``ManagedObjectID/Scope``), set last
    /// in `init`, as it refers to the entity. Read for every insert, so without exclusivity checks.
    @exclusivity(unchecked) private(set) var temporaryIDScope: ManagedObjectID.Scope!
    /// The scopes of this entity's IDs in each store, by store identifier and kind (see ``idScope(store:temporary:)``).
    private let idScopes = Mutex<[IDScopeKey: ManagedObjectID.Scope]>([:])

    private struct IDScopeKey: Hashable {
        let store: String
        let temporary: Bool
    }

    /// The model the entity belongs to (set once, when the model is made).
    public internal(set) unowned(unsafe) var managedObjectModel: ManagedObjectModel!
    var index = 0

    /// Per property: what it is, without references (read on every property access).
    let kinds: [PropertyKind]
    /// How a fetched row of this entity is packed in memory (nil: its rows stay slots).
    let packedLayout: PackedRowLayout?
    /// Property index per `@Managed` ordinal of ``managedObjectClass`` (see ``ManagedPropertyOrdinal``); set when
    /// the model checks the class.
    var ordinalIndexes: [Int] = []
    /// Per `@Managed` ordinal, where its value lies in a packed row (see ``PackedOrdinalCell``): read on every typed
    /// access, so it is a plain buffer (no reference counting) rather than an array. Set with ``ordinalIndexes``.
    var ordinalCells = UnsafeMutableBufferPointer<PackedOrdinalCell>(start: nil, count: 0)

    /// An entity named `name`. With a `parent` it inherits the parent's properties and uniqueness constraints and
    /// `properties` lists only its own; `managedObjectClass` defaults to the parent's class.
    public init(name: String, managedObjectClass: ManagedObject.Type? = nil, parent: EntityDescription? = nil,
                isAbstract: Bool = false, properties: [PropertyDescription], uniquenessConstraints: [[String]] = [],
                indexes: [FetchIndexDescription] = [], versionHashModifier: String? = nil,
                renamingIdentifier: String? = nil) {
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        var hasher = SHA256()
        hasher.update(field: "entity")
        hasher.update(field: name)
        hasher.update(parent?.versionHash ?? Data())
        hasher.update(field: isAbstract ? "abstract" : "")
        for property in properties.sorted(by: { $0.name < $1.name }) { hasher.update(property.versionHash) }
        hasher.update(field: versionHashModifier ?? "")
        self.versionHash = hasher.finalize()
        self.entityName = name
        self.managedObjectClass = managedObjectClass ?? parent?.managedObjectClass ?? ManagedObject.self
        self.superentity = parent
        self.isAbstract = isAbstract
        self.inheritedPropertyCount = parent?.properties.count ?? 0
        self.inheritedConstraintCount = parent?.uniquenessConstraints.count ?? 0
        let properties = (parent?.properties ?? []) + properties
        self.properties = properties
        self.uniquenessConstraints = (parent?.uniquenessConstraints ?? []) + uniquenessConstraints
        self.indexes = indexes
        var attributes: [String: AttributeDescription] = [:]
        var relationships: [String: RelationshipDescription] = [:]
        var positions: [String: Int] = [:]
        var attributeAt: [AttributeDescription?] = []
        var relationshipAt: [RelationshipDescription?] = []
        for (index, property) in properties.enumerated() {
            // Duplicates are reported by ManagedObjectModel's checks; the first one wins here.
            if positions[property.name] == nil { positions[property.name] = index }
            switch property {
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
            switch property {
            case .attribute(let a): .attribute(a.attributeType)
            case .relationship(let r): r.isToMany ? .toMany : .toOne
            }
        }
        self.packedLayout = PackedRowLayout(kinds: self.kinds)
        self.initialSlots = properties.map { property in
            switch property {
            case .attribute(let a): .value(a.defaultValue)
            case .relationship(let r): r.isToMany ? .toMany(RelatedObjects()) : .toOne(nil)
            }
        }
        self.defaultedAttributeIndexes = properties.indices.filter {
            if case .attribute(let a) = properties[$0] { return !a.defaultValue.isNull }
            return false
        }
        self.toManyIndexes = properties.indices.filter {
            if case .relationship(let r) = properties[$0] { return r.isToMany }
            return false
        }
        self.mandatoryAttributeIndexes = properties.indices.filter {
            if case .attribute(let a) = properties[$0] { return !a.isOptional }
            return false
        }
        self.transientIndexes = properties.indices.filter { attributeAt[$0]?.isTransient == true }
        self.checkedRelationshipIndexes = properties.indices.filter {
            guard case .relationship(let r) = properties[$0] else { return false }
            return !r.isOptional || r.minCount > 0 || r.maxCount > 0
        }
        self.temporaryIDScope = ManagedObjectID.Scope.make(for: self, store: "", temporary: true)
    }

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

    /// The entities that inherit directly from this one, in the model's order.
    public var subentities: [EntityDescription] { subentityReferences.map(\.entity) }

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
        while let parent = owner.superentity, number < parent.uniquenessConstraints.count { owner = parent }
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
    public var attributeNames: [String] { properties.compactMap { if case .attribute(let a) = $0 { a.name } else { nil } } }

    /// The names of the attributes the store keeps (every attribute but the transient ones), in declaration order.
    var storedAttributeNames: [String] {
        properties.compactMap { if case .attribute(let a) = $0, !a.isTransient { a.name } else { nil } }
    }

    /// `true` when the entity has a transient attribute, its own or inherited.
    var hasTransientAttributes: Bool { !transientIndexes.isEmpty }

    /// `true` when property `index` is a transient attribute.
    func isTransient(at index: Int) -> Bool { attributeAt[index]?.isTransient == true }

    public var description: String {
        (isAbstract ? "abstract " : "") + "entity \(entityName)" + (superentity.map { ": \($0.entityName)" } ?? "")
            + " (\(managedObjectClass)) {\n" + properties.map {
            switch $0 {
            case .attribute(let a): "  \(a)"
            case .relationship(let r): "  \(r)"
            }
        }.joined(separator: "\n") + "\n}"
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
