/// The inserted, updated or deleted objects of a context, in the order they joined, with constant-time membership
/// and removal. Each object remembers its position in each of the three lists (an object belongs to one context),
/// so no side table is needed.
struct ObjectList {
    enum Kind {
        case inserted, updated, deleted
    }

    let kind: Kind
    private var slots: [ManagedObject?] = []
    private(set) var count = 0
    /// Changes whenever positions are renumbered (compaction, removeAll), which invalidates older marks.
    private var generation = 0

    /// A point in the list's history: what was appended after it is what changed since.
    struct Mark {
        fileprivate var generation = -1
        fileprivate var position = 0
    }

    /// The current end of the list.
    var mark: Mark { Mark(generation: generation, position: slots.count) }

    /// The objects appended since `mark` (all current objects when the list was renumbered since).
    func objects(since mark: Mark) -> [ManagedObject] {
        guard mark.generation == generation else { return objects }
        return slots[min(mark.position, slots.count)...].compactMap { $0 }
    }

    /// ``objects(since:)`` as a set, built without an intermediate array (a save of many objects makes one).
    func objectSet(since mark: Mark) -> Set<ManagedObject> {
        let start = mark.generation == generation ? min(mark.position, slots.count) : 0
        var set = Set<ManagedObject>(minimumCapacity: slots.count - start)
        for object in slots[start...] {
            if let object { set.insert(object) }
        }
        return set
    }

    init(_ kind: Kind) {
        self.kind = kind
    }

    var isEmpty: Bool { count == 0 }

    func contains(_ object: ManagedObject) -> Bool { object.listPositions[kind] >= 0 }

    mutating func append(_ object: ManagedObject) {
        guard object.listPositions[kind] < 0 else { return }
        object.listPositions[kind] = slots.count
        slots.append(object)
        count += 1
    }

    mutating func remove(_ object: ManagedObject) {
        let position = object.listPositions[kind]
        guard position >= 0, position < slots.count, slots[position] === object else { return }
        slots[position] = nil
        object.listPositions[kind] = -1
        count -= 1
        // Compact once holes dominate, so iteration stays proportional to the live count.
        if slots.count > 32 && count < slots.count / 2 { compact() }
    }

    mutating func removeAll() {
        for object in slots { object?.listPositions[kind] = -1 }
        slots.removeAll()
        count = 0
        generation += 1
    }

    var objects: [ManagedObject] {
        // Sized up front (compactMap would grow step by step): a save copies lists of tens of thousands.
        var result: [ManagedObject] = []
        result.reserveCapacity(count)
        for case let object? in slots { result.append(object) }
        return result
    }

    private mutating func compact() {
        generation += 1
        slots = slots.compactMap { $0 }
        for (position, object) in slots.enumerated() { object!.listPositions[kind] = position }
    }
}

/// An object's positions in its context's inserted, updated and deleted lists (-1: not in the list).
struct ListPositions {
    private var inserted: Int32 = -1
    private var updated: Int32 = -1
    private var deleted: Int32 = -1

    subscript(kind: ObjectList.Kind) -> Int {
        get {
            switch kind {
            case .inserted: Int(inserted)
            case .updated: Int(updated)
            case .deleted: Int(deleted)
            }
        }
        set {
            switch kind {
            case .inserted: inserted = Int32(newValue)
            case .updated: updated = Int32(newValue)
            case .deleted: deleted = Int32(newValue)
            }
        }
    }
}
