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

    /// The entity and store an ID belongs to, and whether it is temporary: one per combination for the life of
    /// the process.
    ///
    /// IDs are made and dropped for every fetched or saved row and fill the sets of every notification, so an ID is
    /// a plain 16-byte value with no reference counting: scopes are interned and never freed (there are two per
    /// entity of each store a process opens), and IDs point at them `unowned(unsafe)`.
    final class Scope: Sendable {
        let entityName: String
        let storeIdentifier: String
        /// The scope of temporary IDs: their key is a number, not a primary key.
        let isTemporary: Bool

        private init(_ name: ScopeName) {
            entityName = name.entityName
            storeIdentifier = name.storeIdentifier
            isTemporary = name.isTemporary
        }

        private static let interned = Mutex<[ScopeName: Scope]>([:])

        private struct ScopeName: Hashable {
            let entityName: String
            let storeIdentifier: String
            let isTemporary: Bool
        }

        /// The one scope for these names.
        static func named(_ entityName: String, store storeIdentifier: String, temporary: Bool = false) -> Scope {
            interned.withLock { scopes in
                let name = ScopeName(entityName: entityName, storeIdentifier: storeIdentifier, isTemporary: temporary)
                if let scope = scopes[name] { return scope }
                let scope = Scope(name)
                scopes[name] = scope
                return scope
            }
        }

        /// The scope with the same names for temporary (or permanent) IDs.
        func matching(temporary: Bool) -> Scope {
            temporary == isTemporary ? self : Scope.named(entityName, store: storeIdentifier, temporary: temporary)
        }
    }

    unowned(unsafe) let scope: Scope
    /// The primary key of a permanent ID, the number of a temporary one (``Scope/isTemporary`` says which).
    let key: Int64

    /// The ID's key, by kind.
    var storage: Storage {
        scope.isTemporary ? .temporary(UInt64(bitPattern: key)) : .permanent(key)
    }

    /// The name of the object's entity.
    public var entityName: String { scope.entityName }
    /// The identifier of the store the object lives in (the store's metadata UUID); empty for a temporary ID.
    public var storeIdentifier: String { scope.storeIdentifier }

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
        // Scopes are interned: the same names (and kind) are the same scope.
        lhs.key == rhs.key && lhs.scope === rhs.scope
    }

    /// `true` until the object has been saved or given a permanent ID.
    public var isTemporaryID: Bool { scope.isTemporary }

    /// The row's primary key in the store, or `nil` for a temporary ID.
    public var primaryKey: Int64? {
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

    /// Parses a URI made by ``uriRepresentation()``; `nil` when it is not one.
    public init?(uriRepresentation uri: URL) {
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
