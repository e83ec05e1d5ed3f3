/// What a fetch returns: Core Data's `NSFetchRequestResultType`, a struct of options with one constant per kind of
/// result, so a `switch` over it needs a `default`, as on Apple platforms.
///
/// Only the four constants mean anything; a request's ``FetchRequest/resultType`` is one of them. Any other value
/// (a union, or a raw value of your own) is undocumented in Core Data; here a fetch with one throws.
public struct FetchRequestResultType: OptionSet, Hashable, Sendable {
    /// The constant's raw value, as Core Data's (0, 1, 2, 4).
    public let rawValue: UInt

    /// The result type with this raw value.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Managed objects (the default).
    public static let managedObjectResultType = FetchRequestResultType([])
    /// ``ManagedObjectID``s only: cheap, and safe to hand to another context.
    public static let managedObjectIDResultType = FetchRequestResultType(rawValue: 1)
    /// An `NSDictionary` per row, keyed by property name, with the properties in ``FetchRequest/propertiesToFetch``
    /// (nil values left out): fetch them with `FetchRequest<NSDictionary>`.
    public static let dictionaryResultType = FetchRequestResultType(rawValue: 2)
    /// A single `NSNumber`: the number of matches (`FetchRequest<NSNumber>`).
    public static let countResultType = FetchRequestResultType(rawValue: 4)
}

extension FetchRequestResultType: CustomStringConvertible {
    /// The constant's name (`managedObjectIDResultType`), for messages; a value that is none of them shows its raw
    /// value.
    public var description: String {
        switch self {
        case .managedObjectResultType: "managedObjectResultType"
        case .managedObjectIDResultType: "managedObjectIDResultType"
        case .dictionaryResultType: "dictionaryResultType"
        case .countResultType: "countResultType"
        default: "FetchRequestResultType(rawValue: \(rawValue))"
        }
    }
}

/// A description of what to fetch: an entity, an optional predicate, sort order and limits.
///
/// ```swift
/// let request = FetchRequest<Movie>(entityName: "Movie")
/// request.predicate = FetchPredicate(format: "year >= %d", 1990)
/// request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
/// let movies = try context.fetch(request)
/// ```
public final class FetchRequest<Result: FetchRequestResult>: CustomStringConvertible {
    /// The name of the entity whose objects (or rows) are fetched, as given to ``init(entityName:)``; `nil` for a
    /// request made with ``init()`` whose ``entity`` is not set yet. Optional and read-only, as Core Data's.
    ///
    /// Core Data documents the name only for a request made by name; here a request given an ``entity`` answers
    /// with that entity's name (undocumented: code meant for Core Data should read `entity?.name` instead).
    public var entityName: String? { requestedEntityName.isEmpty ? nil : requestedEntityName }
    /// The name the library looks up: the given name, or the ``entity``'s; empty when there is neither.
    private(set) var requestedEntityName: String
    /// The entity whose objects are fetched, when the request was given one (Core Data's settable `entity`); setting
    /// it sets ``entityName`` too. A request made by name leaves it `nil`: the context looks the name up in its model.
    public var entity: EntityDescription? {
        didSet { requestedEntityName = entity?.entityName ?? "" }
    }
    /// Only objects matching it are returned; `nil` returns every object of the entity.
    public var predicate: FetchPredicate?
    /// The order of results, applied first descriptor first; `nil` (the default, as in Core Data) or an empty array
    /// leaves the store's order, which you should not rely on.
    public var sortDescriptors: [FetchSortDescriptor]?
    /// At most this many results (0: no limit).
    public var fetchLimit = 0
    /// Skip this many results first.
    public var fetchOffset = 0
    /// With a size above 0, the fetch reads only the IDs; objects read their rows in batches of this size when
    /// first used.
    public var fetchBatchSize = 0
    /// `true` (the default): objects come back as faults holding their row, firing when a property is read.
    /// `false`: objects come back with their values already in place — Core Data's "pre-populated with their
    /// property values", so every one answers `isFault` with `false` — including those the context already held as
    /// faults, which are filled from the fetched rows (`awakeFromFetch()` runs). An object already filled keeps
    /// the values it has, unsaved changes included: a fetch does not refresh it.
    public var returnsObjectsAsFaults = true
    /// `true` (the default): the result reflects the context's unsaved inserts, changes and deletes.
    public var includesPendingChanges = true
    /// `true` (the default): a fetch of an entity with subentities returns their objects too; `false`: only
    /// objects of the entity itself.
    public var includesSubentities = true
    /// What each result is: an object (the default), an object ID, a dictionary of values, or a count.
    public var resultType: FetchRequestResultType = .managedObjectResultType
    /// For ``FetchRequestResultType/dictionaryResultType``: the attributes and to-ones to return (to-ones as object
    /// IDs); `nil` for every attribute. As in Core Data, each element is a property name (`String`) or a property
    /// description (``AttributeDescription``, ``RelationshipDescription``) whose name is one of the entity's.
    ///
    /// Core Data also takes expression descriptions here; this library has none. Any other element makes the fetch
    /// throw (Core Data does not document what it does with one).
    public var propertiesToFetch: [Any]?
    /// For dictionary results: leave out rows equal to an earlier one.
    public var returnsDistinctResults = false

    /// A request for every object of `entityName`; narrow and order it with its properties.
    public init(entityName: String) {
        requestedEntityName = entityName
    }

    /// A request with no entity yet, as Core Data's `NSFetchRequest()`: set ``entity`` before fetching (a fetch
    /// without one fails, naming the model's entities).
    public init() {
        requestedEntityName = ""
    }

    public var description: String {
        var text = "FetchRequest<\(resultTypeName(Result.self))>(\(requestedEntityName)"
        if let predicate { text += " where \(predicate.predicateFormat)" }
        if let sortDescriptors, !sortDescriptors.isEmpty {
            text += " order by \(sortDescriptors.map(\.description).joined(separator: ", "))"
        }
        if fetchLimit > 0 { text += " limit \(fetchLimit)" }
        if fetchOffset > 0 { text += " offset \(fetchOffset)" }
        return text + ")"
    }
}
