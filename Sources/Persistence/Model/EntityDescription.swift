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
/// An entity belongs to one ``ManagedObjectModel``; once the model is made it never changes.
public final class EntityDescription: @unchecked Sendable, CustomStringConvertible {
    public let name: String
    /// The class instantiated for this entity's objects (`ManagedObject` itself when there is no subclass).
    public let managedObjectClass: ManagedObject.Type
    /// Attributes and relationships, in the order declared.
    public let properties: [PropertyDescription]
    /// Each constraint is a list of attribute names whose values, together, must be unique among all objects.
    public let uniquenessConstraints: [[String]]
    /// Indexes on the entity's table (Core Data's fetch indexes); they speed fetches up and never change results.
    public let indexes: [FetchIndexDescription]

    public let attributesByName: [String: AttributeDescription]
    public let relationshipsByName: [String: RelationshipDescription]
    /// Position of each property in ``properties``; objects keep their values in that order.
    let propertyIndexByName: [String: Int]
    /// Per property: its attribute (nil for a relationship).
    let attributeAt: [AttributeDescription?]
    /// Per property: its relationship (nil for an attribute).
    let relationshipAt: [RelationshipDescription?]

    /// The values a newly inserted object starts with (shared until the object writes one).
    let initialSlots: [PropertySlot]
    /// The to-many relationships (their lists are written apart from the row).
    let toManyIndexes: [Int]
    /// Attributes that must not be nil at save.
    let mandatoryAttributeIndexes: [Int]
    /// Relationships with something to check at save: a required to-one, a to-many with a count range.
    let checkedRelationshipIndexes: [Int]

    /// The scope of this entity's temporary IDs.
    let temporaryIDScope: ManagedObjectID.Scope

    // Set once by ManagedObjectModel.
    public internal(set) unowned(unsafe) var managedObjectModel: ManagedObjectModel!
    var index = 0

    /// Per property: what it is, without references (read on every property access).
    let kinds: [PropertyKind]
    /// Property index per `@Managed` ordinal of ``managedObjectClass`` (see ``ManagedPropertyOrdinal``); set when
    /// the model checks the class.
    var ordinalIndexes: [Int] = []

    public init(name: String, managedObjectClass: ManagedObject.Type = ManagedObject.self,
                properties: [PropertyDescription], uniquenessConstraints: [[String]] = [],
                indexes: [FetchIndexDescription] = []) {
        self.name = name
        self.managedObjectClass = managedObjectClass
        self.properties = properties
        self.uniquenessConstraints = uniquenessConstraints
        self.indexes = indexes
        self.temporaryIDScope = ManagedObjectID.Scope.named(name, store: "", temporary: true)
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
        self.initialSlots = properties.map { property in
            switch property {
            case .attribute(let a): .value(a.defaultValue)
            case .relationship(let r): r.isToMany ? .toMany(RelatedObjects()) : .toOne(nil)
            }
        }
        self.toManyIndexes = properties.indices.filter {
            if case .relationship(let r) = properties[$0] { return r.isToMany }
            return false
        }
        self.mandatoryAttributeIndexes = properties.indices.filter {
            if case .attribute(let a) = properties[$0] { return !a.isOptional }
            return false
        }
        self.checkedRelationshipIndexes = properties.indices.filter {
            guard case .relationship(let r) = properties[$0] else { return false }
            return !r.isOptional || r.minCount > 0 || r.maxCount > 0
        }
    }

    /// Properties by name.
    public var propertiesByName: [String: PropertyDescription] {
        Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Attribute names in declaration order.
    public var attributeNames: [String] { properties.compactMap { if case .attribute(let a) = $0 { a.name } else { nil } } }

    public var description: String {
        "entity \(name) (\(managedObjectClass)) {\n" + properties.map {
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
                                   "\(name) has no property named '\(key)'. Its properties: \(properties.map(\.name).joined(separator: ", ")).",
                                   entityName: name, key: key)
        }
        return index
    }
}

/// What a property is, as a plain value.
enum PropertyKind: Equatable {
    case attribute(AttributeType)
    case toOne
    case toMany
}
