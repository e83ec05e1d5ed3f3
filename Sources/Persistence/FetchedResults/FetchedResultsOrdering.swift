import Foundation

/// The order of a fetched results controller's objects, worked out in memory so a changed object can be put in its
/// place without fetching again: the request's sort descriptors compared as the store's `ORDER BY` compares them
/// (``SortOrdering``), then — for objects equal on every key — the object ID, as the store's query breaks ties by
/// primary key (a new object, with a temporary ID, after the saved ones).
struct FetchedResultsOrdering {
    /// An object's sort values, read once.
    struct Key {
        let values: [PersistentValue]
        let id: ManagedObjectID
    }

    private let descriptors: [(keyPath: [String], ascending: Bool, caseInsensitive: Bool)]

    init(_ sortDescriptors: [FetchSortDescriptor]) {
        descriptors = sortDescriptors.map { ($0.keyPath, $0.ascending, $0.caseInsensitive) }
    }

    func key(of object: ManagedObject) -> Key {
        Key(values: descriptors.map { object.sortValue(forKeyPath: $0.keyPath) }, id: object.objectID)
    }

    /// `true` when the object with `key` sorts before `object`, whose values are read as needed.
    func precedes(_ key: Key, _ object: ManagedObject) -> Bool {
        for (index, descriptor) in descriptors.enumerated() {
            let order = SortOrdering.compare(key.values[index], object.sortValue(forKeyPath: descriptor.keyPath),
                                             caseInsensitive: descriptor.caseInsensitive)
            if order != .orderedSame { return (order == .orderedAscending) == descriptor.ascending }
        }
        return Self.idPrecedes(key.id, object.objectID)
    }

    /// `true` when `lhs` sorts before `rhs`.
    func precedes(_ lhs: Key, _ rhs: Key) -> Bool {
        for (index, descriptor) in descriptors.enumerated() {
            let order = SortOrdering.compare(lhs.values[index], rhs.values[index],
                                             caseInsensitive: descriptor.caseInsensitive)
            if order != .orderedSame { return (order == .orderedAscending) == descriptor.ascending }
        }
        return Self.idPrecedes(lhs.id, rhs.id)
    }

    /// Where an object with `key` goes among `rows` (sorted): after every row it does not precede.
    func insertionIndex(of key: Key, in rows: [ManagedObject], from start: Int = 0) -> Int {
        var low = start
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(key, rows[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Saved objects by primary key, then new objects in the order they were made.
    private static func idPrecedes(_ lhs: ManagedObjectID, _ rhs: ManagedObjectID) -> Bool {
        let lhsTemporary = lhs.isTemporaryID
        if lhsTemporary != rhs.isTemporaryID { return !lhsTemporary }
        return lhsTemporary ? UInt64(bitPattern: lhs.key) < UInt64(bitPattern: rhs.key) : lhs.key < rhs.key
    }
}
