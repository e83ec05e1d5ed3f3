/// The objects a context holds under temporary IDs, by ID number.
///
/// Inserting is the hot path (every new object lands here) and looking up by a temporary ID is rare, so new
/// objects are only appended to a list; they are hashed into the table the first time anything needs the table.
/// A save that gives every one of them a permanent ID then drops the list without ever hashing it.
struct TemporaryTable {
    private var table = KeyTable()
    private var unindexed: [Entry] = []

    // A struct rather than a tuple: arrays of tuples are destroyed through generic, unspecialised code.
    private struct Entry {
        let number: Int64
        var object: ManagedObject
    }

    /// The number of entries: exact, except that an object registered twice before indexing counts twice (which
    /// only makes a save take the slower, one-by-one path).
    var count: Int { table.count + unindexed.count }

    mutating func insert(_ object: ManagedObject, for number: Int64) {
        unindexed.append(Entry(number: number, object: object))
    }

    mutating func object(for number: Int64) -> ManagedObject? {
        indexNewEntries()
        return table.object(for: number)
    }

    mutating func remove(_ number: Int64) {
        indexNewEntries()
        table.remove(number)
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
        for index in unindexed.indices where !isKnownUniquelyReferenced(&unindexed[index].object) {
            body(unindexed[index].object)
        }
    }

    private mutating func indexNewEntries() {
        guard !unindexed.isEmpty else { return }
        table.reserve(unindexed.count)
        for entry in unindexed { table.insert(entry.object, for: entry.number) }
        unindexed = []
    }
}
