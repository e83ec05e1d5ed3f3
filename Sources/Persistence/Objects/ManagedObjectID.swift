import Foundation
import Synchronization

/// Numbers temporary IDs: cheaper than a UUID per inserted object, and unique within the process, which is as far
/// as a temporary ID means anything.
private let temporaryIDCounter = Atomic<UInt64>(0)
/// Distinguishes this process's temporary IDs in URIs from another process's.
private let processToken = UUID().uuidString

/// The identity of one managed object, valid in every context of one store.
///
/// An object inserted into a context has a *temporary* ID until it is saved (or until
/// ``ManagedObjectContext/obtainPermanentIDs(for:)``); from then on it has a *permanent* one. The two are different
/// IDs: a temporary ID never equals the permanent ID the object later gets.
///
/// IDs are plain values and `Sendable`: they are the only thing about an object that may be handed from one context
/// (or queue) to another. Use ``ManagedObjectContext/object(with:)`` or
/// ``ManagedObjectContext/existingObject(with:)`` on the other side.
public struct ManagedObjectID: Hashable, Sendable {
    enum Storage: Hashable, Sendable {
        case temporary(UInt64)
        case permanent(Int64)
    }

    /// The entity and store an ID belongs to, and whether it is temporary.
    ///
    /// IDs are made and dropped for every fetched or saved row and fill the sets of every notification, so an ID is
    /// a plain 16-byte value with no reference counting: scopes are never freed, and IDs point at them
    /// `unowned(unsafe)`.
    ///
    /// Invariants:
    /// - Two IDs are equal when their keys are and their scopes have the same ``names`` (interned: one instance
    ///   per entity name, store identifier and kind for the life of the process).
    /// - A scope made for an entity description (``EntityDescription/idScope(store:temporary:)``) belongs to that
    ///   description alone: entities of other models, even of the same name, have scopes of their own, so
    ///   ``ManagedObjectID/entity`` is the description the ID was made with. Such a scope points at its entity
    ///   without counting and is told when the entity goes (scopes outlive models; an entity does not outlive its
    ///   model), and there is one per entity, store and kind.
    /// - A scope made from names alone (``named(_:store:temporary:)``: a URI read without a model, a test's ID) has
    ///   no entity.
    final class Scope: Sendable {
        /// What IDs of this scope compare by.
        let names: Names
        /// The scope of temporary IDs: their key is a number, not a primary key.
        let isTemporary: Bool
        /// The entity description the scope was made for; nil for a scope of names alone, and once the entity's
        /// model is gone.
        var entity: EntityDescription? { entityIsAlive.load(ordering: .acquiring) ? madeFor : nil }
        /// The entity, not counted: a `weak` reference would give every entity description a side table, and so
        /// every retain and release of one — an object's entity is read on most of its paths — the runtime's slow
        /// path (2 % of a delete through a child context, measured). Valid while ``entityIsAlive``.
        private unowned(unsafe) let madeFor: EntityDescription?
        /// Cleared by the entity's deinit (``entityWillGo()``), before its memory is given back.
        private let entityIsAlive: Atomic<Bool>
        /// Whether the scope was made for an entity (which ``entity`` is nil only once it is gone).
        let isMadeForEntity: Bool

        var entityName: String { names.entityName }
        var storeIdentifier: String { names.storeIdentifier }

        private init(names: Names, entity: EntityDescription?) {
            self.names = names
            self.isTemporary = names.isTemporary
            self.madeFor = entity
            self.entityIsAlive = Atomic(entity != nil)
            self.isMadeForEntity = entity != nil
        }

        /// Called by the entity this scope was made for as it goes: from then on ``entity`` is nil.
        func entityWillGo() {
            entityIsAlive.store(false, ordering: .releasing)
        }

        /// The names of a scope, interned: equal names are one instance, so IDs compare them by identity.
        final class Names: Sendable {
            let entityName: String
            let storeIdentifier: String
            let isTemporary: Bool

            private init(_ key: Key) {
                entityName = key.entityName
                storeIdentifier = key.storeIdentifier
                isTemporary = key.isTemporary
            }

            private struct Key: Hashable {
                let entityName: String
                let storeIdentifier: String
                let isTemporary: Bool
            }

            /// Each instance with its scope of names alone (made with it).
            private static let interned = Mutex<[Key: (names: Names, scope: Scope)]>([:])

