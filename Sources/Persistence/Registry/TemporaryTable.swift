/// The objects a context holds under temporary IDs, by ID number.
///
/// Inserting is the hot path (every new object lands here) and looking up by a temporary ID is rare, so new
/// objects are only appended to a list; they are hashed into the table the first time anything needs the table.
/// A save that gives every one of them a permanent ID then drops the list without ever hashing it.
///
/// The list holds the objects alone: an object's ID number is its temporary ID's key, and its ID changes only after
/// it has left this table (the context unregisters an object before giving it another ID).
struct TemporaryTable {
    private var table = KeyTable()
    private var unindexed: [ManagedObject] = []

    /// The number of entries: exact, except that an object registered twice before indexing counts twice (which
    /// only makes a save take the slower, one-by-one path).
    var count: Int { table.count + unindexed.count }

    mutating func insert(_ object: ManagedObject, for number: Int64) {
        assert(object.objectID.isTemporaryID && object.objectID.key == number, "registered under its own temporary ID")
        unindexed.append(object)
    }

    mutating func object(for number: Int64) -> ManagedObject? {
        indexNewEntries()
        return table.object(for: number)
    }

    mutating func remove(_ number: Int64) {
        indexNewEntries()
        table.remove(number)
    }

    /// Takes the object for `number` out and returns it when nothing besides this table holds it and its ID is
    /// `id`; nil otherwise.
    mutating func removeIfUnreferenced(_ number: Int64, id: ManagedObjectID) -> ManagedObject? {
        indexNewEntries()
        guard table.object(for: number)?.objectID == id else { return nil }
        return table.removeIfUnreferenced(number)
    }

    /// See ``KeyTable/dropUnreferenced(_:)``; the unindexed list is swept as it is.
    @discardableResult
    mutating func dropUnreferenced(_ dropped: (ManagedObject) -> Void) -> Int {
        var visited = table.count == 0 ? 0 : table.dropUnreferenced(dropped)
        guard !unindexed.isEmpty else { return visited }
        visited += unindexed.count
        // Kept entries move to the front; the others end up behind them and are cut off (and freed) at once.
        var kept = 0
        for index in unindexed.indices {
            if isKnownUniquelyReferenced(&unindexed[index]) {
                dropped(unindexed[index])
                continue
            }
            if kept != index { unindexed.swapAt(kept, index) }
            kept += 1
        }
        unindexed.removeSubrange(kept...)
        return visited
    }

    mutating func removeAll() {
        table.removeAll()
        unindexed = []
    }

    var objects: [ManagedObject] {
        mutating get {
            indexNewEntries()
            return table.objects
        }
    }

    /// See ``KeyTable/forEachSharedObject(_:)``; the unindexed list is walked as it is, since this runs as a
    /// context goes away.
    mutating func forEachSharedObject(_ body: (ManagedObject) -> Void) {
        table.forEachSharedObject(body)
        for index in unindexed.indices where !isKnownUniquelyReferenced(&unindexed[index]) {
            body(unindexed[index])
        }
    }

    private mutating func indexNewEntries() {
        guard !unindexed.isEmpty else { return }
        table.reserve(unindexed.count)
        for object in unindexed { table.insert(object, for: object.objectID.key) }
        unindexed = []
    }
}
