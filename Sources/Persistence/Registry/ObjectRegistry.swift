/// The objects a context knows, one per ID: permanent IDs of its own store by entity and primary key, temporary
/// IDs by number, and anything else (another store's IDs, entities outside the model) in a plain dictionary.
struct ObjectRegistry {
    private var permanent: [PrimaryKeyTable] = []
    private var temporary = TemporaryTable()
    private var others: [ManagedObjectID: ManagedObject] = [:]
    /// The identifier of the store whose IDs go in `permanent`.
    var storeIdentifier = ""

    /// The object for row `primaryKey` of the entity with `entityIndex` (the fast path for fetches).
    @inline(__always)
    func object(entityIndex: Int, primaryKey: Int64) -> ManagedObject? {
        entityIndex < permanent.count ? permanent[entityIndex].object(for: primaryKey) : nil
    }

    /// The keys of the objects of entity `entityIndex`, registered under permanent IDs, that pass `isIncluded`.
    func permanentKeys(entityIndex: Int, where isIncluded: (ManagedObject) -> Bool) -> StoreKeySet {
        entityIndex < permanent.count ? permanent[entityIndex].keys(where: isIncluded) : StoreKeySet()
    }

    mutating func object(for id: ManagedObjectID, entityIndex: Int?) -> ManagedObject? {
        switch id.storage {
        case .temporary(let number):
            if let object = temporary.object(for: Int64(bitPattern: number)), object.objectID == id { return object }
        case .permanent(let pk):
            if let entityIndex, id.storeIdentifier == storeIdentifier,
               let object = object(entityIndex: entityIndex, primaryKey: pk) { return object }
        }
        // Registered before the store identifier was known, or not of this store: kept aside.
        return others.isEmpty ? nil : others[id]
    }

    /// The object for row `primaryKey` of the entity with `entityIndex` when something besides the registry holds
    /// it; one that only the registry holds is let go of here (unless `keepingAll`) and nil comes back.
    @inline(__always)
    func heldObject(entityIndex: Int, primaryKey: Int64, keepingAll: Bool) -> ManagedObject? {
        entityIndex < permanent.count ? permanent[entityIndex].heldObject(for: primaryKey, keepingAll: keepingAll) : nil
    }

    /// Takes the object for `id` out and returns it when nothing besides the registry holds it; nil when something
    /// else holds it or none is registered.
    mutating func removeIfUnreferenced(_ id: ManagedObjectID, entityIndex: Int?) -> ManagedObject? {
        if !others.isEmpty, let index = others.index(forKey: id) {
            guard isKnownUniquelyReferenced(&others.values[index]) else { return nil }
            return others.remove(at: index).value
        }
        switch id.storage {
        case .temporary(let number):
            return temporary.removeIfUnreferenced(Int64(bitPattern: number), id: id)
        case .permanent(let pk):
            guard let entityIndex, entityIndex < permanent.count, id.storeIdentifier == storeIdentifier else { return nil }
            return permanent[entityIndex].removeIfUnreferenced(pk)
        }
    }

    /// Takes out every object that nothing besides the registry holds — among those registered since the last
    /// sweep when `recentOnly` (with the temporary and foreign ones, few and short-lived), else all — calling
    /// `dropped` with each before letting go of it. One pass: letting go of an object can leave another held by the
    /// registry alone, which the caller finds through `dropped`. Returns the number of places looked at.
    @discardableResult
    mutating func dropUnreferenced(recentOnly: Bool, _ dropped: (ManagedObject) -> Void) -> Int {
        var visited = 0
        for index in permanent.indices {
            visited += permanent[index].dropUnreferenced(recentOnly: recentOnly, dropped)
        }
        if temporary.count > 0 { visited += temporary.dropUnreferenced(dropped) }
        if !others.isEmpty {
            visited += others.count
            // The keys apart first: iterating the dictionary's own indices would hold a second reference to its
            // storage, and every check would then copy it.
            for id in Array(others.keys) {
                guard let index = others.index(forKey: id), isKnownUniquelyReferenced(&others.values[index]) else { continue }
                dropped(others.remove(at: index).value)
            }
        }
        return visited
    }

    /// The number of registered objects.
    var count: Int {
        permanent.reduce(0) { $0 + $1.count } + temporary.count + others.count
    }

    mutating func insert(_ object: ManagedObject, for id: ManagedObjectID, entityIndex: Int?) {
        switch id.storage {
        case .temporary(let number):
            temporary.insert(object, for: Int64(bitPattern: number))
        case .permanent(let pk):
            guard let entityIndex, id.storeIdentifier == storeIdentifier else {
                others[id] = object
                return
            }
            permanentTable(entityIndex: entityIndex).insert(object, for: pk)
        }
    }

    /// The table of permanent keys of the entity with `entityIndex` in this registry's store, made if needed.
    mutating func permanentTable(entityIndex: Int) -> PrimaryKeyTable {
        while permanent.count <= entityIndex { permanent.append(PrimaryKeyTable()) }
        return permanent[entityIndex]
    }

    /// Registers `object` under the permanent key `primaryKey` of this registry's store: the fast path for a save's
    /// inserted objects, whose IDs were just made from that store.
    mutating func insertPermanent(_ object: ManagedObject, primaryKey: Int64, entityIndex: Int) {
        permanentTable(entityIndex: entityIndex).insert(object, for: primaryKey)
    }

    mutating func remove(_ id: ManagedObjectID, entityIndex: Int?) {
        if others.removeValue(forKey: id) != nil { return }
        switch id.storage {
        case .temporary(let number):
            temporary.remove(Int64(bitPattern: number))
        case .permanent(let pk):
            if let entityIndex, entityIndex < permanent.count, id.storeIdentifier == storeIdentifier {
                permanent[entityIndex].remove(pk)
            }
        }
    }

    /// Calls `body` with every object that something besides the registry still holds.
    mutating func forEachSharedObject(_ body: (ManagedObject) -> Void) {
        for index in permanent.indices { permanent[index].forEachSharedObject(body) }
        temporary.forEachSharedObject(body)
        for object in others.values { body(object) }
    }

    var objects: [ManagedObject] {
        mutating get { permanent.flatMap { $0.objects } + temporary.objects + Array(others.values) }
    }

    /// The number of objects registered under temporary IDs.
    var temporaryCount: Int { temporary.count }

    /// Forgets every temporary ID at once (after a save gave all of them permanent IDs).
    mutating func removeAllTemporary() {
        temporary.removeAll()
    }

    mutating func removeAll() {
        permanent = []
        temporary.removeAll()
        others = [:]
    }
}