            /// The one instance for these names, and the scope of names alone that goes with it.
            static func named(_ entityName: String, store storeIdentifier: String, temporary: Bool) -> (names: Names, scope: Scope) {
                interned.withLock { table in
                    let key = Key(entityName: entityName, storeIdentifier: storeIdentifier, isTemporary: temporary)
                    if let found = table[key] { return found }
                    let names = Names(key)
                    let made = (names: names, scope: Scope(names: names, entity: nil))
                    table[key] = made
                    return made
                }
            }
        }

        /// Scopes made for entities, kept for the life of the process: IDs point at them without counting.
        private static let madeForEntities = Mutex<[Scope]>([])

        /// The one scope of names alone for these names: an ID made from a URI or by a test, with no entity.
        static func named(_ entityName: String, store storeIdentifier: String, temporary: Bool = false) -> Scope {
            Names.named(entityName, store: storeIdentifier, temporary: temporary).scope
        }

        /// A new scope for `entity` (call ``EntityDescription/idScope(store:temporary:)``, which keeps one per
        /// store and kind).
        static func make(for entity: EntityDescription, store storeIdentifier: String, temporary: Bool) -> Scope {
            let names = Names.named(entity.entityName, store: storeIdentifier, temporary: temporary).names
            let scope = Scope(names: names, entity: entity)
            madeForEntities.withLock { $0.append(scope) }
            return scope
        }

        /// The scope with the same entity (or names) for temporary (or permanent) IDs.
        func matching(temporary: Bool) -> Scope {
            if temporary == isTemporary { return self }
            if let entity { return entity.idScope(store: storeIdentifier, temporary: temporary) }
            return Scope.named(entityName, store: storeIdentifier, temporary: temporary)
        }
    }

    unowned(unsafe) let scope: Scope
    /// The primary key of a permanent ID, the number of a temporary one (``Scope/isTemporary`` says which).
    let key: Int64

    /// The ID's key, by kind.
    var storage: Storage {
        scope.isTemporary ? .temporary(UInt64(bitPattern: key)) : .permanent(key)
    }

    /// The description of the object's entity: the one of the model the ID was made with (the model of the
    /// context or coordinator that gave it out), never an entity of the same name in another model.
    ///
    /// An ID here is a plain value that keeps nothing alive, so reading `entity` once the model is gone (every
    /// container, coordinator and reference to it released) stops the program with a message saying so. Core
    /// Data's `entity` is non-optional and its documentation says nothing of an ID that outlives its model, so this
    /// takes the stricter reading. Keep the model while you use its IDs' entities.
    public var entity: EntityDescription {
        guard let entity = scope.entity else {
            let why = scope.isMadeForEntity
                ? "the model this ID was made with is gone (an ID does not keep its model's entities alive); keep the model while its IDs' entities are used"
                : "the ID was read from a URI without a model; turn a URI into an ID with PersistentStoreCoordinator.managedObjectID(forURIRepresentation:)"
            fatalError("\(self).entity: \(why)")
        }
        return entity
    }

    /// The name of the object's entity (Persistence's; Core Data's is `entity.name`).
    var entityName: String { scope.entityName }
    /// The identifier of the store the object lives in (the store's metadata UUID); empty for a temporary ID.
    var storeIdentifier: String { scope.storeIdentifier }

    /// This ID in the scope `entity` gives IDs of its kind and store: how an ID from another context's model (or
    /// one read from a URI) is named in a context whose model has `entity`, so that its objects' IDs name the
    /// context's own entity.
    func inScope(of entity: EntityDescription) -> ManagedObjectID {
        if scope.entity === entity { return self }
        return ManagedObjectID(scope: entity.idScope(store: scope.storeIdentifier, temporary: scope.isTemporary), key: key)
    }

    init(scope: Scope, storage: Storage) {
        switch storage {
        case .temporary(let number):
            self.scope = scope.matching(temporary: true)
            key = Int64(bitPattern: number)
        case .permanent(let primaryKey):
            self.scope = scope.matching(temporary: false)
            key = primaryKey
        }
    }

    /// The ID with `key` in `scope`, taken as it is: no check of the scope's kind and no reference counting (a
    /// fetch makes one per row, an insert one per object).
    @inline(__always)
    init(scope: Scope, key: Int64) {
        self.scope = scope
        self.key = key
    }

    init(entityName: String, storeIdentifier: String, storage: Storage) {
        var isTemporary = false
        if case .temporary = storage { isTemporary = true }
        self.init(scope: Scope.named(entityName, store: storeIdentifier, temporary: isTemporary), storage: storage)
    }

    /// A new temporary ID in `scope`, a scope of temporary IDs (an entity's own: every new object gets one).
    static func temporary(scope: Scope) -> ManagedObjectID {
        assert(scope.isTemporary, "a temporary ID needs a scope of temporary IDs")
        let number = temporaryIDCounter.add(1, ordering: .relaxed).newValue
        return ManagedObjectID(scope: scope, key: Int64(bitPattern: number))
    }

    static func temporary(entityName: String) -> ManagedObjectID {
        temporary(scope: Scope.named(entityName, store: "", temporary: true))
    }

    static func permanent(entityName: String, storeIdentifier: String, primaryKey: Int64) -> ManagedObjectID {
        ManagedObjectID(entityName: entityName, storeIdentifier: storeIdentifier, storage: .permanent(primaryKey))
    }

    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        // Names are interned: the same entity name, store and kind are the same instance (see Scope).
        lhs.key == rhs.key && (lhs.scope === rhs.scope || lhs.scope.names === rhs.scope.names)
    }

    /// `true` until the object has been saved or given a permanent ID.
    public var isTemporaryID: Bool { scope.isTemporary }

    /// The row's primary key in the store, or `nil` for a temporary ID (Persistence's).
    var primaryKey: Int64? {
        scope.isTemporary ? nil : key
    }

    /// A URI that names this object and can be stored outside the database (in user defaults, a URL, a file),
    /// then turned back into an ID with ``PersistentStoreCoordinator/managedObjectID(forURIRepresentation:)``.
    ///
    /// Permanent: `x-coredata://<store UUID>/<Entity>/p<primary key>`; temporary:
    /// `x-coredata:///<Entity>/t<process token>-<number>` (meaningful only in the process that made it).
    public func uriRepresentation() -> URL {
        var components = URLComponents()
        components.scheme = "x-coredata"
        switch storage {
        case .temporary(let number):
            components.host = ""
            components.path = "/\(entityName)/t\(processToken)-\(number)"
        case .permanent(let pk):
            components.host = storeIdentifier
            components.path = "/\(entityName)/p\(pk)"
        }
        // The parts are checked names and numbers, so a URL always forms.
        return components.url!
    }

    /// Parses a URI made by ``uriRepresentation()``; `nil` when it is not one. The ID has no ``entity``: Core
    /// Data's way from a URI to an ID is ``PersistentStoreCoordinator/managedObjectID(forURIRepresentation:)``,
    /// which gives the coordinator's.
    init?(uriRepresentation uri: URL) {
        guard uri.scheme == "x-coredata" else { return nil }
        let parts = uri.path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2, let tag = parts[1].first else { return nil }
        let entity = String(parts[0])
        let rest = String(parts[1].dropFirst())
        switch tag {
        case "p":
            guard let pk = Int64(rest), pk > 0, let host = uri.host, !host.isEmpty else { return nil }
            self.init(entityName: entity, storeIdentifier: host, storage: .permanent(pk))
        case "t":
            // Another process's temporary IDs name nothing here.
            guard rest.hasPrefix(processToken + "-"), let number = UInt64(rest.dropFirst(processToken.count + 1)) else { return nil }
            self.init(entityName: entity, storeIdentifier: "", storage: .temporary(number))
        default:
            return nil
        }
    }
}

extension ManagedObjectID {
    /// Hashes the key alone: IDs of one store rarely share it, and hashing the names on every registry lookup
    /// would cost more than the rare collision. Equality still compares every part.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }

    /// What sets and dictionaries use: the key mixed with the table's seed by one multiplication (see
    /// ``ManagedObject/_rawHashValue(seed:)``); every save and merge builds sets of IDs.
    public func _rawHashValue(seed: Int) -> Int {
        fastHash(UInt64(bitPattern: key), seed: seed)
    }
}

extension ManagedObjectID: CustomStringConvertible {
    public var description: String { "<\(uriRepresentation().absoluteString)>" }
}
